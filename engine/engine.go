// Package engine holds what every rule engine shares: players, typed rule errors, the Game interface through which
// the service (or any Go program) drives a game by its protobuf messages, and Spec, which makes a game's whole Game
// from its typed rules and its Definition.
//
// Each game lives in its own package below this one (engine/exploze, ...). A game package is pure and deterministic:
// no clock, no global state, no unseeded randomness, no dependence on map order. Its states are immutable values:
// Apply returns a new state and never changes the one it was given.
//
// A new game provides its rules as methods of its typed state (Rules: Legal, Validate, Apply, Score, View) and, in
// one zero-size type, its Definition: its facts (Info, LongestGame), its conversions from and to the envelopes
// (NewState, DecodeState, FullOnly, EncodeState, DecodeMove, EncodeEvents, ViewEvent) and its seats (Seats,
// ToMove). Then
//
//	type Game = engine.Spec[*State, Move, Event, Score, definition]
//
// is its engine.Game (also Seated, Held and Wired), and its conformance test declares an enginetest.Battery and calls
// enginetest.Run. Two optional methods of a Definition make the service's path quicker where a state is many small
// messages: a Packer gives tokens a private binary form of the state, and a WireEncoder writes the wire form of a
// state's envelope itself for gRPC answers; enginetest checks both against the messages byte for byte.
package engine

// Player is a seat at the table, numbered from 1. NoPlayer (0) means nobody: an empty cell, a spectator, no winner.
type Player int

// NoPlayer is the zero Player: no seat.
const NoPlayer Player = 0
