package admission

import (
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
)

// TestEncodedCostGrowsWithMessages checks that a request's estimated cost counts its messages, not only its bytes:
// a thousand empty moves (two bytes each) cost as much as a thousand messages, and a long token its bytes.
func TestEncodedCostGrowsWithMessages(t *testing.T) {
	token, err := proto.Marshal(&rulebookv1.ApplyMoveRequest{Token: strings.Repeat("A", 4000)})
	if err != nil {
		t.Fatal(err)
	}
	moves := make([]*rulebookv1.Move, 1000)
	for i := range moves {
		moves[i] = &rulebookv1.Move{}
	}
	replay, err := proto.Marshal(&rulebookv1.ReplayRequest{Moves: moves})
	if err != nil {
		t.Fatal(err)
	}
	tokenCost, err := EncodedCost((&rulebookv1.ApplyMoveRequest{}).ProtoReflect().Descriptor(), token)
	if err != nil {
		t.Fatal(err)
	}
	replayCost, err := EncodedCost((&rulebookv1.ReplayRequest{}).ProtoReflect().Descriptor(), replay)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2*int64(len(token)) + MessageCost; tokenCost != want {
		t.Errorf("a token of %d bytes costs %d, want its bytes twice and one message, %d", len(token), tokenCost, want)
	}
	if want := 2*int64(len(replay)) + 1001*MessageCost; replayCost != want {
		t.Errorf("%d bytes of a thousand moves cost %d, want their bytes twice and 1,001 messages, %d", len(replay), replayCost, want)
	}
}

// TestRequestsDoNotNestThemselves checks that no message of a RulesService request holds a message of its own type,
// however deep: EncodedCost follows the messages a request's fields declare, and a request could otherwise make it
// recurse as deep as it likes.
func TestRequestsDoNotNestThemselves(t *testing.T) {
	var walk func(md protoreflect.MessageDescriptor, path []protoreflect.FullName)
	walk = func(md protoreflect.MessageDescriptor, path []protoreflect.FullName) {
		if slices.Contains(path, md.FullName()) {
			t.Fatalf("%v holds %s again", path, md.FullName())
		}
		path = append(path, md.FullName())
		for i := range md.Fields().Len() {
			if sub := md.Fields().Get(i).Message(); sub != nil {
				walk(sub, path)
			}
		}
	}
	methods := rulebookv1grpc.File_rulebook_v1_rules_service_proto.Services().ByName("RulesService").Methods()
	for i := range methods.Len() {
		walk(methods.Get(i).Input(), nil)
	}
}

// TestJSONCost checks the estimate of JSON bodies: three times their bytes and MessageCost for each object, not counting braces
// within strings, escaped quotes included.
func TestJSONCost(t *testing.T) {
	tests := []struct {
		body    string
		objects int
	}{
		{``, 0},
		{`{}`, 1},
		{`{"moves": [{}, {}, {"player": 1}]}`, 4},
		{`{"token": "{{{"}`, 1},
		{`{"token": "a\"{"}`, 1},
		{`{"token": "a\\"}, {}`, 2},
		{`not json {`, 1},
	}
	for _, tt := range tests {
		if got, want := JSONCost([]byte(tt.body)), int64(3*len(tt.body)+MessageCost*tt.objects); got != want {
			t.Errorf("%s: cost %d, want %d", tt.body, got, want)
		}
	}
}
