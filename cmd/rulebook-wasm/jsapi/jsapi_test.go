package jsapi_test

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/rulebook/rulebook/clients/clienttest"
	"github.com/rulebook/rulebook/cmd/rulebook-wasm/jsapi"
	"github.com/rulebook/rulebook/cmd/rulebook-wasm/wasmtest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// serve returns a harness of a new module and a server that accepts plain states.
func serve(t *testing.T) *wasmtest.Harness {
	addrs := clienttest.Serve(t, clienttest.Config(true))
	return wasmtest.New(wasmtest.Native(t), servertest.Dial(t, addrs.GRPC, addrs.HTTP))
}

// TestPlay plays every game to its end natively, each call of the module compared with the server's.
func TestPlay(t *testing.T) {
	serve(t).Play(t)
}

// TestSameAsREST checks calls that a server refuses, or takes in a form the games do not play, against the server.
func TestSameAsREST(t *testing.T) {
	h := serve(t)
	state := string(newState(t, h))
	const move = `{"player": 1, "exploze": {"row": 1, "col": 1}}`
	tests := []struct {
		name string
		fn   string
		args []any
	}{
		{name: "an unknown game", fn: "newGame", args: []any{"chess"}},
		{name: "a game id too long", fn: "score", args: []any{"exploze-exploze-exploze-exploze-exploze", state}},
		{name: "defaults", fn: "newGame", args: []any{"exploze", "null", 0}},
		{name: "options out of range", fn: "newGame", args: []any{"exploze", `{"exploze": {"rows": 99}}`, 1}},
		{name: "options with an unknown field", fn: "newGame", args: []any{"exploze", `{"exploze": {"rowz": 3}}`, 1}},
		{name: "options that are not an object", fn: "newGame", args: []any{"exploze", `[]`, 1}},
		{name: "options of another game", fn: "newGame", args: []any{"kipicot", `{"exploze": {}}`, 1}},
		{name: "a seed that is negative", fn: "newGame", args: []any{"micropul", nil, "-1"}},
		{name: "a seed past 2^64-1", fn: "newGame", args: []any{"micropul", nil, "18446744073709551616"}},
		{name: "a seed with an exponent", fn: "newGame", args: []any{"micropul", nil, "1e3"}},
		{name: "the largest safe seed", fn: "newGame", args: []any{"micropul", nil, 1<<53 - 1}},
		{name: "a state that is a number", fn: "score", args: []any{"exploze", "5"}},
		{name: "an empty state", fn: "score", args: []any{"exploze", "{}"}},
		{name: "a state of another game", fn: "score", args: []any{"kipicot", state}},
		{name: "a state that breaks the rules' conditions", fn: "score",
			args: []any{"exploze", `{"exploze": {"rulesVersion": 1, "options": {"rows": 2, "cols": 2, "players": 2}, "toMove": 3, "owners": [0, 0, 0, 0], "stones": [0, 0, 0, 0]}}`}},
		{name: "a move off the board", fn: "applyMove", args: []any{"exploze", state, `{"player": 1, "exploze": {"row": 9}}`}},
		{name: "a move of no game", fn: "validateMove", args: []any{"exploze", state, `{"player": 1}`}},
		{name: "a move that is null", fn: "validateMove", args: []any{"exploze", state, `null`}},
		{name: "the moves of a player", fn: "legalMoves", args: []any{"exploze", state, 1}},
		{name: "the moves of a player who may not move", fn: "legalMoves", args: []any{"exploze", state, 2}},
		{name: "the moves of a player out of range", fn: "legalMoves", args: []any{"exploze", state, 65}},
		{name: "the moves of a player past int32", fn: "legalMoves", args: []any{"exploze", state, 1 << 40}},
		{name: "the view of a player", fn: "view", args: []any{"exploze", state, 2}},
		{name: "the view of a player the game does not have", fn: "view", args: []any{"exploze", state, 3}},
		{name: "the view of a negative player", fn: "view", args: []any{"exploze", state, -1}},
		{name: "a hidden state's view", fn: "view", args: []any{"micropul", micropulState(t, h), 1}},
		{name: "every event", fn: "applyMove", args: []any{"exploze", state, move, "EVENT_DETAIL_ALL"}},
		{name: "the events' summary", fn: "applyMove", args: []any{"exploze", state, move, "EVENT_DETAIL_SUMMARY"}},
		{name: "no events, by number", fn: "applyMove", args: []any{"exploze", state, move, 3}},
		{name: "events by default", fn: "applyMove", args: []any{"exploze", state, move, nil}},
		{name: "events out of range", fn: "applyMove", args: []any{"exploze", state, move, 9}},
		{name: "events of no name", fn: "applyMove", args: []any{"exploze", state, move, "EVENT_DETAIL_SOME"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { h.Same(t, tt.fn, append([]any{}, tt.args...)...) })
	}
}

// newState returns the state of a new 3 x 3 Exploze game.
func newState(t *testing.T, h *wasmtest.Harness) json.RawMessage {
	return stateOf(t, h.Same(t, "newGame", "exploze", `{"exploze": {"rows": 3, "cols": 3}}`, 7))
}

// micropulState returns the state of a new Micropul game for two.
func micropulState(t *testing.T, h *wasmtest.Harness) string {
	return string(stateOf(t, h.Same(t, "newGame", "micropul", `{"micropul": {"players": 2}}`, 11)))
}

// stateOf returns the state of an answer of newGame.
func stateOf(t *testing.T, answer []byte) json.RawMessage {
	var a struct{ State json.RawMessage }
	if err := json.Unmarshal(answer, &a); err != nil || a.State == nil {
		t.Fatalf("no state in %s", answer)
	}
	return a.State
}

// TestArguments checks the refusals of arguments that the functions do not take, JavaScript's own values included.
func TestArguments(t *testing.T) {
	wasmtest.CheckArguments(t, wasmtest.Native(t))
	m, err := jsapi.New()
	if err != nil {
		t.Fatal(err)
	}
	newGame := m.Functions()[1]
	for _, v := range []jsapi.Value{{Kind: jsapi.Number, Number: math.NaN()}, {Kind: jsapi.Number, Number: math.Inf(1)},
		{Kind: jsapi.Number, Number: math.Copysign(0, -1)}, {Kind: jsapi.Kind(99)}} {
		answer := newGame.Call(jsapi.Value{Kind: jsapi.String, String: "exploze"}, jsapi.Value{}, v)
		if v.Number == 0 && v.Kind == jsapi.Number { // -0 is the seed 0
			if stateOf(t, []byte(answer)) == nil {
				t.Errorf("seed -0: %s", answer)
			}
			continue
		}
		if r := wasmtest.Refused(t, []byte(answer)); r.Details[0].Reason != jsapi.ReasonInvalidArguments {
			t.Errorf("seed %+v: %s, want %s", v, answer, jsapi.ReasonInvalidArguments)
		}
	}
}

// responses are the responses of the functions, which must not have a field named code, as a refusal has.
var responses = map[string]proto.Message{
	"listGames":    &rulebookv1.ListGamesResponse{},
	"newGame":      &rulebookv1.NewGameResponse{},
	"validateMove": &rulebookv1.ValidateMoveResponse{},
	"applyMove":    &rulebookv1.ApplyMoveResponse{},
	"legalMoves":   &rulebookv1.ListLegalMovesResponse{},
	"score":        &rulebookv1.ScoreResponse{},
	"view":         &rulebookv1.GetViewResponse{},
	"configure":    &emptypb.Empty{},
}

// TestAnswersHaveNoCode checks that a caller can tell an answer from a refusal by its code: no response of a
// function has a top-level field code.
func TestAnswersHaveNoCode(t *testing.T) {
	m, err := jsapi.New()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range m.Functions() {
		names = append(names, f.Name)
		resp, ok := responses[f.Name]
		if !ok {
			t.Errorf("function %s: what does it answer?", f.Name)
			continue
		}
		if fd := resp.ProtoReflect().Descriptor().Fields().ByJSONName("code"); fd != nil {
			t.Errorf("function %s answers %s, which has a field code: an answer would look like a refusal", f.Name,
				resp.ProtoReflect().Descriptor().FullName())
		}
	}
	want := []string{"listGames", "newGame", "validateMove", "applyMove", "legalMoves", "score", "view", "configure"}
	if !slices.Equal(names, want) {
		t.Errorf("functions %v, want %v", names, want)
	}
}

// TestConfigure checks that configure fixes the clock that stamps Ubongo Duel's moves at the instant it is given,
// which the module's answers then carry as a server with that clock does, and that {} or null gives the real clock
// back.
func TestConfigure(t *testing.T) {
	fixed := time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)
	cfg := clienttest.Config(true)
	cfg.Now = func() time.Time { return fixed }
	addrs := clienttest.Serve(t, cfg)
	m := wasmtest.Native(t)
	h := wasmtest.New(m, servertest.Dial(t, addrs.GRPC, addrs.HTTP))
	state := string(stateOf(t, h.Same(t, "newGame", "ubongo-duel", nil, 5)))
	giveUp := `{"player": 1, "ubongoDuel": {"giveUp": {}}}`
	for _, config := range []string{`{"now": "2025-01-01T00:00:00Z"}`, `{"now": "2025-01-01T01:00:00+01:00"}`} {
		if answer := m(t, "configure", config); answer != "{}" {
			t.Fatalf("configure(%s) answered %s", config, answer)
		}
		h.Same(t, "applyMove", "ubongo-duel", state, giveUp) // the same stamp as the server's
	}
	later := `{"now": "2025-01-01T00:00:00.000000001Z"}`
	if answer := m(t, "configure", later); answer != "{}" {
		t.Fatalf("configure(%s) answered %s", later, answer)
	}
	if got := stamp(t, m(t, "applyMove", "ubongo-duel", state, giveUp)); got != fixed.UnixNano()+1 {
		t.Errorf("stamped %d at %s, want %d", got, later, fixed.UnixNano()+1)
	}
	for _, config := range []string{`{}`, `null`, `{"now": null}`} {
		m(t, "configure", `{"now": "1970-01-01T00:00:00Z"}`)
		if answer := m(t, "configure", config); answer != "{}" {
			t.Fatalf("configure(%s) answered %s", config, answer)
		}
		before := time.Now().UnixNano()
		if got := stamp(t, m(t, "applyMove", "ubongo-duel", state, giveUp)); got < before {
			t.Errorf("after configure(%s) stamped %d, before the real time %d", config, got, before)
		}
	}
	for _, tc := range wasmtest.ArgumentCases {
		if tc.Fn != "configure" {
			continue
		}
		m(t, "configure", `{"now": "2025-01-01T00:00:00Z"}`)
		wasmtest.Refused(t, []byte(m(t, tc.Fn, tc.Args...)))
		if got := stamp(t, m(t, "applyMove", "ubongo-duel", state, giveUp)); got != fixed.UnixNano() {
			t.Errorf("%s: refused, yet the clock changed to %d", tc.Name, got)
		}
	}
}

// stamp returns the receive time of the move of an answer of applyMove in Ubongo Duel.
func stamp(t *testing.T, answer string) int64 {
	var a struct {
		Move struct {
			UbongoDuel struct {
				ReceivedAt int64 `json:"receivedAt,string"`
			} `json:"ubongoDuel"`
		} `json:"move"`
	}
	if err := json.Unmarshal([]byte(answer), &a); err != nil || a.Move.UbongoDuel.ReceivedAt == 0 {
		t.Fatalf("no receive time in %.500s", answer)
	}
	return a.Move.UbongoDuel.ReceivedAt
}
