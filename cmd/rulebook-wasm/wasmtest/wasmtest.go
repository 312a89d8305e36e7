// Package wasmtest checks the functions of the WebAssembly module (cmd/rulebook-wasm) against a server that accepts
// plain states, for the module's tests natively (jsapi) and under Node.js: each call is made of the module and of
// the server over REST, and their answers must be the same bytes once what protobuf varies from one program to
// another is taken out (Canonical). The REST
// call of a function is written here from the module's documentation, not taken from its code.
package wasmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/rulebook/rulebook/cmd/rulebook-wasm/jsapi"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// Module calls the function fn of a module with args, each a string, a number, a boolean, nil for null or any other
// JSON value for an object (undefined: fewer arguments), and returns its answer.
type Module func(t testing.TB, fn string, args ...any) string

// restCalls are the REST calls of the functions: the verb of the path /v1/games/{game}:verb, and the fields of the
// body that the arguments after game set. listGames is GET /v1/games.
var restCalls = map[string]struct {
	verb   string
	fields []string
}{
	"newGame":      {"new", []string{"options", "seed"}},
	"validateMove": {"validate", []string{"state", "move"}},
	"applyMove":    {"apply", []string{"state", "move", "events"}},
	"legalMoves":   {"legalMoves", []string{"state", "player"}},
	"score":        {"score", []string{"state"}},
	"view":         {"view", []string{"state", "viewer"}},
}

// Native returns the functions of a new module in Go (jsapi), called as the module calls them from JavaScript.
func Native(t testing.TB) Module {
	m, err := jsapi.New()
	if err != nil {
		t.Fatal(err)
	}
	functions := map[string]jsapi.Function{}
	for _, f := range m.Functions() {
		functions[f.Name] = f
	}
	return func(t testing.TB, fn string, args ...any) string {
		t.Helper()
		f, ok := functions[fn]
		if !ok {
			t.Fatalf("the module has no function %s", fn)
		}
		values := make([]jsapi.Value, len(args))
		for i, a := range args {
			values[i] = value(a)
		}
		return f.Call(values...)
	}
}

// value returns a as JavaScript would pass it: a string, a number, a boolean, null for nil, else an object.
func value(a any) jsapi.Value {
	switch v := a.(type) {
	case nil:
		return jsapi.Value{Kind: jsapi.Null}
	case string:
		return jsapi.Value{Kind: jsapi.String, String: v}
	case int:
		return jsapi.Value{Kind: jsapi.Number, Number: float64(v)}
	case float64:
		return jsapi.Value{Kind: jsapi.Number, Number: v}
	case bool:
		return jsapi.Value{Kind: jsapi.Boolean}
	}
	return jsapi.Value{Kind: jsapi.Other}
}

// RESTCall returns the REST request of the call of fn with args: its method, path and body ("" for none). A JSON
// argument is the body's field as it is, a seed a decimal string, events a string (a name) or a number, a player or
// viewer a number; nil is left out.
func RESTCall(t testing.TB, fn string, args ...any) (method, path, body string) {
	t.Helper()
	if fn == "listGames" {
		return http.MethodGet, "/v1/games", ""
	}
	call, ok := restCalls[fn]
	if !ok || len(args) == 0 || len(args) > len(call.fields)+1 {
		t.Fatalf("no REST call of %s%v", fn, args)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, arg := range args[1:] {
		if arg == nil {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		field := call.fields[i]
		fmt.Fprintf(&b, "%q:", field)
		switch v := arg.(type) {
		case string:
			if field == "seed" || field == "events" {
				v = strconv.Quote(v)
			}
			b.WriteString(v)
		case int:
			if field == "seed" {
				fmt.Fprintf(&b, `"%d"`, v)
			} else {
				fmt.Fprintf(&b, "%d", v)
			}
		default:
			t.Fatalf("no REST body of %s's argument %v", fn, arg)
		}
	}
	b.WriteByte('}')
	return http.MethodPost, fmt.Sprintf("/v1/games/%s:%s", args[0], call.verb), b.String()
}

// Harness makes each call of the module m and of the server c, and compares their answers.
type Harness struct {
	m Module
	c *servertest.Client
}

// New returns the harness of m and c.
func New(m Module, c *servertest.Client) *Harness { return &Harness{m: m, c: c} }

// Same makes the call of fn with args of the module and of the server, fails the test unless they answer the same
// (Canonical), and returns the answer (Canonical).
func (h *Harness) Same(t testing.TB, fn string, args ...any) []byte {
	t.Helper()
	got, want := h.both(t, fn, args...)
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: the module answered\n%.2000s\nthe server\n%.2000s", describe(fn, args), got, want)
	}
	return want
}

// both makes the call of fn with args of the module and of the server, and returns their answers, Canonical.
func (h *Harness) both(t testing.TB, fn string, args ...any) (module, server []byte) {
	t.Helper()
	method, path, body := RESTCall(t, fn, args...)
	var answer []byte
	if method == http.MethodGet {
		_, answer = h.c.Get(t, path)
	} else {
		_, answer = h.c.Post(t, path, body)
	}
	return Canonical(t, []byte(h.m(t, fn, args...))), Canonical(t, answer)
}

// describe returns the call of fn with args, cut short, for a failure.
func describe(fn string, args []any) string {
	s := fmt.Sprintf("%s%q", fn, args)
	if len(s) > 300 {
		s = s[:297] + "..."
	}
	return s
}

// stamps are the receive times of Ubongo Duel in JSON: of a move, of its solved event, and of the state.
var stamps = regexp.MustCompile(`"(receivedAt|lastReceivedAt|pendingReceivedAt)":"([0-9]+)"`)

// SameStamped is Same for applyMove(game, state, move) of a game whose moves the service stamps with its clock
// (Ubongo Duel): the module and the server stamp the move each with their own, so that the receive times of their
// answers differ. It checks that each receive time of the module's answer is the one of the state, or the
// module's stamp, which must not be before the state's last receive time; and where the module's is its stamp, the
// server's is its own. It then compares the answers with the server's stamp in place of the module's.
func (h *Harness) SameStamped(t testing.TB, game, state, move string) []byte {
	t.Helper()
	got, want := h.both(t, "applyMove", game, state, move)
	var in struct {
		UbongoDuel struct {
			LastReceivedAt int64 `json:"lastReceivedAt,string"`
		} `json:"ubongoDuel"`
	}
	if err := json.Unmarshal([]byte(state), &in); err != nil {
		t.Fatal(err)
	}
	mine, theirs := stamps.FindAllSubmatch(got, -1), stamps.FindAllSubmatch(want, -1)
	stamp := func(answer []byte) []byte {
		var a struct {
			Move struct {
				UbongoDuel struct {
					ReceivedAt string `json:"receivedAt"`
				} `json:"ubongoDuel"`
			} `json:"move"`
		}
		if err := json.Unmarshal(answer, &a); err != nil {
			t.Fatal(err)
		}
		return []byte(a.Move.UbongoDuel.ReceivedAt)
	}
	myStamp, theirStamp := stamp(got), stamp(want)
	if len(mine) != len(theirs) || len(myStamp) == 0 || len(theirStamp) == 0 {
		t.Fatalf("applyMove: the module answered\n%.2000s\nthe server\n%.2000s", got, want)
	}
	if n, err := strconv.ParseInt(string(myStamp), 10, 64); err != nil || n < in.UbongoDuel.LastReceivedAt {
		t.Fatalf("the module stamped the move %s, before the state's last receive time %d", myStamp, in.UbongoDuel.LastReceivedAt)
	}
	i := 0
	got = stamps.ReplaceAllFunc(got, func(m []byte) []byte {
		mineValue, theirValue := mine[i][2], theirs[i][2]
		i++
		if bytes.Equal(mineValue, myStamp) && bytes.Equal(theirValue, theirStamp) {
			return bytes.Replace(m, myStamp, theirStamp, 1)
		}
		return m
	})
	if !bytes.Equal(got, want) {
		t.Fatalf("applyMove: the module answered, with the server's stamp %s,\n%.2000s\nthe server\n%.2000s", theirStamp, got, want)
	}
	return want
}

// Canonical returns body without what protobuf's JSON varies, on purpose, from one program (binary) to another: the
// white space between tokens (json.Compact), and the space after "proto:" in the errors it writes, which the
// messages of refusals quote (a space, or a no-break space U+00A0).
func Canonical(t testing.TB, body []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, body); err != nil {
		t.Fatalf("not JSON: %v: %.300s", err, body)
	}
	return bytes.ReplaceAll(b.Bytes(), []byte("proto:\u00a0"), []byte("proto: "))
}

// Refusal is the part of a refusal's JSON that the tests check: its code, and its ErrorInfo's reason and facts.
type Refusal struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Details []struct {
		Reason   string            `json:"reason"`
		Metadata map[string]string `json:"metadata"`
	} `json:"details"`
}

// Refused returns the refusal of answer, failing the test unless it is one, with a code and a reason.
func Refused(t testing.TB, answer []byte) Refusal {
	t.Helper()
	var r Refusal
	if err := json.Unmarshal(answer, &r); err != nil || r.Code == 0 || len(r.Details) == 0 || r.Details[0].Reason == "" {
		t.Fatalf("not a refusal with a code and a reason: %.500s", answer)
	}
	return r
}

// setup is a game that Play plays.
type setup struct {
	name, game string
	options    any // optionsJson: a string, or nil
	seed       any // a number or a decimal string
	players    int
	turns      bool // whether one player moves at a time (a move of the other is refused)
}

// setups are the games Play plays: every hosted game, seeded by numbers and by decimal strings.
var setups = []setup{
	{name: "exploze 6x6", game: "exploze", options: `{"exploze": {"rows": 6, "cols": 6, "players": 2}}`, seed: 1, players: 2, turns: true},
	{name: "kipicot", game: "kipicot", seed: "2", players: 2, turns: true},
	{name: "micropul 2p", game: "micropul", options: `{"micropul": {"players": 2}}`, seed: 3, players: 2, turns: true},
	{name: "micropul solo", game: "micropul", options: `{"micropul": {"players": 1}}`, seed: "18446744073709551615", players: 1, turns: true},
	{name: "ubongo duel", game: "ubongo-duel", options: `{}`, seed: 5, players: 2},
}

// maxMoves bounds the moves of a game Play plays: none of its setups takes as many.
const maxMoves = 2000

// Play plays each game of setups to its end, making every call of the module and of the server and comparing their
// answers: listGames, then for each game newGame, and before each move score, view (of each viewer in turn),
// legalMoves, validateMove and applyMove, from the server's state. Moves are random legal moves (a seeded random
// generator), and in Ubongo Duel a solution of the task from the server's SolvePuzzle. Each game has three
// refusals: a move with an unknown field, a move of the wrong player (a seat that does not exist, solo) or in
// Ubongo Duel a duel closed with no win pending, and the last move again once the game is over.
func (h *Harness) Play(t *testing.T) {
	h.Same(t, "listGames")
	for i, s := range setups {
		t.Run(s.name, func(t *testing.T) { h.play(t, s, rand.New(rand.NewPCG(uint64(i), 7))) })
	}
}

// play plays the game s to its end, with rng.
func (h *Harness) play(t *testing.T, s setup, rng *rand.Rand) {
	state := field(t, h.Same(t, "newGame", s.game, s.options, s.seed), "state")
	if reason := Refused(t, h.Same(t, "applyMove", s.game, state, `{"player": 1, "bogus": true}`)).Details[0].Reason; reason != "INVALID_FIELD" {
		t.Errorf("a move with an unknown field: %s, want INVALID_FIELD", reason)
	}
	var move string
	for moves := 0; ; moves++ {
		if moves == maxMoves {
			t.Fatalf("the game is not over after %d moves", moves)
		}
		var score struct {
			Score struct {
				GameOver bool `json:"gameOver"`
			} `json:"score"`
		}
		if err := json.Unmarshal(h.Same(t, "score", s.game, state), &score); err != nil {
			t.Fatal(err)
		}
		if score.Score.GameOver {
			t.Logf("over after %d moves", moves)
			break
		}
		h.Same(t, "view", s.game, state, moves%(s.players+1))
		legalArgs := []any{s.game, state}
		if moves%3 == 1 {
			legalArgs = append(legalArgs, nil)
		}
		var legal struct {
			Moves []json.RawMessage `json:"moves"`
		}
		if err := json.Unmarshal(h.Same(t, "legalMoves", legalArgs...), &legal); err != nil {
			t.Fatal(err)
		}
		if s.game == "ubongo-duel" {
			move = h.solve(t, state, rng)
		} else if len(legal.Moves) == 0 {
			t.Fatalf("move %d: no legal move in a game that is not over", moves)
		} else {
			move = string(legal.Moves[rng.IntN(len(legal.Moves))])
		}
		if moves == 0 {
			Refused(t, h.Same(t, "validateMove", s.game, state, h.wrongMove(t, s, move)))
		}
		h.Same(t, "validateMove", s.game, state, move)
		var applied []byte
		if s.game == "ubongo-duel" {
			applied = h.SameStamped(t, s.game, state, move)
		} else {
			applied = h.Same(t, "applyMove", s.game, state, move)
		}
		state = field(t, applied, "state")
	}
	Refused(t, h.Same(t, "applyMove", s.game, state, move))
	Refused(t, h.Same(t, "validateMove", s.game, state, move))
}

// wrongMove returns a move that the rules refuse in the game s where move is legal: move of the next player in a
// game of turns (with one player, of a player the game does not have), and in Ubongo Duel, a duel closed with no
// win pending.
func (h *Harness) wrongMove(t testing.TB, s setup, move string) string {
	if !s.turns {
		return `{"player": 1, "ubongoDuel": {"closeDuel": {}}}`
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(move), &m); err != nil {
		t.Fatal(err)
	}
	player, _ := m["player"].(float64)
	m["player"] = int(player)%max(s.players, 2) + 1
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// solve returns a solution of the current task of the Ubongo Duel state, of a random player, found by the server.
func (h *Harness) solve(t testing.TB, state string, rng *rand.Rand) string {
	var s rulebookv1.GameState
	if err := protojson.Unmarshal([]byte(state), &s); err != nil {
		t.Fatal(err)
	}
	b, err := protojson.Marshal(servertest.SolveUbongo(t, h.c, servertest.Transports[1], &s, rng))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// field returns the JSON of the field name of the object answer.
func field(t testing.TB, answer []byte, name string) string {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(answer, &fields); err != nil || fields[name] == nil {
		t.Fatalf("no %s in %.500s", name, answer)
	}
	return string(fields[name])
}

// ArgumentCase is a call whose arguments the module refuses before any REST body is made of them: Reason, of the
// argument named (Argument, "" for none).
type ArgumentCase struct {
	Name             string
	Fn               string
	Args             []any
	Reason, Argument string
}

// ArgumentCases are the calls of functions with arguments that are not what they take.
var ArgumentCases = []ArgumentCase{
	{Name: "too many arguments", Fn: "listGames", Args: []any{"exploze"}, Reason: "INVALID_ARGUMENTS"},
	{Name: "five of four", Fn: "applyMove", Args: []any{"exploze", "{}", "{}", nil, "{}"}, Reason: "INVALID_ARGUMENTS"},
	{Name: "no game", Fn: "score", Reason: "INVALID_ARGUMENTS", Argument: "game"},
	{Name: "a game that is a number", Fn: "newGame", Args: []any{1}, Reason: "INVALID_ARGUMENTS", Argument: "game"},
	{Name: "a game that is null", Fn: "newGame", Args: []any{nil}, Reason: "INVALID_ARGUMENTS", Argument: "game"},
	{Name: "no state", Fn: "score", Args: []any{"exploze"}, Reason: "INVALID_ARGUMENTS", Argument: "stateJson"},
	{Name: "a state that is null", Fn: "score", Args: []any{"exploze", nil}, Reason: "INVALID_ARGUMENTS", Argument: "stateJson"},
	{Name: "a state that is an object", Fn: "score", Args: []any{"exploze", map[string]any{}}, Reason: "INVALID_ARGUMENTS", Argument: "stateJson"},
	{Name: "a move that is a boolean", Fn: "applyMove", Args: []any{"exploze", "{}", true}, Reason: "INVALID_ARGUMENTS", Argument: "moveJson"},
	{Name: "options that are an array", Fn: "newGame", Args: []any{"exploze", []any{}}, Reason: "INVALID_ARGUMENTS", Argument: "optionsJson"},
	{Name: "a state that is not JSON", Fn: "score", Args: []any{"exploze", `{"exploze": `}, Reason: "MALFORMED_JSON", Argument: "stateJson"},
	{Name: "a move that is two JSON values", Fn: "validateMove", Args: []any{"exploze", "{}", "{} {}"}, Reason: "MALFORMED_JSON", Argument: "moveJson"},
	{Name: "options that are empty", Fn: "newGame", Args: []any{"exploze", ""}, Reason: "MALFORMED_JSON", Argument: "optionsJson"},
	{Name: "a seed that is a fraction", Fn: "newGame", Args: []any{"exploze", nil, 1.5}, Reason: "INVALID_ARGUMENTS", Argument: "seed"},
	{Name: "a seed that is negative", Fn: "newGame", Args: []any{"exploze", nil, -1}, Reason: "INVALID_ARGUMENTS", Argument: "seed"},
	{Name: "a seed past 2^53-1", Fn: "newGame", Args: []any{"exploze", nil, 1 << 53}, Reason: "INVALID_ARGUMENTS", Argument: "seed"},
	{Name: "a seed that is a boolean", Fn: "newGame", Args: []any{"exploze", nil, false}, Reason: "INVALID_ARGUMENTS", Argument: "seed"},
	{Name: "a player that is a string", Fn: "legalMoves", Args: []any{"exploze", "{}", "1"}, Reason: "INVALID_ARGUMENTS", Argument: "player"},
	{Name: "a viewer that is a fraction", Fn: "view", Args: []any{"exploze", "{}", 0.5}, Reason: "INVALID_ARGUMENTS", Argument: "viewer"},
	{Name: "events that are a boolean", Fn: "applyMove", Args: []any{"exploze", "{}", "{}", true}, Reason: "INVALID_ARGUMENTS", Argument: "events"},
	{Name: "events that are a fraction", Fn: "applyMove", Args: []any{"exploze", "{}", "{}", 1.5}, Reason: "INVALID_ARGUMENTS", Argument: "events"},
	{Name: "events that are an object", Fn: "applyMove", Args: []any{"exploze", "{}", "{}", map[string]any{}}, Reason: "INVALID_ARGUMENTS", Argument: "events"},
	{Name: "no configuration", Fn: "configure", Reason: "INVALID_ARGUMENTS", Argument: "configJson"},
	{Name: "two configurations", Fn: "configure", Args: []any{"{}", "{}"}, Reason: "INVALID_ARGUMENTS"},
	{Name: "a configuration that is an object", Fn: "configure", Args: []any{map[string]any{}}, Reason: "INVALID_ARGUMENTS", Argument: "configJson"},
	{Name: "a configuration that is not JSON", Fn: "configure", Args: []any{`{"now": `}, Reason: "MALFORMED_JSON", Argument: "configJson"},
	{Name: "a configuration that is an array", Fn: "configure", Args: []any{`[]`}, Reason: "INVALID_ARGUMENTS", Argument: "configJson"},
	{Name: "a setting the module does not have", Fn: "configure", Args: []any{`{"today": "2025-01-01T00:00:00Z"}`}, Reason: "INVALID_ARGUMENTS", Argument: "configJson"},
	{Name: "a time that is a number", Fn: "configure", Args: []any{`{"now": 1735689600}`}, Reason: "INVALID_ARGUMENTS", Argument: "configJson"},
	{Name: "a time that is not RFC 3339", Fn: "configure", Args: []any{`{"now": "2025-01-01 00:00:00"}`}, Reason: "INVALID_ARGUMENTS", Argument: "configJson"},
	{Name: "a time before 1970", Fn: "configure", Args: []any{`{"now": "1969-12-31T23:59:59Z"}`}, Reason: "INVALID_ARGUMENTS", Argument: "configJson"},
	{Name: "a time past 2262", Fn: "configure", Args: []any{`{"now": "2262-04-11T23:47:16.854775808Z"}`}, Reason: "INVALID_ARGUMENTS", Argument: "configJson"},
}

// CheckArguments makes each call of ArgumentCases of m, and checks its refusal: INVALID_ARGUMENT, the reason, and
// facts naming the function and the argument.
func CheckArguments(t *testing.T, m Module) {
	for _, tc := range ArgumentCases {
		t.Run(tc.Name, func(t *testing.T) {
			r := Refused(t, []byte(m(t, tc.Fn, tc.Args...)))
			facts := r.Details[0].Metadata
			if r.Code != 3 || r.Details[0].Reason != tc.Reason || facts["function"] != tc.Fn || facts["argument"] != tc.Argument {
				t.Errorf("got code %d, reason %s, facts %v (%s); want 3, %s, function %s and argument %q",
					r.Code, r.Details[0].Reason, facts, r.Message, tc.Reason, tc.Fn, tc.Argument)
			}
		})
	}
}
