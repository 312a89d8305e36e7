package gateway

import (
	"errors"
	"io"
	"testing"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/internal/restjson"
)

// TestBodyDecoder checks what the decoder makes of a request body loaded already (a requestBody, decoded from its
// bytes): the request, io.EOF for a body of white space only, or the refusal it keeps for callError.
func TestBodyDecoder(t *testing.T) {
	m := bodyMarshaler{&runtime.JSONPb{}}
	tests := []struct {
		name, body string
		want       *rulebookv1.ApplyMoveRequest // nil: refused or empty
		eof        bool
		reason     string
	}{
		{name: "a request", body: ` {"game":"exploze","move":{"player":1}}` + "\n",
			want: &rulebookv1.ApplyMoveRequest{Game: "exploze", Move: &rulebookv1.Move{Player: 1}}},
		{name: "nothing", body: ``, eof: true},
		{name: "white space only", body: " \t\r\n", eof: true},
		{name: "cut", body: `{"game":`, reason: restjson.ReasonMalformedJSON},
		{name: "data after the object", body: `{}{}`, reason: restjson.ReasonMalformedJSON},
		{name: "not an object", body: `[1]`, reason: restjson.ReasonMalformedJSON},
		{name: "an unknown field", body: `{"move":{"plaer":1}}`, reason: refusal.ReasonInvalidField},
		{name: "a string that is not UTF-8", body: "{\"game\":\"\xff\"}", reason: refusal.ReasonInvalidField},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := &requestBody{loaded: true, body: []byte(tt.body)}
			got := &rulebookv1.ApplyMoveRequest{}
			err := m.NewDecoder(body).Decode(got)
			switch {
			case tt.eof:
				if !errors.Is(err, io.EOF) || body.refusal != nil {
					t.Fatalf("got %v (kept %v), want io.EOF and nothing kept", err, body.refusal)
				}
			case tt.reason != "":
				if reason := refusal.Reason(body.refusal); reason != tt.reason || err == nil {
					t.Fatalf("got %v (kept %v), want a refusal %s kept", err, body.refusal, tt.reason)
				}
			case err != nil:
				t.Fatalf("got %v, want %v", err, tt.want)
			case !proto.Equal(got, tt.want):
				t.Fatalf("got %v, want %v", protojson.Format(got), protojson.Format(tt.want))
			}
		})
	}
}
