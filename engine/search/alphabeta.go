package search

import (
	"math"
	"slices"

	"github.com/rulebook/rulebook/engine"
)

// maxDepth is the deepest round of AlphaBeta.
const maxDepth = 64

// AlphaBeta searches for the move of seat, who moves in s, a state of a two-player game of perfect information whose
// two rewards sum to 1 (in Rewards, and in Estimate, which rates the states at the depth of a round): iterative
// deepening minimax with alpha-beta pruning, one ply deeper each round, each round searching the line the last one
// found first. Every node searched is an iteration of budget; Stop is polled before each round and every 64 nodes. It answers the best move
// of the deepest round it completed, with its value for seat and its line (Depth is that round's depth), and stops
// early once a round saw the whole game; stopped before the end of the first round, it answers the first legal move
// (Depth 0).
func AlphaBeta[S any, M comparable](g Game[S, M], s S, seat engine.Player, budget engine.Budget) Result[M] {
	res := Result[M]{}
	if g.Mover(s) != seat {
		return res
	}
	first := g.Moves(s, nil)
	if len(first) == 0 {
		return res
	}
	res.Found, res.Move, res.PrincipalVariation = true, first[0], []M{first[0]}
	a := &alphaBeta[S, M]{g: g, seat: seat, budget: budget, rewards: make([]float64, 2)}
	for depth := 1; depth <= maxDepth && !budget.Stopped(); depth++ {
		a.cut = false
		v := a.search(s, depth, 0, math.Inf(-1), math.Inf(1), true)
		if a.stopped {
			break
		}
		res.Move, res.Value, res.Depth = a.pv[0][0], v, depth
		res.PrincipalVariation = slices.Clone(a.pv[0])
		a.line = res.PrincipalVariation
		if !a.cut {
			break
		}
	}
	res.Iterations = a.nodes
	return res
}

// alphaBeta is one AlphaBeta search: its game, seat and budget, and what the rounds share.
type alphaBeta[S any, M comparable] struct {
	g       Game[S, M]
	seat    engine.Player
	budget  engine.Budget
	rewards []float64
	nodes   int
	stopped bool
	// cut is set when the round rated a state that goes on (the round did not see the whole game).
	cut bool
	// moves and pv are per ply: the moves of the node searched there, and the best line from it.
	moves, pv [maxDepth + 1][]M
	// line is the last round's best line, searched first.
	line []M
}

// search returns seat's value of s, searched depth plies deeper, within (alpha, beta): seat's moves maximize it and
// the other player's minimize it. It leaves the best line from s in a.pv[ply]. onLine is set while the path from the
// root follows a.line. Once the search is stopped its values mean nothing.
func (a *alphaBeta[S, M]) search(s S, depth, ply int, alpha, beta float64, onLine bool) float64 {
	a.pv[ply] = a.pv[ply][:0]
	if a.stopped || a.budget.Iterations > 0 && a.nodes >= a.budget.Iterations ||
		a.nodes%64 == 63 && a.budget.Stopped() {
		a.stopped = true
		return 0
	}
	a.nodes++
	p := a.g.Mover(s)
	if p == engine.NoPlayer {
		a.g.Rewards(s, a.rewards)
		return a.rewards[a.seat-1]
	}
	var moves []M
	if depth > 0 {
		moves = a.g.Moves(s, a.moves[ply][:0])
		a.moves[ply] = moves
	}
	if len(moves) == 0 {
		a.cut = true
		a.g.Estimate(s, a.rewards)
		return a.rewards[a.seat-1]
	}
	if onLine && ply < len(a.line) {
		if k := slices.Index(moves, a.line[ply]); k > 0 {
			moves[0], moves[k] = moves[k], moves[0]
		} else if k < 0 {
			onLine = false
		}
	}
	maximize := p == a.seat
	best := math.Inf(1)
	if maximize {
		best = math.Inf(-1)
	}
	for i, m := range moves {
		v := a.search(a.g.Play(s, m), depth-1, ply+1, alpha, beta, onLine && i == 0)
		if a.stopped {
			return 0
		}
		if maximize && v > best || !maximize && v < best {
			best = v
			a.pv[ply] = append(append(a.pv[ply][:0], m), a.pv[ply+1]...)
		}
		if maximize {
			alpha = max(alpha, v)
		} else {
			beta = min(beta, v)
		}
		if alpha >= beta {
			break
		}
	}
	return best
}
