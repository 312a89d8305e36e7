//go:build js && wasm

// Command rulebook-wasm is rulebook's rules as a WebAssembly module, for JavaScript (Node.js or a browser page) to
// call in process, with no server: the calls of a rulebook server that accepts plain states (rulebookd
// -accept-plain-states), with the same service, the same games and the same JSON as its REST API. Build it with
//
//	GOOS=js GOARCH=wasm go build -o rulebook.wasm ./cmd/rulebook-wasm
//
// and run it with the wasm_exec.js of the same Go ($(go env GOROOT)/lib/wasm/wasm_exec.js): once go.run(instance)
// has started it, it defines the global object rulebook, and stays until the page or process ends.
//
// Every function of rulebook takes JavaScript strings (and numbers where said) and returns a string of JSON: the
// body that the REST call named answers, in the same protojson form (camelCase names, enum names, 64-bit integers as
// strings, unset fields left out: a missing number is 0, a missing list empty), or, if the call is refused, the same
// body as REST's refusal, a google.rpc.Status: {"code": <gRPC code>, "message": ..., "details": [{"@type":
// "type.googleapis.com/google.rpc.ErrorInfo", "reason": <reason code>, "domain": "rulebook", "metadata": <facts>},
// ...]}. Those are the server's bytes, but for what protobuf varies on purpose from one program to another: the white
// space, and a space or a no-break space after "proto:" in a message that quotes one of its errors. An answer is a
// refusal exactly when its parsed JSON has a code: no answer of these calls has a top-level field code, and a
// refusal's code is never 0. The functions, with the REST call each is (game as the path's
// {game}, the other arguments as the fields of the body):
//
//	listGames()                                   GET  /v1/games                 {games}
//	newGame(game, optionsJson, seed)              POST /v1/games/{game}:new      {state}           body {options, seed}
//	validateMove(game, stateJson, moveJson)       POST /v1/games/{game}:validate {} for a legal move  body {state, move}
//	applyMove(game, stateJson, moveJson, events)  POST /v1/games/{game}:apply    {state, events, move}  body {state, move, events}
//	legalMoves(game, stateJson, player)           POST /v1/games/{game}:legalMoves {moves}         body {state, player}
//	score(game, stateJson)                        POST /v1/games/{game}:score    {score}           body {state}
//	view(game, stateJson, viewer)                 POST /v1/games/{game}:view     {view}            body {state, viewer}
//
// and one of the module's own, which no REST call is:
//
//	configure(configJson)                         sets the module's clock        {}
//
// The arguments:
//   - game: a string, a game id of listGames ("exploze", "kipicot", "micropul", "ubongo-duel").
//   - stateJson, moveJson: strings of JSON, a GameState and a Move as REST takes and gives them: the state of an
//     answer of newGame or applyMove is JSON.stringify(JSON.parse(answer).state), a move one of legalMoves' moves.
//   - optionsJson: a string of JSON, GameOptions such as '{"exploze": {"rows": 6, "cols": 6}}'; undefined or null
//     for the defaults.
//   - seed: the seed of the game's random generator, a uint64: a decimal string (any seed, as REST's seed field
//     takes it: "18446744073709551615"), or a number that is a safe integer (0 to 2^53-1); the same seed gives the
//     same game as a server's NewGame with that seed. Undefined or null draws a seed at random
//     (crypto.getRandomValues).
//   - player: a number, the player whose legal moves are asked for; undefined, null or 0 for every player who may
//     move now.
//   - viewer: a number, the player whose view is asked for; undefined, null or 0 for a spectator's.
//   - events: how much of the move's events applyMove answers, an EventDetail as REST's events field takes it: its
//     name (a string: "EVENT_DETAIL_ALL", "EVENT_DETAIL_SUMMARY", "EVENT_DETAIL_NONE") or its number (a safe
//     integer); undefined or null for every event, the default.
//   - configJson: a string of JSON, the module's configuration: an object whose one setting, now, is the instant at
//     which the module's clock stands from then on, an RFC 3339 time as protobuf's JSON writes a Timestamp
//     ('{"now": "2025-01-01T00:00:00Z"}'), from 1970 to 2262 (Ubongo Duel's receive times are nanoseconds since
//     1970 in an int64); '{}', '{"now": null}' or 'null' turns the real clock (Date.now) back on. Each call sets
//     the whole configuration, a setting left out at its default, and a refused one changes nothing. Fix the clock
//     to answer the conformance kit (conformance/README.md), whose cases run at 2025-01-01T00:00:00Z, or in tests
//     that must know the receive times.
//
// The refusals are REST's, reason for reason (MALFORMED_JSON and INVALID_FIELD for a body that does not decode,
// UNKNOWN_GAME, the games' own reasons...), and besides: INVALID_ARGUMENTS (code 3, INVALID_ARGUMENT) for more
// arguments than the function takes, a required one missing, one of the wrong type, or a configJson that is not a
// configuration (a setting the module does not have, a now that is not a string, not an RFC 3339 time or out of
// range); the facts name the function and the argument; and MALFORMED_JSON for an argument that is not one JSON
// value (the facts name it). A panic of the service is answered INTERNAL (code 13), as a server answers it; the
// module goes on.
//
// What the module does not do that a server does: it takes and gives no tokens (it is for callers who hold plain
// states), hosts no SolvePuzzle, ListPieceSets or Replay, and has no limit on the size of a call or its time. Ubongo
// Duel's moves are stamped with the module's clock (Date.now, to the millisecond, unless configure fixed it) as a
// server stamps them with its own.
package main

import (
	"syscall/js"

	"github.com/rulebook/rulebook/cmd/rulebook-wasm/jsapi"
)

func main() {
	m, err := jsapi.New()
	if err != nil {
		panic(err)
	}
	rulebook := js.Global().Get("Object").New()
	for _, f := range m.Functions() {
		rulebook.Set(f.Name, js.FuncOf(func(_ js.Value, args []js.Value) any {
			values := make([]jsapi.Value, len(args))
			for i, a := range args {
				values[i] = value(a)
			}
			return f.Call(values...)
		}))
	}
	js.Global().Set("rulebook", rulebook)
	select {} // the functions are called from JavaScript
}

// value returns v as an argument of a function.
func value(v js.Value) jsapi.Value {
	switch v.Type() {
	case js.TypeUndefined:
		return jsapi.Value{Kind: jsapi.Undefined}
	case js.TypeNull:
		return jsapi.Value{Kind: jsapi.Null}
	case js.TypeBoolean:
		return jsapi.Value{Kind: jsapi.Boolean}
	case js.TypeNumber:
		return jsapi.Value{Kind: jsapi.Number, Number: v.Float()}
	case js.TypeString:
		return jsapi.Value{Kind: jsapi.String, String: v.String()}
	}
	return jsapi.Value{Kind: jsapi.Other}
}
