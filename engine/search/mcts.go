// Package search holds the game-independent searches behind the engines' bots: Monte Carlo tree search, over one
// state or over deals of what a seat may not see (information-set MCTS), and alpha-beta. A search reads no clock:
// its budget's Stop does, and the search polls it. With the same seed, budget and states it makes the same choices.
package search

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

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
	// MaxDepth, when above 0, is the deepest the tree grows, in moves from the root: an iteration that reaches it
	// goes on by a playout. 0 grows it without bound.
	MaxDepth int
	// Widening, when above 0, widens the root progressively: its moves are rated once, before the first iteration,
	// by the seat's Estimate (or Rewards) of the state after each, and the root searches only the best-rated
	// 1 + ceil(Widening x sqrt(visits)) of them, best first. 0 searches every root move from the start, in a random
	// order.
	Widening float64
}

// Sampler is a Game that draws a random legal move more cheaply than Moves lists them all: playouts use Sample
// when the Game has it.
type Sampler[S any, M comparable] interface {
	// Sample returns a legal move of s's mover drawn with rng (not necessarily uniformly), or ok false when it
	// found none; the playout then draws from Moves.
	Sample(s S, rng *rand.Rand) (m M, ok bool)
}

// Exploration is UCT's constant for rewards in 0..1.
const Exploration = 0.7

// Result is what a search found for the seat at its root.
type Result[M any] struct {
	// Move is the root's most visited move (AlphaBeta's best); Found is false when the root had no legal move.
	Move  M
	Found bool
	// Value is the seat's mean reward after Move (a win probability, or a scaled score), over Visits playouts; in
	// AlphaBeta, the seat's value of the position (Visits is 0).
	Value  float64
	Visits int
	// PrincipalVariation is the most visited line from the root (AlphaBeta's best line), starting with Move.
	PrincipalVariation []M
	// Iterations is the number of playouts run (of nodes searched, in AlphaBeta); Nodes the size of MCTS's tree.
	Iterations, Nodes int
	// Depth is the depth of AlphaBeta's deepest round completed, Value's and the variation's; 0 for MCTS.
	Depth int
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
// deals, each move's statistics kept over the iterations in which it was legal). Seat's own moves at the root are
// listed once, from the first deal: they depend only on what seat sees. The principal variation stops before the
// first move of another seat when ownLine is set (in a game of hidden information, where the other seats' moves
// depend on what the deals guessed).
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
	rewards := make([]float64, seats)
	root := rootMoves(g, deal(rng), seat, limits.Widening, rewards, budget)
	res := Result[M]{Found: len(root) > 0}
	if !res.Found {
		return res
	}
	t := &tree[M]{nodes: make([]node[M], 1, min(maxNodes, 4096))}
	var moves, untried []M
	path := make([]int32, 0, 64)
	for budget.Iterations <= 0 || res.Iterations < budget.Iterations {
		if budget.Stopped() {
			break
		}
		s := deal(rng)
		n := int32(0)
		path = append(path[:0], 0)
		for limits.MaxDepth <= 0 || len(path) <= limits.MaxDepth {
			p := g.Mover(s)
			if p == engine.NoPlayer {
				break
			}
			if n == 0 {
				moves = append(moves[:0], root...)
			} else if moves = g.Moves(s, moves[:0]); len(moves) == 0 {
				break
			}
			untried = untried[:0]
			for _, m := range moves {
				if c := t.child(n, m); c >= 0 {
					t.nodes[c].avail++
				} else {
					untried = append(untried, m)
				}
			}
			var next M
			grow := false
			if n == 0 && limits.Widening > 0 {
				k := len(t.nodes[0].kids)
				if grow = k < len(root) && k < width(limits.Widening, t.nodes[0].visits); grow {
					next = root[k]
				}
			} else if grow = len(untried) > 0; grow {
				next = untried[rng.IntN(len(untried))]
			}
			if grow && len(t.nodes) < maxNodes {
				n = t.add(n, next, p)
				path = append(path, n)
				s = g.Play(s, next)
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
	b := t.best(0)
	if b < 0 || t.nodes[b].visits == 0 { // stopped before the first iteration's end: the first root move
		res.Move, res.PrincipalVariation = root[0], []M{root[0]}
		return res
	}
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

// rootMoves returns seat's moves in s, in Moves' order; with widening, best-rated first, each rated by seat's
// Estimate (or Rewards) of the state after it, equals in Moves' order. Rating polls budget's Stop every 8 moves; the
// moves not rated when it fires come last.
func rootMoves[S any, M comparable](g Game[S, M], s S, seat engine.Player, widening float64, r []float64,
	budget engine.Budget) []M {
	if g.Mover(s) != seat {
		return nil
	}
	moves := g.Moves(s, nil)
	if widening <= 0 {
		return moves
	}
	rating := make([]float64, len(moves))
	for i, m := range moves {
		if i%8 == 7 && budget.Stopped() {
			for j := i; j < len(moves); j++ {
				rating[j] = math.Inf(-1)
			}
			break
		}
		if next := g.Play(s, m); g.Mover(next) == engine.NoPlayer {
			g.Rewards(next, r)
		} else {
			g.Estimate(next, r)
		}
		rating[i] = r[seat-1]
	}
	order := make([]int, len(moves))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rating[b], rating[a]) })
	sorted := make([]M, len(moves))
	for i, k := range order {
		sorted[i] = moves[k]
	}
	return sorted
}

// width returns how many root moves a root visited visits times searches under progressive widening w.
func width(w float64, visits int32) int {
	return 1 + int(math.Ceil(w*math.Sqrt(float64(visits))))
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

// playout plays random moves from *s (drawn by the game's Sample if it is a Sampler, else from Moves) until the game
// is over (over), for at most maxPlayout moves, polling budget's Stop every 64 moves (stopped: the playout was
// abandoned).
func playout[S any, M comparable](g Game[S, M], s *S, rng *rand.Rand, moves *[]M, maxPlayout int,
	budget engine.Budget) (over, stopped bool) {
	sampler, _ := g.(Sampler[S, M])
	for ply := range maxPlayout {
		if ply%64 == 63 && budget.Stopped() {
			return false, true
		}
		if g.Mover(*s) == engine.NoPlayer {
			return true, false
		}
		if sampler != nil {
			if m, ok := sampler.Sample(*s, rng); ok {
				*s = g.Play(*s, m)
				continue
			}
		}
		*moves = g.Moves(*s, (*moves)[:0])
		if len(*moves) == 0 {
			return true, false
		}
		*s = g.Play(*s, (*moves)[rng.IntN(len(*moves))])
	}
	return g.Mover(*s) == engine.NoPlayer, false
}
