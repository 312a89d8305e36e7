package search

import (
	"reflect"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// TestAlphaBetaFindsTheWin checks that alpha-beta finds the move that leaves the other player a multiple of 4 (of
// take + 1): searching the whole game when the budget allows it, and out of a misleading Estimate's trap once it
// searches deep enough; with a budget too small for that, it falls into the trap.
func TestAlphaBetaFindsTheWin(t *testing.T) {
	cases := []struct {
		name       string
		game       nimGame
		pile       int
		iterations int
		want       int
		wantValue  float64 // 0: not checked
	}{
		{"5, the whole game", nimGame{blind: true}, 5, 0, 1, 1},
		{"10, the whole game", nimGame{blind: true}, 10, 0, 2, 1},
		{"11, rated", nimGame{}, 11, 0, 3, 0},
		{"9, take 1 to 5, rated", nimGame{take: 5}, 9, 0, 3, 0},
		{"7, inverted, the whole game", nimGame{inverted: true}, 7, 0, 3, 1},
		{"7, inverted, one ply: the trap", nimGame{inverted: true}, 7, 4, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := AlphaBeta[nim, int](c.game, nim{c.pile, 1}, 1, engine.Budget{Iterations: c.iterations})
			if !r.Found || r.Move != c.want {
				t.Fatalf("took %d (found %v), want %d: %+v", r.Move, r.Found, c.want, r)
			}
			if c.wantValue != 0 && r.Value != c.wantValue {
				t.Errorf("value %v, want %v", r.Value, c.wantValue)
			}
			if r.Depth == 0 || len(r.PrincipalVariation) == 0 || r.PrincipalVariation[0] != r.Move {
				t.Errorf("depth %d, principal variation %v: want a round and a line starting with %d", r.Depth,
					r.PrincipalVariation, r.Move)
			}
			if c.iterations > 0 && r.Iterations > c.iterations {
				t.Errorf("%d nodes searched, budget %d", r.Iterations, c.iterations)
			}
		})
	}
}

// TestAlphaBetaLosingSide checks the value of a lost position searched to the end, and that of the other seat.
func TestAlphaBetaLosingSide(t *testing.T) {
	r := AlphaBeta[nim, int](nimGame{blind: true}, nim{8, 2}, 2, engine.Budget{})
	if !r.Found || r.Value != 0 {
		t.Errorf("%+v: want a move valued 0", r)
	}
}

// TestAlphaBetaDeterministic checks that the same budget gives the same search, and that a budget of nodes holds.
func TestAlphaBetaDeterministic(t *testing.T) {
	for _, n := range []int{1, 10, 100, 1000} {
		a := AlphaBeta[nim, int](nimGame{take: 5}, nim{40, 1}, 1, engine.Budget{Iterations: n})
		b := AlphaBeta[nim, int](nimGame{take: 5}, nim{40, 1}, 1, engine.Budget{Iterations: n})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%d nodes: %+v, then %+v", n, a, b)
		}
		if !a.Found || a.Iterations > n {
			t.Errorf("%d nodes: %+v: want a move within the budget", n, a)
		}
	}
}

// TestAlphaBetaStop checks that Stop ends the search: at once (the first legal move, no round), and after some
// rounds (the deepest completed round's move).
func TestAlphaBetaStop(t *testing.T) {
	r := AlphaBeta[nim, int](nimGame{}, nim{43, 1}, 1, engine.Budget{Stop: func() bool { return true }})
	if !r.Found || r.Move != 1 || r.Depth != 0 || r.Iterations != 0 ||
		!reflect.DeepEqual(r.PrincipalVariation, []int{1}) {
		t.Errorf("stopped at once: %+v, want the first move alone, no node searched", r)
	}
	polls := 0
	r = AlphaBeta[nim, int](nimGame{}, nim{43, 1}, 1, engine.Budget{Stop: func() bool { polls++; return polls >= 20 }})
	if !r.Found || r.Depth == 0 || r.Iterations > 20*64 || r.Move != 3 {
		t.Errorf("stopped on the 20th poll: %+v, want the winning move 3 of a completed round, at most 1,280 nodes", r)
	}
}

// TestAlphaBetaNoMove checks that a seat not to move, or a game over, finds no move.
func TestAlphaBetaNoMove(t *testing.T) {
	for _, s := range []nim{{0, 1}, {5, 2}} {
		if r := AlphaBeta[nim, int](nimGame{}, s, 1, engine.Budget{}); r.Found {
			t.Errorf("%+v: found %+v", s, r)
		}
	}
}
