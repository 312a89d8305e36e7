package micropul

import (
	"math/rand/v2"
	"slices"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/search"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// soloSpread is the points that span a solo playout's rewards, 0 to 1: a reward is 1/2 plus the points above the
// root's worth (worth) over soloSpread, clipped. Points over 200 (the rewards before) left UCT unable to tell moves
// apart: its exploration swamped differences of a few points. (A spread of 40 scored about 1 point less a game.)
const soloSpread = 20

// botLevels are Micropul's bot levels, calibrated in the two-player game against the group-aware greedy player
// of rulebook-arena (docs/bots.md has the measurements, solo too).
func botLevels() []*rulebookv1.BotLevelInfo {
	return engine.BotLevels(
		engine.LevelInfo{Iterations: 5, Description: "Runs 5 playouts a move: " +
			"about as strong as a player that values points and the open groups holding its stones one move ahead."},
		engine.LevelInfo{Iterations: 200, Description: "Runs 200 playouts a move: " +
			"beats that player about three games in four."},
		engine.LevelInfo{Iterations: 2_000, Description: "Runs 2,000 playouts a move, " +
			"about a fifth of a second: beats that player about four games in five."})
}

// Suggest is Micropul's bot: information-set Monte Carlo search, one move deep (botLimits). It looks only at seat's
// view of s, and each iteration plays on a deal of what the view hides (the core's order, the supplies, the other
// player's hand), drawn from the tiles seat has not seen, a few moves of the playout policy (policy), rated by each
// seat's worth (worth). Two players play to win; solo, the player plays for points (a game lost by running out of
// tiles scores 0), and the evaluation is the expected score.
func (definition) Suggest(s *State, seat engine.Player, b engine.Budget) (engine.Plan[Move], error) {
	view := s.View(seat)
	unseen := view.unseen()
	deal := func(rng *rand.Rand) *State { return view.deal(unseen, rng) }
	g := searched{}
	if s.opts.Players == 1 {
		w := make([]float64, 1)
		view.worth(w)
		g.base = w[0]
	}
	r := search.MCTS[*State, Move](g, deal, seat, s.opts.Players, b, botLimits, true)
	if !r.Found {
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	plan := engine.Plan[Move]{Move: r.Move, PrincipalVariation: r.PrincipalVariation, Iterations: int64(r.Iterations)}
	switch {
	case r.Visits == 0:
	case s.opts.Players == 1:
		plan.Evaluation = &rulebookv1.Evaluation{ExpectedScore: g.base + (r.Value-0.5)*soloSpread}
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
		if engine.Player(i+1) != s.viewer && st.HandCount > 0 { // a hidden hand, nil or empty as the view was built
			st.Hand = take(st.HandCount)
			slices.Sort(st.Hand)
		}
	}
	return d
}

// botLimits keep the bot's tree one move deep, the seat's: a hundred placements or more a turn, and the other hand
// dealt anew each iteration, leave too few visits below the root to tell the other seat's replies apart in the time
// a bot has, and without that tree the bot runs twice the iterations (it played no weaker than with it, in the same
// tournaments). They widen the root progressively (2 x sqrt(visits)), for the same reason, and end playouts after 4
// moves of the policy (two each with two players), rated by Estimate. (Against the arena's group-greedy at 50 ms a
// move, on a loaded machine: playouts of 2 and 6 moves and a widening of 1/4 to 1 did no better, within the noise of
// 100 games.)
var botLimits = search.Limits{PlayoutDepth: 4, Widening: 2, MaxDepth: 1}

// estimateScale is the lead, in points, that Estimate rates about 0.73.
const estimateScale = 6

// sampleTries is how many random (position, tile, rotation) triples Sample tries before it gives up.
const sampleTries = 32

// searched is Micropul as package search plays it; base is the root's worth in a solo game.
type searched struct {
	search.Turns[*State, Move, Event]
	base float64
}

// Rewards gives, with two players, the winner 1 and the loser 0 (each 1/2 in a draw); solo, the points as solo
// rates them, 0 for a game lost.
func (g searched) Rewards(s *State, r []float64) {
	sc := s.Score()
	if len(r) == 1 {
		r[0] = 0
		if p := sc.Players[0]; !p.Lost {
			r[0] = g.solo(float64(p.Total))
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

// Estimate rates each seat by its worth: with two players by how far it leads the other's, solo scaled as Rewards
// does.
func (g searched) Estimate(s *State, r []float64) {
	s.worth(r)
	if len(r) == 1 {
		r[0] = g.solo(r[0])
		return
	}
	var worth [MaxPlayers]float64 // Leads reads every seat's worth while it writes r
	search.Leads(worth[:copy(worth[:], r)], estimateScale, r)
}

// solo returns the reward of a solo game's points: 1/2 at the root's worth, soloSpread points from 0 to 1.
func (g searched) solo(points float64) float64 {
	return min(max(0.5+(points-g.base)/soloSpread, 0), 1)
}

// Sample draws a move for a playout by the policy; with no candidate found, the playout draws from every legal move
// instead.
func (searched) Sample(s *State, rng *rand.Rand) (Move, bool) { return s.policy(rng) }

// samplePlacement draws a random placement of the player to move: a hand tile, turned at random, next to a random
// tile in play, in up to sampleTries tries.
func (s *State) samplePlacement(rng *rand.Rand) (Move, bool) {
	p := s.toMove
	hand := s.seats[p-1].Hand
	if len(hand) == 0 {
		return Move{}, false
	}
	for range sampleTries {
		at := s.board[rng.IntN(len(s.board))].At.add(step[rng.IntN(4)])
		if s.index.has(at) || !at.inRange() {
			continue
		}
		id, r := hand[rng.IntN(len(hand))], rng.IntN(4)
		if f := fitAt(orientations[id][r], at, s.lookup); f.touches && f.match && !f.conflict {
			return Move{Player: p, Action: PlaceTile, Tile: id, At: at, Rotation: canonicalRotation(id, r)}, true
		}
	}
	return Move{}, false
}
