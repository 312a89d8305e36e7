package kipicot

import (
	"math/rand/v2"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/search"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Suggest is Kipicot's bot: Monte Carlo tree search with random playouts over the steps of turns (a turn is a path
// of a few nodes of the tree), from s itself, as Kipicot hides nothing. The move is one step, as Legal lists them.
func (definition) Suggest(s *State, seat engine.Player, b engine.Budget) (engine.Plan[Move], error) {
	r := search.MCTS[*State, Step](searched{}, func(*rand.Rand) *State { return s }, seat, Players, b,
		botLimits, false)
	if !r.Found {
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	plan := engine.Plan[Move]{Move: Move{Player: seat, Step: r.Move}, Iterations: int64(r.Iterations)}
	at := s
	for _, st := range r.PrincipalVariation {
		m := Move{Player: at.toMove, Step: st}
		plan.PrincipalVariation = append(plan.PrincipalVariation, m)
		at = searched{}.Play(at, st)
	}
	if r.Visits > 0 {
		plan.Evaluation = &rulebookv1.Evaluation{WinProbability: r.Value}
	}
	return plan, nil
}

// botLimits end the bot's playouts after 12 moves, rated by Estimate: random play much longer says little.
var botLimits = search.Limits{PlayoutDepth: 12}

// estimateScale is the lead, in tokens caught, that Estimate rates about 0.73.
const estimateScale = 2

// searched is Kipicot as package search plays it: the moves are the steps of the player to move.
type searched struct{}

// Mover returns the player to move, or NoPlayer once the game is over.
func (searched) Mover(s *State) engine.Player {
	if s.Over() {
		return engine.NoPlayer
	}
	return s.toMove
}

// Moves appends the steps the player to move may take.
func (searched) Moves(s *State, moves []Step) []Step {
	for _, m := range s.Legal(s.toMove) {
		moves = append(moves, m.Step)
	}
	return moves
}

// Play takes st, a legal step of the player to move.
func (searched) Play(s *State, st Step) *State {
	next, _, err := s.Apply(Move{Player: s.toMove, Step: st})
	if err != nil {
		panic("kipicot: the bot took a step Legal did not list: " + err.Error())
	}
	return next
}

// Rewards gives the winner 1 and the loser 0, each 1/2 in a draw.
func (searched) Rewards(s *State, r []float64) {
	sc := s.Score()
	for i := range r {
		switch {
		case sc.Draw:
			r[i] = 0.5
		case sc.Winner == engine.Player(i+1):
			r[i] = 1
		default:
			r[i] = 0
		}
	}
}

// Estimate rates each seat by how many tokens it has caught more than the other.
func (searched) Estimate(s *State, r []float64) {
	points := make([]float64, len(r))
	for i := range points {
		points[i] = float64(s.Caught(engine.Player(i + 1)).Total())
	}
	search.Leads(points, estimateScale, r)
}
