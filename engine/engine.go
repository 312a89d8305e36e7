// Package engine holds what every rule engine shares: players, typed rule errors, the Game interface through which
// the service (or any Go program) drives a game by its protobuf messages, and the Adapter that does most of a Game's
// work from the game's typed state.
//
// Each game lives in its own package below this one (engine/exploze, ...). A game package is pure and deterministic:
// no clock, no global state, no unseeded randomness, no dependence on map order. Its states are immutable values:
// Apply returns a new state and never changes the one it was given.
package engine

// Player is a seat at the table, numbered from 1. NoPlayer (0) means nobody: an empty cell, a spectator, no winner.
type Player int

// NoPlayer is the zero Player: no seat.
const NoPlayer Player = 0
