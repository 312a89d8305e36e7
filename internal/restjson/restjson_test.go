package restjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
)

// TestDecode checks what Decode makes of a body: the request, io.EOF for white space only, or a refusal with its
// reason and the field at fault.
func TestDecode(t *testing.T) {
	long := strings.Repeat("x", 2*MaxEchoBytes)
	tests := []struct {
		name, body    string
		want          *rulebookv1.ReplayRequest // nil: refused or empty
		eof           bool
		reason, field string
	}{
		{name: "a request", body: ` {"game":"exploze","moves":[{"player":1}]}` + "\n",
			want: &rulebookv1.ReplayRequest{Game: "exploze", Moves: []*rulebookv1.Move{{Player: 1}}}},
		{name: "a field by its proto name", body: `{"seat_pass":"1.x"}`, want: &rulebookv1.ReplayRequest{SeatPass: "1.x"}},
		{name: "nothing", body: ``, eof: true},
		{name: "white space only", body: " \t\r\n", eof: true},
		{name: "cut", body: `{"game":`, reason: ReasonMalformedJSON},
		{name: "data after the object", body: `{}{}`, reason: ReasonMalformedJSON},
		{name: "not JSON after the object", body: `{} x`, reason: ReasonMalformedJSON},
		{name: "not an object", body: `[1]`, reason: ReasonMalformedJSON},
		{name: "an unknown field", body: `{"game":"exploze","gmae":1}`, reason: refusal.ReasonInvalidField, field: "gmae"},
		{name: "an unknown field deeper", body: `{"state":{"exploze":{"optoins":{}}}}`, reason: refusal.ReasonInvalidField,
			field: "state.exploze.optoins"},
		{name: "an item of a list", body: `{"moves":[{"player":1},{"player":"two"}]}`, reason: refusal.ReasonInvalidField,
			field: "moves[1].player"},
		{name: "a field twice", body: `{"game":"a","game":"b"}`, reason: refusal.ReasonInvalidField, field: "game"},
		{name: "two of a oneof", body: `{"state":{"exploze":{},"kipicot":{}}}`, reason: refusal.ReasonInvalidField,
			field: "state.kipicot"},
		{name: "a string that is not UTF-8", body: "{\"game\":\"\xff\"}", reason: refusal.ReasonInvalidField, field: "game"},
		{name: "a long unknown field, shortened", body: `{"` + long + `":1}`, reason: refusal.ReasonInvalidField,
			field: long[:MaxEchoBytes-3] + "..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := &rulebookv1.ReplayRequest{}
			err := Decode([]byte(tt.body), got)
			switch {
			case tt.eof:
				if !errors.Is(err, io.EOF) {
					t.Fatalf("got %v, want io.EOF", err)
				}
			case tt.reason != "":
				st := status.Convert(err)
				info, violation := details(st)
				if st.Code() != codes.InvalidArgument || info.GetReason() != tt.reason || info.GetMetadata()["field"] != tt.field {
					t.Fatalf("got %v, want INVALID_ARGUMENT %s of field %q", err, tt.reason, tt.field)
				}
				if (tt.field != "") != (violation != nil) || violation.GetField() != tt.field {
					t.Errorf("field violation %v, want one of %q", violation, tt.field)
				}
			case err != nil:
				t.Fatalf("got %v, want %v", err, tt.want)
			case !proto.Equal(got, tt.want):
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// details returns the ErrorInfo and the first field violation of st.
func details(st *status.Status) (*errdetails.ErrorInfo, *errdetails.BadRequest_FieldViolation) {
	var info *errdetails.ErrorInfo
	var violation *errdetails.BadRequest_FieldViolation
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			info = d
		case *errdetails.BadRequest:
			violation = d.GetFieldViolations()[0]
		}
	}
	return info, violation
}

// TestStatusBody checks the body of a refusal: its status with the ErrorInfo as an Any, unset fields left out.
func TestStatusBody(t *testing.T) {
	err := Decode([]byte(`[]`), &rulebookv1.ScoreRequest{})
	want := `{"code":3,"message":"the body is not one JSON object: not an object","details":[{"@type":` +
		`"type.googleapis.com/google.rpc.ErrorInfo","reason":"MALFORMED_JSON","domain":"rulebook"}]}`
	if got := compact(t, StatusBody(err)); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if got := compact(t, StatusBody(errors.New("not a status"))); got != `{"code":2,"message":"not a status"}` {
		t.Errorf("an error that is not a status: got %s, want UNKNOWN", got)
	}
}

// compact returns body without its white space.
func compact(t *testing.T, body []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, body); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return b.String()
}
