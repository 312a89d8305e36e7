package micropul

import (
	"math/rand/v2"
	"slices"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/search"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// soloScale is the score that a solo playout's reward of 1 stands for: rewards are points/soloScale, at most 1
// (the rules' best band starts past 100 points).
const soloScale = 200

// Suggest is Micropul's bot: information-set Monte Carlo tree search. It looks only at seat's view of s, and each
// iteration plays on a deal of what the view hides (the core's order, the supplies, the other player's hand), drawn
// from the tiles seat has not seen. Two players play to win; solo, the player plays for points (a game lost by running
// out of tiles scores 0), and the evaluation is the expected score.
func (definition) Suggest(s *State, seat engine.Player, b engine.Budget) (engine.Plan[Move], error) {
	view := s.View(seat)
	unseen := view.unseen()
	deal := func(rng *rand.Rand) *State { return view.deal(unseen, rng) }
	r := search.MCTS[*State, Move](searched{}, deal, seat, s.opts.Players, b, botLimits, true)
	if !r.Found {
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	plan := engine.Plan[Move]{Move: r.Move, PrincipalVariation: r.PrincipalVariation, Iterations: int64(r.Iterations)}
	switch {
	case r.Visits == 0:
	case s.opts.Players == 1:
		plan.Evaluation = &rulebookv1.Evaluation{ExpectedScore: r.Value * soloScale}
	default:
		plan.Evaluation = &rulebookv1.Evaluation{WinProbability: r.Value}
	}
	return plan, nil
}

// unseen returns the tiles that s, a view, does not show, ascending: neither on the board nor in a hand it holds.
func (s *State) unseen() []int {
	var seen [NumTiles]bool
	for _, p := range s.board {
		seen[p.Tile] = true
	}
	for _, st := range s.seats {
		for _, t := range st.Hand {
			seen[t] = true
		}
	}
	var out []int
	for t, ok := range seen {
		if !ok {
			out = append(out, t)
		}
	}
	return out
}

// deal returns a full state that s, a view, could be a view of: the unseen tiles shuffled by rng and dealt to the
// core, the supplies and the hands s does not hold, each as long as s counts it.
func (s *State) deal(unseen []int, rng *rand.Rand) *State {
	pool := slices.Clone(unseen)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	take := func(n int) []int {
		out := pool[:n:n]
		pool = pool[n:]
		return out
	}
	d := s.clone()
	d.view, d.viewer = false, engine.NoPlayer
	d.core = take(s.coreCount)
	for i := range d.seats {
		st := &d.seats[i]
		st.Supply = take(st.SupplyCount)
		if st.Hand == nil && st.HandCount > 0 {
			st.Hand = take(st.HandCount)
			slices.Sort(st.Hand)
		}
	}
	return d
}

// botLimits end the bot's playouts after 2 moves, rated by Estimate: random play much longer says little.
var botLimits = search.Limits{PlayoutDepth: 2}

// estimateScale is the lead, in points, that Estimate rates about 0.73.
const estimateScale = 6

// searched is Micropul as package search plays it.
type searched struct{ search.Turns[*State, Move, Event] }

// Rewards gives, with two players, the winner 1 and the loser 0 (each 1/2 in a draw); solo, the points scaled by
// soloScale, 0 for a game lost.
func (searched) Rewards(s *State, r []float64) {
	sc := s.Score()
	if len(r) == 1 {
		r[0] = 0
		if p := sc.Players[0]; !p.Lost {
			r[0] = min(float64(p.Total)/soloScale, 1)
		}
		return
	}
	for i := range r {
		switch {
		case len(sc.Winners) == 0:
			r[i] = 0.5
		case slices.Contains(sc.Winners, engine.Player(i+1)):
			r[i] = 1
		default:
			r[i] = 0
		}
	}
}

// Estimate rates, with two players, each seat by how many points it leads the other by; solo, it scales the points
// as Rewards does.
func (searched) Estimate(s *State, r []float64) {
	sc := s.Score()
	if len(r) == 1 {
		r[0] = min(float64(sc.Players[0].Total)/soloScale, 1)
		return
	}
	points := make([]float64, len(r))
	for i, p := range sc.Players {
		points[i] = float64(p.Total)
	}
	search.Leads(points, estimateScale, r)
}
