package servertest

import (
	"context"
	"net/http"
	"strings"
	"testing"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/internal/refusal"

	statuspb "google.golang.org/genproto/googleapis/rpc/status"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// WantError describes the error a bad request must get.
type WantError struct {
	Code     codes.Code
	HTTPCode int
	Reason   string
	Field    string // the field violation's field, for INVALID_ARGUMENT
}

// ErrorCase is a bad request, sent over gRPC by call and over REST as body to path; a case without call is REST
// only, one without path gRPC only.
type ErrorCase struct {
	Name string
	Path string
	Body string
	Call func(ctx context.Context, c *Client) error
	Want WantError
	// secrets are texts of which the refusal may show no part (a token, a seat pass, a key).
	Secrets []string
}

// CheckErrorCases sends each case to c over the transports it has, and checks the code, the reason and the field
// of the refusal, and that it shows no part of the case's secrets.
func CheckErrorCases(t *testing.T, c *Client, cases []ErrorCase) {
	t.Helper()
	for _, tc := range cases {
		if tc.Call != nil {
			t.Run(tc.Name+"/gRPC", func(t *testing.T) {
				err := tc.Call(CallContext(t), c)
				st, ok := status.FromError(err)
				if !ok || err == nil {
					t.Fatalf("got %v, want a status error", err)
				}
				CheckStatus(t, st.Proto(), tc.Want.Code, tc.Want)
				CheckNoLeak(t, prototext.Format(st.Proto()), tc.Secrets)
			})
		}
		if tc.Path != "" {
			t.Run(tc.Name+"/REST", func(t *testing.T) {
				code, body := c.Post(t, tc.Path, tc.Body)
				if code != tc.Want.HTTPCode {
					t.Errorf("HTTP %d, want %d: %.300s", code, tc.Want.HTTPCode, body)
				}
				CheckStatus(t, RESTStatus(t, body), tc.Want.Code, tc.Want)
				CheckNoLeak(t, string(body), tc.Secrets)
			})
		}
	}
}

// leakWindow is the length of the shortest part of a secret that checkNoLeak looks for.
const leakWindow = 8

// CheckNoLeak fails the test if text shows any leakWindow characters in a row of one of secrets.
func CheckNoLeak(t testing.TB, text string, secrets []string) {
	t.Helper()
	for _, secret := range secrets {
		for i := 0; i+leakWindow <= len(secret); i++ {
			if part := secret[i : i+leakWindow]; strings.Contains(text, part) {
				t.Errorf("the refusal shows %q, part of a secret: %.300s", part, text)
				return
			}
		}
	}
}

// StatusProto is the google.rpc.Status of a gRPC call's error (code OK for no error).
func StatusProto(err error) *statuspb.Status { return status.Convert(err).Proto() }

// RESTStatus decodes the google.rpc.Status of a REST error body.
func RESTStatus(t testing.TB, body []byte) *statuspb.Status {
	t.Helper()
	st := &statuspb.Status{}
	if err := protojson.Unmarshal(body, st); err != nil {
		t.Fatalf("error body %.300s: %v", body, err)
	}
	return st
}

// CheckStatus checks a google.rpc.Status against want.
func CheckStatus(t testing.TB, st *statuspb.Status, code codes.Code, want WantError) {
	t.Helper()
	if codes.Code(st.GetCode()) != code {
		t.Errorf("code %v, want %v (%s)", codes.Code(st.GetCode()), code, st.GetMessage())
	}
	var reason, field string
	for _, d := range st.GetDetails() {
		m, err := d.UnmarshalNew()
		if err != nil {
			t.Fatalf("detail %v: %v", d, err)
		}
		switch m := m.(type) {
		case *errdetails.ErrorInfo:
			reason = m.GetReason()
			if m.GetDomain() != "rulebook" {
				t.Errorf("domain %q", m.GetDomain())
			}
		case *errdetails.BadRequest:
			field = m.GetFieldViolations()[0].GetField()
		}
	}
	if reason != want.Reason {
		t.Errorf("reason %q, want %q (%s)", reason, want.Reason, st.GetMessage())
	}
	if !strings.HasPrefix(field, want.Field) || (want.Field == "") != (field == "") {
		t.Errorf("field %q, want %q", field, want.Field)
	}
}

// restVerbs are the custom verbs of the REST paths of the RulesService calls about one game.
var restVerbs = map[string]string{
	"NewGame": "new", "ValidateMove": "validate", "ApplyMove": "apply", "ListLegalMoves": "legalMoves",
	"Score": "score", "GetView": "view", "Replay": "replay",
}

// RESTPath is the REST path of method (such as "ApplyMove") for req.
func RESTPath(method string, req proto.Message) string {
	if method == "SolvePuzzle" {
		return "/v1/puzzles:solve"
	}
	game := req.(interface{ GetGame() string }).GetGame()
	return "/v1/games/" + game + ":" + restVerbs[method]
}

// Invoke returns a gRPC call of method (such as "ApplyMove") of RulesService with req.
func Invoke(method string, req proto.Message) func(context.Context, *Client) error {
	m := rulebookv1grpc.File_rulebook_v1_rules_service_proto.Services().ByName("RulesService").Methods().ByName(protoreflect.Name(method))
	return func(ctx context.Context, c *Client) error {
		return c.Conn.Invoke(ctx, "/rulebook.v1.RulesService/"+method, req, dynamicpb.NewMessage(m.Output()))
	}
}

// RequestCase is the ErrorCase of sending req to method over gRPC and, as JSON, over REST.
func RequestCase(t testing.TB, name, method string, req proto.Message, want WantError) ErrorCase {
	t.Helper()
	body, err := protojson.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return ErrorCase{Name: name, Path: RESTPath(method, req), Body: string(body), Call: Invoke(method, req), Want: want}
}

// Invalid is the refusal of a request with reason at field.
func Invalid(reason, field string) WantError {
	return WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: reason, Field: field}
}

// ExplozeMove is player's move on the cell at row 0, column 0 of Exploze.
func ExplozeMove(player int32) *rulebookv1.Move {
	return &rulebookv1.Move{Player: player, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{}}}
}

// WantBusy fails the test unless err is RESOURCE_EXHAUSTED with the reason SERVER_BUSY.
func WantBusy(t testing.TB, err error, what string) {
	t.Helper()
	if !IsBusy(err) {
		t.Errorf("%s: %v, want RESOURCE_EXHAUSTED SERVER_BUSY", what, err)
	}
}

// IsBusy reports whether err is RESOURCE_EXHAUSTED with the reason SERVER_BUSY.
func IsBusy(err error) bool {
	return status.Code(err) == codes.ResourceExhausted && refusal.Reason(err) == "SERVER_BUSY"
}
