package restjson

import (
	"errors"
	"io"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// FuzzDecode feeds arbitrary bytes to Decode as the body of each kind of request: it must never panic, and a body it
// refuses is refused with INVALID_ARGUMENT (MALFORMED_JSON or INVALID_FIELD) or, for an empty body, io.EOF. Inputs
// are cut to 64 KiB, so that one input's work stays small.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"token":"v1.k.AAAA","seatPass":"1.x","move":{"player":1,"exploze":{"row":0,"col":0}}}`,
		`{"state":{"exploze":{"options":{"rows":2,"cols":2},"owners":[0,1],"stones":[0,"x"]}}}`,
		`{"moves":[{"player":1},{"player":"two"}],"tokens":["a"]}`,
		`{"a":1} {"b":2}`, `[1,2]`, `{"state":{"exploze":{}},"state":{}}`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 64<<10 {
			body = body[:64<<10]
		}
		for _, req := range []proto.Message{&rulebookv1.ApplyMoveRequest{}, &rulebookv1.ReplayRequest{}, &rulebookv1.SolvePuzzleRequest{}} {
			err := Decode(body, req)
			if err == nil || errors.Is(err, io.EOF) {
				continue
			}
			if st, ok := status.FromError(err); !ok || st.Code() != codes.InvalidArgument {
				t.Fatalf("body %q: %v, want INVALID_ARGUMENT", body, err)
			}
		}
	})
}
