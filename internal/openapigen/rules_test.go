package main

import (
	"encoding/json"
	"strings"
	"testing"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// fieldOf returns the field name of m's message.
func fieldOf(m proto.Message, name string) protoreflect.FieldDescriptor {
	return m.ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(name))
}

// TestBounds checks the schema keywords of buf.validate's rules: the fields' own (rules nil), and others on them.
func TestBounds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fd     protoreflect.FieldDescriptor
		rules  *validate.FieldRules // nil: the field's own
		schema string
		want   string // the schema after, or the error
	}{
		{"int32 range", fieldOf(&rulebookv1.ExplozeMove{}, "row"), nil,
			`{"type":"integer"}`, `{"maximum":31,"minimum":0,"type":"integer"}`},
		{"uint32 lte", fieldOf(&rulebookv1.ExplozeState{}, "moves_played"), nil, `{}`, `{"maximum":2945}`},
		{"exclusive and outside", fieldOf(&rulebookv1.ExplozeMove{}, "row"),
			&validate.FieldRules{Type: &validate.FieldRules_Int32{Int32: &validate.Int32Rules{
				GreaterThan: &validate.Int32Rules_Gt{Gt: 10}, LessThan: &validate.Int32Rules_Lt{Lt: 5}}}},
			`{}`, `{"anyOf":[{"exclusiveMinimum":10},{"exclusiveMaximum":5}]}`},
		{"in and not in", fieldOf(&rulebookv1.ExplozeMove{}, "row"),
			&validate.FieldRules{Type: &validate.FieldRules_Int32{Int32: &validate.Int32Rules{In: []int32{1, 2}, NotIn: []int32{3}}}},
			`{}`, `{"enum":[1,2],"not":{"enum":[3]}}`},
		{"64-bit, a string in JSON", fieldOf(&rulebookv1.UbongoDuelMove{}, "received_at"), nil,
			`{"type":"string"}`, `{"type":"string"}`},
		{"duration, a string in JSON", fieldOf(&rulebookv1.SuggestMoveRequest{}, "think_time"), nil,
			`{"type":"string"}`, `{"type":"string"}`},
		{"string length", fieldOf(&rulebookv1.NewGameRequest{}, "game"), nil, `{}`, `{"maxLength":32,"minLength":1}`},
		{"string pattern", fieldOf(&rulebookv1.UbongoDuelTask{}, "side_name"), nil, `{}`,
			`{"maxLength":2,"pattern":"^[AB][1-9]$"}`},
		{"string patterns, bytes and affixes", fieldOf(&rulebookv1.NewGameRequest{}, "game"),
			&validate.FieldRules{Type: &validate.FieldRules_String_{String_: &validate.StringRules{
				MaxLen: proto.Uint64(9), MaxBytes: proto.Uint64(4), Prefix: proto.String("a."), Suffix: proto.String("z")}}},
			`{}`, `{"allOf":[{"pattern":"^a\\."},{"pattern":"z$"}],"maxLength":4}`},
		{"string well-known", fieldOf(&rulebookv1.NewGameRequest{}, "game"),
			&validate.FieldRules{Type: &validate.FieldRules_String_{String_: &validate.StringRules{
				WellKnown: &validate.StringRules_Email{Email: true}}}},
			`{}`, `rule email has no schema form`},
		{"bytes in base64", fieldOf(&rulebookv1.UbongoDuelState{}, "die"), nil, `{}`, `{"maxLength":64}`},
		{"enum not in", fieldOf(&rulebookv1.MicropulStone{}, "quadrant"), nil, `{"$ref":"q"}`,
			`{"$ref":"q","enum":["MICROPUL_QUADRANT_TOP_LEFT","MICROPUL_QUADRANT_TOP_RIGHT","MICROPUL_QUADRANT_BOTTOM_RIGHT","MICROPUL_QUADRANT_BOTTOM_LEFT"]}`},
		{"enum defined only", fieldOf(&rulebookv1.ApplyMoveRequest{}, "events"), nil, `{"$ref":"e"}`, `{"$ref":"e"}`},
		{"list and its items", fieldOf(&rulebookv1.ReplayRequest{}, "tokens"), nil, `{"items":{"type":"string"}}`,
			`{"items":{"maxLength":262144,"type":"string"},"maxItems":20000}`},
		{"list bounds", fieldOf(&rulebookv1.UbongoDuelSubmit{}, "placements"), nil, `{"items":{}}`,
			`{"items":{},"maxItems":21,"minItems":1}`},
		{"map", fieldOf(&rulebookv1.MoveRefusal{}, "facts"),
			&validate.FieldRules{Type: &validate.FieldRules_Map{Map: &validate.MapRules{MaxPairs: proto.Uint64(3),
				Keys:   &validate.FieldRules{Type: &validate.FieldRules_String_{String_: &validate.StringRules{MinLen: proto.Uint64(1)}}},
				Values: &validate.FieldRules{Type: &validate.FieldRules_String_{String_: &validate.StringRules{MaxLen: proto.Uint64(8)}}}}}},
			`{"additionalProperties":{"type":"string"}}`,
			`{"additionalProperties":{"maxLength":8,"type":"string"},"maxProperties":3,"propertyNames":{"minLength":1,"type":"string"}}`},
		{"rules of another type", fieldOf(&rulebookv1.ReplayRequest{}, "tokens"),
			&validate.FieldRules{Type: &validate.FieldRules_Int32{Int32: &validate.Int32Rules{}}}, `{}`, `rules of a`},
		{"no rules", fieldOf(&rulebookv1.ExplozeCoord{}, "row"), nil, `{"type":"integer"}`, `{"type":"integer"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkSchema(t, tc.schema, tc.want, func(s object) error {
				if tc.rules == nil {
					return completer{}.field(s, tc.fd)
				}
				return bounds(s, tc.rules, tc.fd, true)
			})
		})
	}
}

// checkSchema checks that complete, run on schema, makes it want (in JSON, its keys sorted), or fails with an error
// that says want.
func checkSchema(t *testing.T, schema, want string, complete func(object) error) {
	t.Helper()
	var s object
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		t.Fatal(err)
	}
	if err := complete(s); err != nil {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %s", err, want)
		}
		return
	}
	got, _ := json.Marshal(s)
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
