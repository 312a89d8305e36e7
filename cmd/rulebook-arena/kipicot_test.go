package main

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/kipicot"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// kipicotAt returns the Kipicot position with board (in the notation of kipicot.ParseBoard), player 1 at step 1,
// nothing caught and every other token in the supply.
func kipicotAt(t *testing.T, board string) engine.Position {
	t.Helper()
	squares, err := kipicot.ParseBoard(board)
	if err != nil {
		t.Fatal(err)
	}
	// Each token is one letter of the notation.
	p := kipicot.Parts{ToMove: 1, Phase: kipicot.PhaseOptionalMove, Board: squares,
		SupplyRed:    kipicot.TokensPerColor - strings.Count(board, "r"),
		SupplyYellow: kipicot.TokensPerColor - strings.Count(board, "y")}
	s, err := kipicot.NewState(kipicot.DefaultOptions(), p)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := kipicot.Spec.Decode(&rulebookv1.GameState{Game: &rulebookv1.GameState_Kipicot{Kipicot: s.Proto()}})
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// TestTurnGreedy plays whole turns of turn-greedy in arranged positions, one call a step as the arena does, and
// checks what each turn catches and the most it leaves the opponent (the position after the turn is the same for
// every choice when the opponent can catch nothing).
func TestTurnGreedy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		board string
		catch int
		left  int // the most player 2 may then catch
	}{
		// A fishing square of four singles (4 tokens) and one of four stacks (8).
		{"the biggest catch", "r y . . . | y r . . . | . . r1 . . | y2 . . ry yr | . . . yr ry", 8, 4},
		// A block with one empty square, which player 1 fills and fishes.
		{"a catch made", "r y . . . | y . . . . | . . r1 . . | . . . . . | y2 . . . .", 4, 0},
		// Nothing to catch, and nothing player 2 can catch after any turn.
		{"nothing", "r . . . . | . . . . . | . . r1 . . | . . . . . | y2 . . . .", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(4) {
				g := &turnGreedy{rng: rand.New(rand.NewPCG(seed, 1))}
				at := kipicotAt(t, tc.board)
				for steps := 0; at.ToMove()[0] == 1; steps++ {
					m, err := g.choose(at, 1)
					if err != nil || steps == kipicot.MaxTurnSteps {
						t.Fatalf("step %d: %v, %v", steps, m, err)
					}
					if at, _, err = at.Apply(m); err != nil {
						t.Fatal(err)
					}
				}
				if got := points(at.Score(), 1); got != tc.catch {
					t.Errorf("seed %d: caught %d, want %d", seed, got, tc.catch)
				}
				if left, err := bestKipicotCatch(at, -1); err != nil || left > tc.left {
					t.Errorf("seed %d: left player 2 a catch of %d (%v), want at most %d", seed, left, err, tc.left)
				}
			}
		})
	}
}
