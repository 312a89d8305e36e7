package exploze

import (
	"math/rand/v2"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/search"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Suggest is Exploze's bot: with two players, alpha-beta search (search.AlphaBeta), nodesPerIteration nodes for
// each iteration of the budget; with more, Monte Carlo tree search with random playouts (search.MCTS). Exploze hides
// nothing, so every iteration plays from s itself.
func (definition) Suggest(s *State, seat engine.Player, b engine.Budget) (engine.Plan[Move], error) {
	return suggest(s, seat, b, s.opts.Players == 2)
}

// nodesPerIteration is how many nodes alpha-beta searches for each iteration of a budget: about as many as it
// searches in the time MCTS plays one playout on a 6 x 6 board (24,000 nodes against 2,300 playouts in 50 ms), so
// that a level's budget costs the two searches about the same time.
const nodesPerIteration = 10

// suggest is Suggest by alpha-beta search when alphaBeta is set, else by MCTS.
func suggest(s *State, seat engine.Player, b engine.Budget, alphaBeta bool) (engine.Plan[Move], error) {
	var r search.Result[Move]
	if alphaBeta {
		b.Iterations *= nodesPerIteration
		r = search.AlphaBeta[*State, Move](searched{}, s, seat, b)
	} else {
		r = search.MCTS[*State, Move](searched{}, func(*rand.Rand) *State { return s }, seat, s.opts.Players, b,
			botLimits, false)
	}
	if !r.Found {
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	plan := engine.Plan[Move]{Move: r.Move, PrincipalVariation: r.PrincipalVariation, Iterations: int64(r.Iterations)}
	if r.Visits > 0 || r.Depth > 0 {
		plan.Evaluation = &rulebookv1.Evaluation{WinProbability: r.Value}
	}
	return plan, nil
}

// botLimits end the bot's playouts after 2 moves, rated by Estimate: random play much longer says little.
var botLimits = search.Limits{PlayoutDepth: 2}

// estimateScale is the lead, in stones, that Estimate rates about 0.73.
const estimateScale = 4

// searched is Exploze as package search plays it.
type searched struct {
	search.Turns[*State, Move, Event]
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

// Estimate rates each seat by how many stones it leads the others by.
func (searched) Estimate(s *State, r []float64) {
	points := make([]float64, len(r))
	for _, c := range s.cells {
		if c.Owner != engine.NoPlayer {
			points[c.Owner-1] += float64(c.Stones)
		}
	}
	search.Leads(points, estimateScale, r)
}
