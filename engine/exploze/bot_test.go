package exploze

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// TestSuggestTakesTheWin checks that the bot plays the move that wins at once, in positions where other moves do
// not, with the opponents moving in turn and by best reply, within the default level's budget: two players, and four,
// where the winning chain takes the last cell of three opponents.
func TestSuggestTakesTheWin(t *testing.T) {
	for _, c := range []struct {
		name    string
		players int
		board   string
	}{
		{"two players", 2, "A1 .0 B1 | B1 A2 B1"},
		{"four players", 4, "A1 B1 .0 | C1 D1 .0"},
	} {
		s := position(t, c.players, 1, c.board)
		wins := 0
		for _, m := range s.Legal(1) {
			if next, _, err := s.Apply(m); err == nil && next.Winner() == 1 {
				wins++
			}
		}
		if wins == 0 || wins == len(s.Legal(1)) {
			t.Fatalf("%s: %d of the %d legal moves win: the position tests nothing", c.name, wins, len(s.Legal(1)))
		}
		for _, bestReply := range []bool{true, false} {
			b := engine.Budget{Level: engine.Medium, Iterations: engine.Iterations(Spec.Info(), engine.Medium), Seed: 1}
			plan, err := suggest(s, 1, b, bestReply)
			if err != nil {
				t.Fatal(err)
			}
			next, _, err := s.Apply(plan.Move)
			if err != nil || next.Winner() != 1 {
				t.Errorf("%s, best reply %v: suggested %v (%v), which does not win", c.name, bestReply, plan.Move, err)
			}
			if ev := plan.Evaluation.GetWinProbability(); ev < 0.5 {
				t.Errorf("%s, best reply %v: win probability %v of a won position", c.name, bestReply, ev)
			}
		}
	}
}

// TestSuggestIsDeterministic checks that the same budget gives the same suggestion, whatever its seed, and that the
// principal variation starts with the move and can be played in turn, in a four-player game of seeded random moves.
func TestSuggestIsDeterministic(t *testing.T) {
	s := newGame(t, Options{Rows: 6, Cols: 6, Players: 4})
	rng := rand.New(rand.NewPCG(1, 4))
	for range 30 {
		legal := s.Legal(s.ToMove())
		s, _ = play(t, s, coordOf(legal[rng.IntN(len(legal))]))
	}
	b := engine.Budget{Level: engine.Easy, Iterations: engine.Iterations(Spec.Info(), engine.Easy), Seed: 7}
	first, err := definition{}.Suggest(s, s.ToMove(), b)
	if err != nil {
		t.Fatal(err)
	}
	b.Seed = 8
	again, err := definition{}.Suggest(s, s.ToMove(), b)
	if err != nil {
		t.Fatal(err)
	}
	if first.Move != again.Move || !slices.Equal(first.PrincipalVariation, again.PrincipalVariation) ||
		first.Iterations != again.Iterations {
		t.Errorf("two searches of one budget: %v %v (%d nodes) and %v %v (%d nodes)", first.Move,
			first.PrincipalVariation, first.Iterations, again.Move, again.PrincipalVariation, again.Iterations)
	}
	if len(first.PrincipalVariation) == 0 || first.PrincipalVariation[0] != first.Move {
		t.Errorf("principal variation %v does not start with %v", first.PrincipalVariation, first.Move)
	}
	for _, m := range first.PrincipalVariation {
		if s, _, err = s.Apply(m); err != nil {
			t.Fatalf("principal variation %v: %v", first.PrincipalVariation, err)
		}
	}
}

// TestRivalsMoves checks the moves of each side: seat's own; in best-reply search every move of each opponent still
// in the game, and else the player to move's; each time the explosive ones (on a loaded cell) first.
func TestRivalsMoves(t *testing.T) {
	// Seat A; B is to move; C's edge cell and A's corner are loaded.
	s := arranged(t, 3, 2, "A1 B1 .0 | C2 .0 .0 | .0 .0 .0")
	for _, c := range []struct {
		name      string
		bestReply bool
		coalition bool
		want      string
	}{
		{"seat", true, false, "A(0,0) A(0,2) A(1,1) A(1,2) A(2,0) A(2,1) A(2,2)"},
		{"best reply", true, true, "C(1,0) B(0,1) B(0,2) B(1,1) B(1,2) B(2,0) B(2,1) B(2,2) " +
			"C(0,2) C(1,1) C(1,2) C(2,0) C(2,1) C(2,2)"},
		{"in turn", false, false, "B(0,1) B(0,2) B(1,1) B(1,2) B(2,0) B(2,1) B(2,2)"},
	} {
		r := &rivals{seat: 1, bestReply: c.bestReply, w: make([]float64, 3)}
		var got []string
		for _, m := range r.Moves(rivalState{s: s, coalition: c.coalition}, nil) {
			got = append(got, fmt.Sprintf("%s(%d,%d)", playerName(m.Player), m.Row, m.Col))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: moves %s, want %s", c.name, strings.Join(got, " "), c.want)
		}
	}
}

// TestWorth checks the positional worth of each player on arranged boards.
func TestWorth(t *testing.T) {
	for _, c := range []struct {
		board string
		want  []float64
	}{
		// A's loaded corner (1 + 3 + 2) and edge cell (1 + 2); B's inside cell (1) and loaded corner (1 + 3 + 2).
		{"A1 A1 .0 | .0 B1 .0 | .0 .0 B1", []float64{9, 7}},
		// Loaded cells side by side threaten each other: A's corner loses 5 - 2, B's edge cell 5 - 3.
		{"A1 B2 .0 | .0 .0 .0 | .0 .0 .0", []float64{-2, 0}},
		// A chain of three loaded cells, each unthreatened: corner 1 + 3 + 2, edge 2 + 2 + 2, 2 more each for the chain.
		{"A1 A2 A1 | .0 .0 .0 | .0 .0 B1", []float64{8 + 8 + 8, 6}},
	} {
		s := arranged(t, 2, 1, c.board)
		w := make([]float64, 2)
		s.worth(w)
		if !slices.Equal(w, c.want) {
			t.Errorf("%s: worth %v, want %v", c.board, w, c.want)
		}
	}
}

// TestMarginOf checks seat's margin on arranged boards of three players: its worth less the best opponent's and
// rivalWorth for each opponent still in the game.
func TestMarginOf(t *testing.T) {
	for _, c := range []struct {
		board  string
		worth  []float64
		margin float64
	}{
		{"A1 B1 | C1 .0", []float64{6, 3, 5}, 6 - 5 - 2*rivalWorth},
		{"A2 B1 | .0 .0", []float64{6, 3, 0}, 6 - 3 - rivalWorth}, // C is out
	} {
		s := arranged(t, 3, 1, c.board)
		want := 1 / (1 + math.Exp(-c.margin/worthScale))
		if got := s.marginOf(1, c.worth); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: %v, want %v (a margin of %v)", c.board, got, want, c.margin)
		}
	}
}
