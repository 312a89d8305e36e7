// Package engine holds what every rule engine shares: players, typed rule errors, the Game and Position interfaces
// through which the service (or any Go program) drives a game by its protobuf messages, and Spec, which makes a
// game's whole Game from its typed rules and its Definition.
//
// Each game lives in its own package below this one (engine/exploze, ...). A game package is pure and deterministic:
// no clock, no global state, no unseeded randomness, no dependence on map order. Its states are immutable values:
// Apply returns a new state and never changes the one it was given.
//
// A caller turns a request's game into a Position once (Game.New, Game.Decode of a plain state, Game.Open of a
// token's held form) and composes its answer from that Position: apply, view, encode, seal. There is one way to do
// each: no optional fast paths, no fallbacks. Game has no method per call of the service (Legal, Apply, ... of a
// state message): those would be a second way to ask what a Position answers, and each would decode its state again.
//
// A new game provides its rules as methods of its typed state (Rules: Legal, Validate, Apply, Score, View) and, in
// one zero-size type, its Definition, of 12 methods: its facts (Info, LongestGame), its conversions from and to the
// envelopes (NewState, DecodeState, FullOnly, EncodeState, DecodeMove, EncodeEvents, ViewEvent), its seats (Seats,
// ToMove) and its bot (Suggest). A game whose moves have several forms or carry their receive time adds Receive (a
// Receiver), and one whose tokens an earlier release held in a private form adds ReadPreviousForm (a PreviousForm).
// Then
//
//	type Game = engine.Spec[*State, Move, Event, Score, definition]
//
// is its engine.Game, and its conformance test declares an enginetest.Battery and calls enginetest.Run.
package engine

// Player is a seat at the table, numbered from 1. NoPlayer (0) means nobody: an empty cell, a spectator, no winner.
type Player int

// NoPlayer is the zero Player: no seat.
const NoPlayer Player = 0
