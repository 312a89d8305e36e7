package exploze

import (
	"math/rand/v2"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/search"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Suggest is Exploze's bot: Monte Carlo tree search with random playouts. Exploze hides nothing, so every
// iteration plays from s itself.
func (definition) Suggest(s *State, seat engine.Player, b engine.Budget) (engine.Plan[Move], error) {
	r := search.MCTS[*State, Move](searched{}, func(*rand.Rand) *State { return s }, seat, s.opts.Players, b,
		search.Limits{}, false)
	if !r.Found {
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	plan := engine.Plan[Move]{Move: r.Move, PrincipalVariation: r.PrincipalVariation, Iterations: int64(r.Iterations)}
	if r.Visits > 0 {
		plan.Evaluation = &rulebookv1.Evaluation{WinProbability: r.Value}
	}
	return plan, nil
}

// searched is Exploze as package search plays it.
type searched struct{}

// Mover returns the player to move, or NoPlayer once the game is over.
func (searched) Mover(s *State) engine.Player {
	if s.Over() {
		return engine.NoPlayer
	}
	return s.toMove
}

// Moves appends the legal moves of the player to move.
func (searched) Moves(s *State, moves []Move) []Move { return append(moves, s.Legal(s.toMove)...) }

// Play plays m, a legal move.
func (searched) Play(s *State, m Move) *State {
	next, _, err := s.Apply(m)
	if err != nil {
		panic("exploze: the bot played a move Legal did not list: " + err.Error())
	}
	return next
}

// Rewards gives the winner 1 and the others 0.
func (searched) Rewards(s *State, r []float64) {
	for i := range r {
		r[i] = 0
	}
	if w := s.Winner(); w != engine.NoPlayer {
		r[w-1] = 1
	}
}
