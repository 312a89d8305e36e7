package search

import (
	"fmt"

	"github.com/rulebook/rulebook/engine"
)

// Turned is the typed state S of a game played in turns, with moves M and events E: what Turns needs of it.
type Turned[S any, M comparable, E any] interface {
	Over() bool
	ToMove() engine.Player
	Legal(p engine.Player) []M
	Apply(m M) (S, []E, error)
}

// Turns is the Mover, Moves and Play of a Game whose states are Turned: a game's searched type embeds it and adds
// Rewards and Estimate.
type Turns[S Turned[S, M, E], M comparable, E any] struct{}

// Mover returns the player to move, or NoPlayer once the game is over.
func (Turns[S, M, E]) Mover(s S) engine.Player {
	if s.Over() {
		return engine.NoPlayer
	}
	return s.ToMove()
}

// Moves appends the legal moves of the player to move.
func (Turns[S, M, E]) Moves(s S, moves []M) []M { return append(moves, s.Legal(s.ToMove())...) }

// Play plays m, a legal move; an error of Apply on a move Legal listed is a broken engine, and panics.
func (Turns[S, M, E]) Play(s S, m M) S {
	next, _, err := s.Apply(m)
	if err != nil {
		panic(fmt.Sprintf("search: the engine refused %v, a move its Legal listed: %v", m, err))
	}
	return next
}
