package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// restVerbs are the custom verbs of the REST paths of the RulesService calls about one game.
var restVerbs = map[string]string{
	"NewGame": "new", "ValidateMove": "validate", "ApplyMove": "apply", "ListLegalMoves": "legalMoves",
	"Score": "score", "GetView": "view", "Replay": "replay",
}

// restPath is the REST path of method (such as "ApplyMove") for req.
func restPath(method string, req proto.Message) string {
	if method == "SolvePuzzle" {
		return "/v1/puzzles:solve"
	}
	game := req.(interface{ GetGame() string }).GetGame()
	return "/v1/games/" + game + ":" + restVerbs[method]
}

// invoke returns a gRPC call of method (such as "ApplyMove") of RulesService with req.
func invoke(method string, req proto.Message) func(context.Context, *testServer) error {
	m := rulebookv1.File_rulebook_v1_rules_service_proto.Services().ByName("RulesService").Methods().ByName(protoreflect.Name(method))
	return func(ctx context.Context, ts *testServer) error {
		return ts.conn.Invoke(ctx, "/rulebook.v1.RulesService/"+method, req, dynamicpb.NewMessage(m.Output()))
	}
}

// requestCase is the errorCase of sending req to method over gRPC and, as JSON, over REST.
func requestCase(t testing.TB, name, method string, req proto.Message, want wantError) errorCase {
	t.Helper()
	body, err := protojson.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return errorCase{name: name, path: restPath(method, req), body: string(body), call: invoke(method, req), want: want}
}

// invalid is the refusal of a request with reason at field.
func invalid(reason, field string) wantError {
	return wantError{codes.InvalidArgument, http.StatusBadRequest, reason, field}
}

// explozeMove is player's move on the cell at row 0, column 0 of Exploze.
func explozeMove(player int32) *rulebookv1.Move {
	return &rulebookv1.Move{Player: player, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{}}}
}

// boundCases are requests beyond each bound of the API, or malformed, each refused before any engine sees it.
func boundCases(t testing.TB) []errorCase {
	moves := func(n int) []*rulebookv1.Move {
		m := make([]*rulebookv1.Move, n)
		for i := range m {
			m[i] = explozeMove(1)
		}
		return m
	}
	cells := func(n int) []*rulebookv1.PuzzleCell { return rect(n, 1) }
	names := make([]string, 65)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	longToken := "v1.test." + strings.Repeat("A", seal.MaxTokenBytes)
	const token = "v1.test.AAAA" // refused for what it is only after the structural checks
	return []errorCase{
		requestCase(t, "token over 256 KiB", "ApplyMove",
			&rulebookv1.ApplyMoveRequest{Game: "exploze", Token: longToken, Move: explozeMove(1)},
			invalid(service.ReasonFieldTooLarge, "token")),
		requestCase(t, "replay of 20001 moves", "Replay",
			&rulebookv1.ReplayRequest{Game: "exploze", Token: token, Moves: moves(20_001)},
			invalid(service.ReasonFieldTooLarge, "moves")),
		requestCase(t, "replay of 20001 tokens", "Replay",
			&rulebookv1.ReplayRequest{Game: "exploze", Token: token, Tokens: strings.Split(strings.Repeat(",", 20_000), ",")},
			invalid(service.ReasonFieldTooLarge, "tokens")),
		requestCase(t, "record token over 256 KiB", "Replay",
			&rulebookv1.ReplayRequest{Game: "exploze", Token: token, Moves: moves(1), Tokens: []string{longToken}},
			invalid(service.ReasonFieldTooLarge, "tokens[0]")),
		requestCase(t, "seat 65", "NewGame", &rulebookv1.NewGameRequest{Game: "exploze", Seat: 65},
			invalid(service.ReasonFieldOutOfRange, "seat")),
		requestCase(t, "seat -1", "NewGame", &rulebookv1.NewGameRequest{Game: "exploze", Seat: -1},
			invalid(service.ReasonFieldOutOfRange, "seat")),
		requestCase(t, "seat 3 of 2", "NewGame", &rulebookv1.NewGameRequest{Game: "exploze", Seat: 3},
			invalid(service.ReasonNoSuchSeat, "seat")),
		requestCase(t, "player 65", "ListLegalMoves", &rulebookv1.ListLegalMovesRequest{Game: "exploze", Token: token, Player: 65},
			invalid(service.ReasonFieldOutOfRange, "player")),
		requestCase(t, "viewer -1", "GetView", &rulebookv1.GetViewRequest{Game: "exploze", Token: token, Viewer: -1},
			invalid(service.ReasonFieldOutOfRange, "viewer")),
		requestCase(t, "seat pass over 64", "ApplyMove",
			&rulebookv1.ApplyMoveRequest{Game: "exploze", Token: token, SeatPass: "1." + strings.Repeat("A", 64), Move: explozeMove(1)},
			invalid(service.ReasonFieldTooLarge, "seatPass")),
		requestCase(t, "game id over 32", "NewGame", &rulebookv1.NewGameRequest{Game: strings.Repeat("x", 33)},
			invalid(service.ReasonFieldTooLarge, "game")),
		requestCase(t, "state and token", "Score",
			&rulebookv1.ScoreRequest{Game: "exploze", Token: token, State: &rulebookv1.GameState{}},
			invalid(service.ReasonConflictingFields, "state")),
		requestCase(t, "neither state nor token", "Score", &rulebookv1.ScoreRequest{Game: "exploze"},
			invalid(service.ReasonMissingField, "state")),
		requestCase(t, "no move", "ValidateMove", &rulebookv1.ValidateMoveRequest{Game: "exploze", Token: token},
			invalid(service.ReasonMissingField, "move")),
		requestCase(t, "shape of 257 cells", "SolvePuzzle", &rulebookv1.SolvePuzzleRequest{Shape: cells(257), Pieces: pentominoes},
			invalid(service.ReasonFieldTooLarge, "shape")),
		requestCase(t, "cell beyond the coordinates", "SolvePuzzle",
			&rulebookv1.SolvePuzzleRequest{Shape: []*rulebookv1.PuzzleCell{{X: 1<<20 + 1}}, Pieces: pentominoes},
			invalid(service.ReasonFieldOutOfRange, "shape[0].x")),
		requestCase(t, "65 pieces selected", "SolvePuzzle",
			&rulebookv1.SolvePuzzleRequest{Shape: cells(5), Pieces: pentominoes, Select: names},
			invalid(service.ReasonFieldTooLarge, "select")),
		requestCase(t, "undefined goal", "SolvePuzzle",
			&rulebookv1.SolvePuzzleRequest{Shape: cells(5), Pieces: pentominoes, Goal: 7},
			invalid(service.ReasonFieldOutOfRange, "goal")),
		{name: "truncated JSON", path: "/v1/games/exploze:new", body: `{"seat": `, want: invalid(reasonMalformedJSON, "")},
		{name: "not JSON", path: "/v1/games/exploze:new", body: `seat=1`, want: invalid(reasonMalformedJSON, "")},
		{name: "data after the object", path: "/v1/games/exploze:new", body: `{} {}`, want: invalid(reasonMalformedJSON, "")},
		{name: "not an object", path: "/v1/games/exploze:new", body: `[]`, want: invalid(reasonMalformedJSON, "")},
		{name: "string for a number", path: "/v1/games/exploze:new", body: `{"seat": "one"}`,
			want: invalid(service.ReasonInvalidField, "seat")},
		{name: "number beyond int32", path: "/v1/games/exploze:new", body: `{"seat": 99999999999}`,
			want: invalid(service.ReasonInvalidField, "seat")},
		{name: "fraction for an integer", path: "/v1/games/exploze:new", body: `{"options": {"exploze": {"rows": 1.5}}}`,
			want: invalid(service.ReasonInvalidField, "options.exploze.rows")},
		{name: "list for an object", path: "/v1/games/exploze:new", body: `{"options": []}`,
			want: invalid(service.ReasonInvalidField, "options")},
		{name: "unknown field", path: "/v1/games/exploze:new", body: `{"options": {"exploze": {"rows": 6, "colums": 6}}}`,
			want: invalid(service.ReasonInvalidField, "options.exploze.colums")},
		{name: "wrong type in a body too long to search for the field", path: "/v1/games/exploze:replay",
			body: `{"token": "x", "moves": [` + strings.Repeat(`{"player": 1}, `, maxFaultSearchBytes/15) + `{"player": "one"}]}`,
			want: invalid(service.ReasonInvalidField, "")},
		{name: "field named twice", path: "/v1/games/exploze:new", body: `{"seat": 1, "seat": 2}`,
			want: invalid(service.ReasonInvalidField, "seat")},
		{name: "two of a oneof", path: "/v1/games/exploze:new", body: `{"options": {"exploze": {}, "kipicot": {}}}`,
			want: invalid(service.ReasonInvalidField, "options.kipicot")},
		{name: "wrong type in a list", path: "/v1/games/exploze:replay",
			body: `{"token": "x", "moves": [{"player": 1}, {"player": 1, "exploze": {"row": true}}]}`,
			want: invalid(service.ReasonInvalidField, "moves[1].exploze.row")},
		{name: "proto field name", path: "/v1/games/exploze:apply", body: `{"token": "x", "seat_pass": 7, "move": {}}`,
			want: invalid(service.ReasonInvalidField, "seatPass")},
		{name: "long value of the wrong type", path: "/v1/games/exploze:new", body: longWrongValue,
			want: invalid(service.ReasonInvalidField, "seat")},
		{name: "long unknown field", path: "/v1/games/exploze:new", body: longUnknownField,
			want: invalid(service.ReasonInvalidField, strings.Repeat("x", maxEchoBytes-3)+"...")},
	}
}

// Bodies that a refusal must not repeat in full: a long value of the wrong type, and a long unknown field.
var (
	longWrongValue   = `{"seat": "` + strings.Repeat("x", 64<<10) + `"}`
	longUnknownField = `{"` + strings.Repeat("x", 64<<10) + `": 1}`
)

// TestRequestBounds sends requests beyond each bound of the API, and malformed ones, to a token-only server over
// gRPC and REST, and checks that each is INVALID_ARGUMENT with the reason and the field at fault, and that a refusal
// repeats no more than a few hundred bytes of a long body.
func TestRequestBounds(t *testing.T) {
	cfg := testConfig()
	cfg.acceptPlainStates = false
	cfg.maxMessageBytes = 2 << 20 // room for a token over its own bound
	ts := startServer(t, cfg)
	checkErrorCases(t, ts, boundCases(t))
	for _, body := range []string{longWrongValue, longUnknownField} {
		if _, out := ts.post(t, "/v1/games/exploze:new", body); len(out) > 8*maxEchoBytes {
			t.Errorf("a refusal of %d bytes: %.100s...", len(out), out)
		}
	}
}

// TestMessageLimit checks that a request over the size limit is refused on both transports, gRPC by grpc itself and
// REST, whether the body announces its length or not, with 413 and REQUEST_TOO_LARGE; and that one under it is not.
func TestMessageLimit(t *testing.T) {
	cfg := testConfig()
	cfg.maxMessageBytes = 4096
	ts := startServer(t, cfg)
	_, err := ts.client.NewGame(callContext(t), &rulebookv1.NewGameRequest{Game: "exploze" + strings.Repeat("x", 8192)})
	checkStatus(t, statusProto(err), codes.ResourceExhausted, wantError{reason: ""})

	padded := func(n int) string { return `{"seed": "1", "seat": 0` + strings.Repeat(" ", n) + `}` }
	tooLarge := wantError{codes.ResourceExhausted, http.StatusRequestEntityTooLarge, reasonRequestTooLarge, ""}
	tests := []struct {
		name    string
		body    string
		chunked bool
		want    wantError
	}{
		{"over, with a length", padded(8192), false, tooLarge},
		{"over, chunked", padded(8192), true, tooLarge},
		{"just over, chunked", padded(4097 - len(padded(0))), true, tooLarge},
		{"at the limit", padded(4096 - len(padded(0))), false, wantError{httpCode: http.StatusOK}},
		{"at the limit, chunked", padded(4096 - len(padded(0))), true, wantError{httpCode: http.StatusOK}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(tt.body)
			if tt.chunked {
				body = io.MultiReader(body) // a reader of unknown length: sent chunked
			}
			req, err := http.NewRequestWithContext(callContext(t), http.MethodPost, ts.httpURL+"/v1/games/exploze:new", body)
			if err != nil {
				t.Fatal(err)
			}
			code, out := do(t, req)
			if code != tt.want.httpCode {
				t.Fatalf("%d bytes: HTTP %d %.300s, want %d", len(tt.body), code, out, tt.want.httpCode)
			}
			if code != http.StatusOK {
				checkStatus(t, restStatus(t, out), tt.want.code, tt.want)
			}
		})
	}
}

// TestNearLimitRequestsKeepMemoryBounded sends 50 requests near the size limits, over gRPC and REST, to a server in
// this process, and checks that the heap in use after they are answered (and after a garbage collection) has grown
// by less than 64 MiB: the server keeps nothing of a request once it has answered it.
func TestNearLimitRequestsKeepMemoryBounded(t *testing.T) {
	cfg := testConfig()
	cfg.acceptPlainStates = false
	cfg.maxMessageBytes = 4 << 20
	ts := startServer(t, cfg)
	token := "v1.test." + strings.Repeat("A", seal.MaxTokenBytes-len("v1.test.")) // in the token's form: decoded
	tokens := make([]string, 14)                                                  // 14 tokens of 256 KiB: under 4 MiB
	for i := range tokens {
		tokens[i] = token
	}
	moves := make([]*rulebookv1.Move, 20_000)
	for i := range moves {
		moves[i] = explozeMove(1)
	}
	requests := []struct {
		method string
		req    proto.Message
	}{
		{"ApplyMove", &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: token, Move: explozeMove(1)}},
		{"Replay", &rulebookv1.ReplayRequest{Game: "exploze", Token: token, Moves: moves}},
		{"Replay", &rulebookv1.ReplayRequest{Game: "exploze", Token: token, Moves: moves[:len(tokens)], Tokens: tokens}},
	}
	// A send sends one request and reports whether it was answered: every one of them must be refused.
	type send func(ctx context.Context) (answered bool, err error)
	var sends []send
	for _, r := range requests {
		call := invoke(r.method, r.req)
		body, err := protojson.Marshal(r.req)
		if err != nil {
			t.Fatal(err)
		}
		if size := max(proto.Size(r.req), len(body)); size > cfg.maxMessageBytes {
			t.Fatalf("%s request of %d bytes is over the limit", r.method, size)
		}
		url := ts.httpURL + restPath(r.method, r.req)
		sends = append(sends,
			func(ctx context.Context) (bool, error) { return call(ctx, ts) == nil, nil },
			func(ctx context.Context) (bool, error) {
				req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
				if err != nil {
					return false, err
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					return false, err
				}
				defer resp.Body.Close()
				_, err = io.Copy(io.Discard, resp.Body)
				return resp.StatusCode == http.StatusOK, err
			})
	}

	inUse := func() uint64 {
		http.DefaultClient.CloseIdleConnections()
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	before := inUse()
	const n, parallel = 50, 5
	var wg sync.WaitGroup
	for w := range parallel {
		wg.Go(func() {
			for i := w; i < n; i += parallel {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // generous: -race is slow
				answered, err := sends[i%len(sends)](ctx)
				cancel()
				if answered || err != nil {
					t.Errorf("request %d: answered %v, error %v; want a refusal", i, answered, err)
				}
			}
		})
	}
	wg.Wait()
	after := inUse()
	const bound = 64 << 20
	t.Logf("heap in use: %d MiB before, %d MiB after %d requests", before>>20, after>>20, n)
	if after > before && after-before >= bound {
		t.Errorf("heap in use grew by %d MiB over %d near-limit requests, want less than %d MiB",
			(after-before)>>20, n, bound>>20)
	}
}
