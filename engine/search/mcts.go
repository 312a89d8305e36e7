// Package search holds the game-independent searches behind the engines' bots: Monte Carlo tree search, over one
// state or over deals of what a seat may not see (information-set MCTS), and alpha-beta. A search reads no clock:
// its budget's Stop does, and the search polls it. With the same seed, budget and states it makes the same choices.
package search

import (
	"math"
	"math/rand/v2"

	"github.com/rulebook/rulebook/engine"
)

// Game is a game as the searches play it: states S, never changed by Play, and moves M, told apart by ==.
type Game[S any, M comparable] interface {
	// Mover returns the player to move in s; NoPlayer once s is over.
	Mover(s S) engine.Player
	// Moves appends the legal moves of s's mover to moves and returns the extended slice, in a stable order.
	Moves(s S, moves []M) []M
	// Play returns s after m, a move Moves listed.
	Play(s S, m M) S
	// Rewards writes the reward of each seat of an over s into r (seat p's at r[p-1]): from 0 (a loss) to 1 (a win),
	// a draw 1/2; a solo game's score scaled to 0..1.
	Rewards(s S, r []float64)
	// Estimate writes into r, as Rewards does, each seat's expected reward of s, a state that goes on: the
	// heuristic that ends a playout of Limits.PlayoutDepth moves.
	Estimate(s S, r []float64)
}

// Limits bound a search's memory and its playouts; the zero value takes the defaults.
type Limits struct {
	// MaxNodes is the most nodes the tree grows (about 100 bytes each, and a move); 0 means 200,000.
	MaxNodes int
	// PlayoutDepth is the most random moves of one playout, after which the game's Estimate ends it; 0 means 5,000.
	PlayoutDepth int
}

// Exploration is UCT's constant for rewards in 0..1.
const Exploration = 0.7

// Result is what a search found for the seat at its root.
type Result[M any] struct {
	// Move is the root's most visited move; Found is false when the root had no legal move.
	Move  M
	Found bool
	// Value is the seat's mean reward after Move (a win probability, or a scaled score), over Visits playouts.
	Value  float64
	Visits int
	// PrincipalVariation is the most visited line from the root, starting with Move.
	PrincipalVariation []M
	// Iterations is the number of playouts run; Nodes the size of the tree.
	Iterations, Nodes int
}

// node is one move in the tree: the move that leads to it from its parent, made by player.
type node[M comparable] struct {
	move   M
	player engine.Player
	kids   []int32
	index  map[M]int32 // kids by move, once there are indexFrom of them
	visits int32
	avail  int32 // how often the move was legal when its parent was reached
	reward float64
}

// indexFrom is the number of children from which a node indexes them by move.
const indexFrom = 12

// tree is the search tree of MCTS: nodes[0] is the root.
type tree[M comparable] struct {
	nodes []node[M]
}

// child returns the child of n reached by m, or -1.
func (t *tree[M]) child(n int32, m M) int32 {
	nd := &t.nodes[n]
	if nd.index != nil {
		if c, ok := nd.index[m]; ok {
			return c
		}
		return -1
	}
	for _, c := range nd.kids {
		if t.nodes[c].move == m {
			return c
		}
	}
	return -1
}

// add appends a child of n reached by m, made by player, and returns it.
func (t *tree[M]) add(n int32, m M, player engine.Player) int32 {
	c := int32(len(t.nodes))
	t.nodes = append(t.nodes, node[M]{move: m, player: player, avail: 1})
	nd := &t.nodes[n]
	nd.kids = append(nd.kids, c)
	switch {
	case nd.index != nil:
		nd.index[m] = c
	case len(nd.kids) == indexFrom:
		nd.index = make(map[M]int32, 2*indexFrom)
		for _, k := range nd.kids {
			nd.index[t.nodes[k].move] = k
		}
	}
	return c
}

// best returns n's most visited child (the first one added among equals), or -1 if it has none.
func (t *tree[M]) best(n int32) int32 {
	best := int32(-1)
	for _, c := range t.nodes[n].kids {
		if best < 0 || t.nodes[c].visits > t.nodes[best].visits {
			best = c
		}
	}
	return best
}

// MCTS searches for the move of seat, who moves at the root, by Monte Carlo tree search with random playouts, within
// budget and limits. Each iteration plays from deal(rng): the root state itself in a game of perfect information,
// or a deal of everything seat may not see, consistent with what it sees (information-set MCTS: one tree over the
// deals, each move's statistics kept over the iterations in which it was legal). The principal variation stops
// before the first move of another seat when ownLine is set (in a game of hidden information, where the other
// seats' moves depend on what the deals guessed).
func MCTS[S any, M comparable](g Game[S, M], deal func(rng *rand.Rand) S, seat engine.Player, seats int,
	budget engine.Budget, limits Limits, ownLine bool) Result[M] {
	maxNodes, maxPlayout := limits.MaxNodes, limits.PlayoutDepth
	if maxNodes <= 0 {
		maxNodes = 200000
	}
	if maxPlayout <= 0 {
		maxPlayout = 5000
	}
	rng := rand.New(rand.NewPCG(budget.Seed, 0x6d637473))
	t := &tree[M]{nodes: make([]node[M], 1, min(maxNodes, 4096))}
	rewards := make([]float64, seats)
	var moves, untried []M
	path := make([]int32, 0, 64)
	res := Result[M]{}
	var first M
	for budget.Iterations <= 0 || res.Iterations < budget.Iterations {
		if budget.Stopped() {
			break
		}
		s := deal(rng)
		n := int32(0)
		path = append(path[:0], 0)
		for {
			p := g.Mover(s)
			if p == engine.NoPlayer {
				break
			}
			moves = g.Moves(s, moves[:0])
			if len(moves) == 0 {
				break
			}
			if n == 0 && !res.Found {
				first, res.Found = moves[0], true
			}
			untried = untried[:0]
			for _, m := range moves {
				if c := t.child(n, m); c >= 0 {
					t.nodes[c].avail++
				} else {
					untried = append(untried, m)
				}
			}
			if len(untried) > 0 && len(t.nodes) < maxNodes {
				m := untried[rng.IntN(len(untried))]
				n = t.add(n, m, p)
				path = append(path, n)
				s = g.Play(s, m)
				break
			}
			c := t.selectChild(n, moves)
			if c < 0 { // every legal move untried and no room to grow: play on from here
				break
			}
			n = c
			path = append(path, n)
			s = g.Play(s, t.nodes[n].move)
		}
		over, stopped := playout(g, &s, rng, &moves, maxPlayout, budget)
		if stopped {
			break
		}
		if over {
			g.Rewards(s, rewards)
		} else {
			g.Estimate(s, rewards)
		}
		t.nodes[0].visits++
		for _, k := range path[1:] {
			nd := &t.nodes[k]
			nd.visits++
			nd.reward += rewards[nd.player-1]
		}
		res.Iterations++
	}
	res.Nodes = len(t.nodes)
	if b := t.best(0); b >= 0 {
		nd := t.nodes[b]
		res.Move, res.Value, res.Visits = nd.move, nd.reward/float64(nd.visits), int(nd.visits)
		for n := b; n >= 0 && t.nodes[n].visits > 0; n = t.best(n) {
			if ownLine && t.nodes[n].player != seat {
				break
			}
			res.PrincipalVariation = append(res.PrincipalVariation, t.nodes[n].move)
		}
		return res
	}
	if !res.Found { // stopped before the first iteration: the first legal move
		if s := deal(rng); g.Mover(s) != engine.NoPlayer {
			if moves = g.Moves(s, moves[:0]); len(moves) > 0 {
				first, res.Found = moves[0], true
			}
		}
	}
	if res.Found {
		res.Move, res.PrincipalVariation = first, []M{first}
	}
	return res
}

// selectChild returns the child of n, among those reached by moves (legal now), with the highest upper confidence
// bound; -1 if none is in the tree.
func (t *tree[M]) selectChild(n int32, moves []M) int32 {
	best, bestScore := int32(-1), math.Inf(-1)
	for _, m := range moves {
		c := t.child(n, m)
		if c < 0 {
			continue
		}
		nd := &t.nodes[c]
		v := float64(nd.visits)
		score := math.Inf(1)
		if v > 0 {
			score = nd.reward/v + Exploration*math.Sqrt(math.Log(float64(nd.avail))/v)
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// Leads writes into r, for an Estimate, each seat's reward by how far its points lead the best of the others'
// (points[p-1] being seat p's): a logistic curve of the lead, 1/2 for none and about 0.73 for a lead of scale points.
func Leads(points []float64, scale float64, r []float64) {
	for i, own := range points {
		best := math.Inf(-1)
		for j, other := range points {
			if j != i {
				best = max(best, other)
			}
		}
		r[i] = 1 / (1 + math.Exp(-(own-best)/scale))
	}
}

// playout plays random moves from *s until the game is over (over), for at most maxPlayout moves, polling budget's
// Stop every 64 moves (stopped: the playout was abandoned).
func playout[S any, M comparable](g Game[S, M], s *S, rng *rand.Rand, moves *[]M, maxPlayout int,
	budget engine.Budget) (over, stopped bool) {
	for ply := range maxPlayout {
		if ply%64 == 63 && budget.Stopped() {
			return false, true
		}
		if g.Mover(*s) == engine.NoPlayer {
			return true, false
		}
		*moves = g.Moves(*s, (*moves)[:0])
		if len(*moves) == 0 {
			return true, false
		}
		*s = g.Play(*s, (*moves)[rng.IntN(len(*moves))])
	}
	return g.Mover(*s) == engine.NoPlayer, false
}
