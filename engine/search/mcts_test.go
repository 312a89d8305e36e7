package search

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// nim is a position of Nim: a pile of stones and the player to take 1 to 3 of them (or to the game's take); who
// takes the last one wins. The player to move loses exactly when the pile is a multiple of 4 (of take + 1), so the
// best move leaves one.
type nim struct {
	pile   int
	toMove engine.Player
}

// nimGame is Nim as the searches play it, taking at most take stones (0: 3). Its Estimate rates the mover by the rule
// above (or, inverted, the wrong way round, a trap for a shallow search), or (blind) 1/2 for all.
type nimGame struct {
	blind, inverted bool // inverted: Estimate rates the mover the wrong way round
	take            int
}

// most returns the most stones a move takes.
func (g nimGame) most() int {
	if g.take == 0 {
		return 3
	}
	return g.take
}

func (nimGame) Mover(s nim) engine.Player {
	if s.pile == 0 {
		return engine.NoPlayer
	}
	return s.toMove
}

func (g nimGame) Moves(s nim, moves []int) []int {
	for k := 1; k <= min(g.most(), s.pile); k++ {
		moves = append(moves, k)
	}
	return moves
}

func (nimGame) Play(s nim, k int) nim { return nim{s.pile - k, 3 - s.toMove} }

// Rewards gives the win to the player who took the last stone: the one not to move.
func (nimGame) Rewards(s nim, r []float64) {
	r[s.toMove-1], r[2-s.toMove] = 0, 1
}

func (g nimGame) Estimate(s nim, r []float64) {
	mover := 0.5
	if !g.blind {
		mover = 0.9
		if s.pile%(g.most()+1) == 0 != g.inverted {
			mover = 0.1
		}
	}
	r[s.toMove-1], r[2-s.toMove] = mover, 1-mover
}

// sampledNim is nimGame with Sample, which always takes one stone and counts its draws.
type sampledNim struct {
	nimGame
	sampled *int
}

func (g sampledNim) Sample(s nim, _ *rand.Rand) (int, bool) {
	*g.sampled++
	return 1, true
}

// fixed returns a deal of s itself, as a game of perfect information deals.
func fixed(s nim) func(*rand.Rand) nim { return func(*rand.Rand) nim { return s } }

// TestMCTSFindsTheWin checks that the search finds the move that leaves the other player a multiple of 4, within a
// budget, with random playouts to the end, widened or not.
func TestMCTSFindsTheWin(t *testing.T) {
	cases := []struct {
		name       string
		game       nimGame
		pile, want int
		limits     Limits
	}{
		{"5 playouts to the end", nimGame{blind: true}, 5, 1, Limits{}},
		{"6 playouts to the end", nimGame{blind: true}, 6, 2, Limits{}},
		{"7 playouts to the end", nimGame{blind: true}, 7, 3, Limits{}},
		{"10 playouts to the end", nimGame{blind: true}, 10, 2, Limits{}},
		{"13 playouts to the end", nimGame{blind: true}, 13, 1, Limits{}},
		{"10 widened", nimGame{blind: true}, 10, 2, Limits{Widening: 1}},
		{"14 widened, rated", nimGame{}, 14, 2, Limits{Widening: 0.5}},
		{"16, take 1 to 5, widened and rated", nimGame{take: 5}, 16, 4, Limits{Widening: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := range uint64(3) {
				s := nim{c.pile, 1}
				r := MCTS[nim, int](c.game, fixed(s), 1, 2, engine.Budget{Iterations: 10000, Seed: seed}, c.limits, false)
				if !r.Found || r.Move != c.want {
					t.Fatalf("seed %d: took %d (found %v), want %d", seed, r.Move, r.Found, c.want)
				}
				if r.Iterations != 10000 || r.Visits == 0 || r.Value <= 0.5 {
					t.Errorf("seed %d: %d iterations, %d visits, value %.2f: want 10000, some, a win", seed,
						r.Iterations, r.Visits, r.Value)
				}
				if len(r.PrincipalVariation) == 0 || r.PrincipalVariation[0] != r.Move {
					t.Errorf("seed %d: principal variation %v does not start with %d", seed, r.PrincipalVariation, r.Move)
				}
			}
		})
	}
}

// TestMCTSLosingSide checks the value of a lost position: every move leaves the other player a win.
func TestMCTSLosingSide(t *testing.T) {
	r := MCTS[nim, int](nimGame{blind: true}, fixed(nim{8, 2}), 2, 2, engine.Budget{Iterations: 3000, Seed: 1},
		Limits{}, false)
	if !r.Found || r.Value >= 0.5 {
		t.Errorf("%+v: want a move valued below 1/2", r)
	}
}

// TestMCTSDeterministic checks that a seed gives the same search, over one state and over random deals.
func TestMCTSDeterministic(t *testing.T) {
	deals := func(rng *rand.Rand) nim { return nim{9 + rng.IntN(4), 1} } // a pile the seat cannot count
	for _, widening := range []float64{0, 1} {
		for seed := range uint64(4) {
			limits := Limits{Widening: widening}
			budget := engine.Budget{Iterations: 500, Seed: seed}
			a := MCTS[nim, int](nimGame{blind: true}, fixed(nim{14, 1}), 1, 2, budget, limits, false)
			b := MCTS[nim, int](nimGame{blind: true}, fixed(nim{14, 1}), 1, 2, budget, limits, false)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("widening %v, seed %d: %+v, then %+v", widening, seed, a, b)
			}
			a = MCTS[nim, int](nimGame{blind: true}, deals, 1, 2, budget, limits, true)
			b = MCTS[nim, int](nimGame{blind: true}, deals, 1, 2, budget, limits, true)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("deals, widening %v, seed %d: %+v, then %+v", widening, seed, a, b)
			}
			if len(a.PrincipalVariation) != 1 {
				t.Errorf("deals, seed %d: principal variation %v: want the seat's own move alone", seed,
					a.PrincipalVariation)
			}
		}
	}
}

// TestMCTSNodeCap checks that the tree grows no larger than MaxNodes and that the search goes on without growing it.
func TestMCTSNodeCap(t *testing.T) {
	for _, maxNodes := range []int{1, 2, 10, 100} {
		r := MCTS[nim, int](nimGame{blind: true}, fixed(nim{30, 1}), 1, 2, engine.Budget{Iterations: 2000, Seed: 1},
			Limits{MaxNodes: maxNodes}, false)
		if r.Nodes > maxNodes || r.Iterations != 2000 || !r.Found {
			t.Errorf("MaxNodes %d: %d nodes, %d iterations, found %v: want at most %d nodes, 2000 iterations, a move",
				maxNodes, r.Nodes, r.Iterations, r.Found, maxNodes)
		}
	}
}

// TestMCTSMaxDepth checks that the tree grows no deeper than MaxDepth moves: with 3 moves a position, at most
// 1 + 3 + ... + 3^depth nodes, and the principal variation as long as the depth at most.
func TestMCTSMaxDepth(t *testing.T) {
	for _, c := range []struct{ depth, maxNodes int }{{1, 4}, {2, 13}, {3, 40}} {
		r := MCTS[nim, int](nimGame{blind: true}, fixed(nim{30, 1}), 1, 2, engine.Budget{Iterations: 2000, Seed: 1},
			Limits{MaxDepth: c.depth}, false)
		if r.Nodes != c.maxNodes || len(r.PrincipalVariation) > c.depth || r.Iterations != 2000 {
			t.Errorf("MaxDepth %d: %d nodes, principal variation %v, %d iterations: want %d nodes, at most %d moves, "+
				"2000 iterations", c.depth, r.Nodes, r.PrincipalVariation, r.Iterations, c.maxNodes, c.depth)
		}
	}
}

// TestMCTSStop checks that the search polls Stop and ends when it fires: before the first iteration (answering the
// first root move, or with widening the best rated, with no visits), after some, while rating a widened root's moves
// (the unrated ones last), and inside a long playout (which does not count).
func TestMCTSStop(t *testing.T) {
	cases := []struct {
		name      string
		game      nimGame
		pile      int
		polls     int // Stop fires on this poll (counting from 1)
		limits    Limits
		iters     int
		wantFirst int // with no iteration run, the move answered
	}{
		{"at once", nimGame{}, 10, 1, Limits{}, 0, 1},
		{"at once, widened", nimGame{}, 10, 1, Limits{Widening: 1}, 0, 2},
		{"after 50 iterations", nimGame{}, 10, 51, Limits{}, 50, 0},
		{"rating a widened root", nimGame{take: 12}, 20, 1, Limits{Widening: 1}, 0, 7},
		{"rating a widened root, the winning move unrated", nimGame{take: 12}, 22, 1, Limits{Widening: 1}, 0, 1},
		{"in a playout", nimGame{}, 500, 2, Limits{}, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			polls := 0
			stop := func() bool { polls++; return polls >= c.polls }
			r := MCTS[nim, int](c.game, fixed(nim{c.pile, 1}), 1, 2, engine.Budget{Stop: stop, Seed: 1}, c.limits, false)
			if !r.Found || r.Iterations != c.iters {
				t.Fatalf("%d iterations (found %v), want %d", r.Iterations, r.Found, c.iters)
			}
			if polls > c.polls+1 {
				t.Errorf("Stop polled %d times, though it fired on poll %d", polls, c.polls)
			}
			if r.Iterations == 0 && (r.Move != c.wantFirst || r.Visits != 0 ||
				!reflect.DeepEqual(r.PrincipalVariation, []int{c.wantFirst})) {
				t.Errorf("stopped at once: %+v, want move %d alone, no visits", r, c.wantFirst)
			}
		})
	}
}

// TestMCTSNoMove checks that a seat not to move, or a game over, finds no move.
func TestMCTSNoMove(t *testing.T) {
	for _, s := range []nim{{0, 1}, {5, 2}} {
		if r := MCTS[nim, int](nimGame{}, fixed(s), 1, 2, engine.Budget{Iterations: 10}, Limits{}, false); r.Found {
			t.Errorf("%+v: found %+v", s, r)
		}
	}
}

// TestMCTSSampler checks that playouts draw their moves from a Sampler's Sample when the game has one.
func TestMCTSSampler(t *testing.T) {
	sampled := 0
	g := sampledNim{nimGame{blind: true}, &sampled}
	r := MCTS[nim, int](g, fixed(nim{12, 1}), 1, 2, engine.Budget{Iterations: 100, Seed: 1}, Limits{}, false)
	if !r.Found || sampled == 0 {
		t.Errorf("found %v, %d moves sampled: want a move and playouts sampled", r.Found, sampled)
	}
}

// TestLeads checks the logistic rating of leads.
func TestLeads(t *testing.T) {
	logistic := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	cases := []struct {
		points []float64
		scale  float64
		want   []float64
	}{
		{[]float64{3, 3}, 2, []float64{0.5, 0.5}},
		{[]float64{5, 3}, 2, []float64{logistic(1), logistic(-1)}},
		{[]float64{1, 7, 4}, 3, []float64{logistic(-2), logistic(1), logistic(-1)}},
		{[]float64{10}, 1, []float64{1}}, // no other seat: an infinite lead
	}
	for _, c := range cases {
		r := make([]float64, len(c.points))
		Leads(c.points, c.scale, r)
		for i := range r {
			if math.Abs(r[i]-c.want[i]) > 1e-12 {
				t.Errorf("Leads(%v, %v) = %v, want %v", c.points, c.scale, r, c.want)
				break
			}
		}
	}
}
