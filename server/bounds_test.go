package server

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

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/internal/restjson"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// boundCases are requests beyond each bound of the API, or malformed, each refused before any engine sees it.
func boundCases(t testing.TB) []servertest.ErrorCase {
	moves := func(n int) []*rulebookv1.Move {
		m := make([]*rulebookv1.Move, n)
		for i := range m {
			m[i] = servertest.ExplozeMove(1)
		}
		return m
	}
	cells := func(n int) []*rulebookv1.PuzzleCell { return servertest.Rect(n, 1) }
	names := make([]string, 65)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	longToken := "v1.test." + strings.Repeat("A", seal.MaxTokenBytes)
	const token = "v1.test.AAAA" // refused for what it is only after the structural checks
	return []servertest.ErrorCase{
		servertest.RequestCase(t, "token over 256 KiB", "ApplyMove",
			&rulebookv1.ApplyMoveRequest{Game: "exploze", Token: longToken, Move: servertest.ExplozeMove(1)},
			servertest.Invalid(service.ReasonFieldTooLarge, "token")),
		servertest.RequestCase(t, "replay of 20001 moves", "Replay",
			&rulebookv1.ReplayRequest{Game: "exploze", Token: token, Moves: moves(20_001)},
			servertest.Invalid(service.ReasonFieldTooLarge, "moves")),
		servertest.RequestCase(t, "replay of 20001 tokens", "Replay",
			&rulebookv1.ReplayRequest{Game: "exploze", Token: token, Tokens: strings.Split(strings.Repeat(",", 20_000), ",")},
			servertest.Invalid(service.ReasonFieldTooLarge, "tokens")),
		servertest.RequestCase(t, "record token over 256 KiB", "Replay",
			&rulebookv1.ReplayRequest{Game: "exploze", Token: token, Moves: moves(1), Tokens: []string{longToken}},
			servertest.Invalid(service.ReasonFieldTooLarge, "tokens[0]")),
		servertest.RequestCase(t, "seat 65", "NewGame", &rulebookv1.NewGameRequest{Game: "exploze", Seat: 65},
			servertest.Invalid(service.ReasonFieldOutOfRange, "seat")),
		servertest.RequestCase(t, "seat -1", "NewGame", &rulebookv1.NewGameRequest{Game: "exploze", Seat: -1},
			servertest.Invalid(service.ReasonFieldOutOfRange, "seat")),
		servertest.RequestCase(t, "seat 3 of 2", "NewGame", &rulebookv1.NewGameRequest{Game: "exploze", Seat: 3},
			servertest.Invalid(service.ReasonNoSuchSeat, "seat")),
		servertest.RequestCase(t, "player 65", "ListLegalMoves", &rulebookv1.ListLegalMovesRequest{Game: "exploze", Token: token, Player: 65},
			servertest.Invalid(service.ReasonFieldOutOfRange, "player")),
		servertest.RequestCase(t, "viewer -1", "GetView", &rulebookv1.GetViewRequest{Game: "exploze", Token: token, Viewer: -1},
			servertest.Invalid(service.ReasonFieldOutOfRange, "viewer")),
		servertest.RequestCase(t, "seat pass over 64", "ApplyMove",
			&rulebookv1.ApplyMoveRequest{Game: "exploze", Token: token, SeatPass: "1." + strings.Repeat("A", 64), Move: servertest.ExplozeMove(1)},
			servertest.Invalid(service.ReasonFieldTooLarge, "seatPass")),
		servertest.RequestCase(t, "game id over 32", "NewGame", &rulebookv1.NewGameRequest{Game: strings.Repeat("x", 33)},
			servertest.Invalid(service.ReasonFieldTooLarge, "game")),
		servertest.RequestCase(t, "state and token", "Score",
			&rulebookv1.ScoreRequest{Game: "exploze", Token: token, State: &rulebookv1.GameState{}},
			servertest.Invalid(service.ReasonConflictingFields, "state")),
		servertest.RequestCase(t, "neither state nor token", "Score", &rulebookv1.ScoreRequest{Game: "exploze"},
			servertest.Invalid(service.ReasonMissingField, "state")),
		servertest.RequestCase(t, "no move", "ValidateMove", &rulebookv1.ValidateMoveRequest{Game: "exploze", Token: token},
			servertest.Invalid(service.ReasonMissingField, "move")),
		servertest.RequestCase(t, "shape of 257 cells", "SolvePuzzle", &rulebookv1.SolvePuzzleRequest{Shape: cells(257), Pieces: pentominoes},
			servertest.Invalid(service.ReasonFieldTooLarge, "shape")),
		servertest.RequestCase(t, "cell beyond the coordinates", "SolvePuzzle",
			&rulebookv1.SolvePuzzleRequest{Shape: []*rulebookv1.PuzzleCell{{X: 1<<20 + 1}}, Pieces: pentominoes},
			servertest.Invalid(service.ReasonFieldOutOfRange, "shape[0].x")),
		servertest.RequestCase(t, "65 pieces selected", "SolvePuzzle",
			&rulebookv1.SolvePuzzleRequest{Shape: cells(5), Pieces: pentominoes, Select: names},
			servertest.Invalid(service.ReasonFieldTooLarge, "select")),
		servertest.RequestCase(t, "undefined goal", "SolvePuzzle",
			&rulebookv1.SolvePuzzleRequest{Shape: cells(5), Pieces: pentominoes, Goal: 7},
			servertest.Invalid(service.ReasonFieldOutOfRange, "goal")),
		{Name: "truncated JSON", Path: "/v1/games/exploze:new", Body: `{"seat": `, Want: servertest.Invalid(restjson.ReasonMalformedJSON, "")},
		{Name: "not JSON", Path: "/v1/games/exploze:new", Body: `seat=1`, Want: servertest.Invalid(restjson.ReasonMalformedJSON, "")},
		{Name: "data after the object", Path: "/v1/games/exploze:new", Body: `{} {}`, Want: servertest.Invalid(restjson.ReasonMalformedJSON, "")},
		{Name: "not an object", Path: "/v1/games/exploze:new", Body: `[]`, Want: servertest.Invalid(restjson.ReasonMalformedJSON, "")},
		{Name: "string for a number", Path: "/v1/games/exploze:new", Body: `{"seat": "one"}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "seat")},
		{Name: "number beyond int32", Path: "/v1/games/exploze:new", Body: `{"seat": 99999999999}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "seat")},
		{Name: "fraction for an integer", Path: "/v1/games/exploze:new", Body: `{"options": {"exploze": {"rows": 1.5}}}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "options.exploze.rows")},
		{Name: "list for an object", Path: "/v1/games/exploze:new", Body: `{"options": []}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "options")},
		{Name: "unknown field", Path: "/v1/games/exploze:new", Body: `{"options": {"exploze": {"rows": 6, "colums": 6}}}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "options.exploze.colums")},
		{Name: "wrong type in a body too long to search for the field", Path: "/v1/games/exploze:replay",
			Body: `{"token": "x", "moves": [` + strings.Repeat(`{"player": 1}, `, restjson.MaxFaultSearchBytes/15) + `{"player": "one"}]}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "")},
		{Name: "field named twice", Path: "/v1/games/exploze:new", Body: `{"seat": 1, "seat": 2}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "seat")},
		{Name: "two of a oneof", Path: "/v1/games/exploze:new", Body: `{"options": {"exploze": {}, "kipicot": {}}}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "options.kipicot")},
		{Name: "wrong type in a list", Path: "/v1/games/exploze:replay",
			Body: `{"token": "x", "moves": [{"player": 1}, {"player": 1, "exploze": {"row": true}}]}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "moves[1].exploze.row")},
		{Name: "proto field name", Path: "/v1/games/exploze:apply", Body: `{"token": "x", "seat_pass": 7, "move": {}}`,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "seatPass")},
		{Name: "long value of the wrong type", Path: "/v1/games/exploze:new", Body: longWrongValue,
			Want: servertest.Invalid(refusal.ReasonInvalidField, "seat")},
		{Name: "long unknown field", Path: "/v1/games/exploze:new", Body: longUnknownField,
			Want: servertest.Invalid(refusal.ReasonInvalidField, strings.Repeat("x", restjson.MaxEchoBytes-3)+"...")},
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
	cfg.AcceptPlainStates = false
	cfg.MaxMessageBytes = 2 << 20 // room for a token over its own bound
	ts := startServer(t, cfg)
	servertest.CheckErrorCases(t, ts.Client, boundCases(t))
	for _, body := range []string{longWrongValue, longUnknownField} {
		if _, out := ts.Post(t, "/v1/games/exploze:new", body); len(out) > 8*restjson.MaxEchoBytes {
			t.Errorf("a refusal of %d bytes: %.100s...", len(out), out)
		}
	}
}

// TestMessageLimit checks that a request over the size limit is refused on both transports, gRPC by grpc itself and
// REST, whether the body announces its length or not, with 413 and REQUEST_TOO_LARGE; and that one under it is not.
func TestMessageLimit(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMessageBytes = 4096
	ts := startServer(t, cfg)
	_, err := ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze" + strings.Repeat("x", 8192)})
	servertest.CheckStatus(t, servertest.StatusProto(err), codes.ResourceExhausted, servertest.WantError{Reason: ""})

	padded := func(n int) string { return `{"seed": "1", "seat": 0` + strings.Repeat(" ", n) + `}` }
	tooLarge := servertest.WantError{Code: codes.ResourceExhausted, HTTPCode: http.StatusRequestEntityTooLarge, Reason: refusal.ReasonRequestTooLarge}
	tests := []struct {
		name    string
		body    string
		chunked bool
		want    servertest.WantError
	}{
		{"over, with a length", padded(8192), false, tooLarge},
		{"over, chunked", padded(8192), true, tooLarge},
		{"just over, chunked", padded(4097 - len(padded(0))), true, tooLarge},
		{"at the limit", padded(4096 - len(padded(0))), false, servertest.WantError{HTTPCode: http.StatusOK}},
		{"at the limit, chunked", padded(4096 - len(padded(0))), true, servertest.WantError{HTTPCode: http.StatusOK}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(tt.body)
			if tt.chunked {
				body = io.MultiReader(body) // a reader of unknown length: sent chunked
			}
			req, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodPost, ts.URL+"/v1/games/exploze:new", body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			code, out := servertest.Do(t, req)
			if code != tt.want.HTTPCode {
				t.Fatalf("%d bytes: HTTP %d %.300s, want %d", len(tt.body), code, out, tt.want.HTTPCode)
			}
			if code != http.StatusOK {
				servertest.CheckStatus(t, servertest.RESTStatus(t, out), tt.want.Code, tt.want)
			}
		})
	}
}

// TestNearLimitRequestsKeepMemoryBounded sends 24 requests near the size limits (12 with go test -short, 48 at the
// long depth; each of the six kinds as often), over gRPC and REST, to a server in this process, and checks that the
// heap in use after they are answered (and after a garbage collection) has grown by less than 64 MiB: the server
// keeps nothing of a request once it has answered it.
func TestNearLimitRequestsKeepMemoryBounded(t *testing.T) {
	cfg := testConfig()
	cfg.AcceptPlainStates = false
	cfg.MaxMessageBytes = 4 << 20
	ts := startServer(t, cfg)
	token := "v1.test." + strings.Repeat("A", seal.MaxTokenBytes-len("v1.test.")) // in the token's form: decoded
	tokens := make([]string, 14)                                                  // 14 tokens of 256 KiB: under 4 MiB
	for i := range tokens {
		tokens[i] = token
	}
	moves := make([]*rulebookv1.Move, 20_000)
	for i := range moves {
		moves[i] = servertest.ExplozeMove(1)
	}
	requests := []struct {
		method string
		req    proto.Message
	}{
		{"ApplyMove", &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: token, Move: servertest.ExplozeMove(1)}},
		{"Replay", &rulebookv1.ReplayRequest{Game: "exploze", Token: token, Moves: moves}},
		{"Replay", &rulebookv1.ReplayRequest{Game: "exploze", Token: token, Moves: moves[:len(tokens)], Tokens: tokens}},
	}
	// A send sends one request and reports whether it was answered: every one of them must be refused.
	type send func(ctx context.Context) (answered bool, err error)
	var sends []send
	for _, r := range requests {
		call := servertest.Invoke(r.method, r.req)
		body, err := protojson.Marshal(r.req)
		if err != nil {
			t.Fatal(err)
		}
		if size := max(proto.Size(r.req), len(body)); size > cfg.MaxMessageBytes {
			t.Fatalf("%s request of %d bytes is over the limit", r.method, size)
		}
		url := ts.URL + servertest.RESTPath(r.method, r.req)
		sends = append(sends,
			func(ctx context.Context) (bool, error) { return call(ctx, ts.Client) == nil, nil },
			func(ctx context.Context) (bool, error) {
				req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
				if err != nil {
					return false, err
				}
				req.Header.Set("Content-Type", "application/json")
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
	n := enginetest.ByDepth(12, 24, 48)
	const parallel = 5
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
