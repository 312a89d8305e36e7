package exploze

import (
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// TestSuggestTakesTheWin checks that both searches of the bot play the move that wins at once, in a position where
// other moves do not, within the default level's budget.
func TestSuggestTakesTheWin(t *testing.T) {
	s := position(t, 2, 1, "A1 .0 B1 | B1 A2 B1")
	wins := 0
	for _, m := range s.Legal(1) {
		if next, _, err := s.Apply(m); err == nil && next.Winner() == 1 {
			wins++
		}
	}
	if wins == 0 || wins == len(s.Legal(1)) {
		t.Fatalf("%d of the %d legal moves win: the position tests nothing", wins, len(s.Legal(1)))
	}
	for _, alphaBeta := range []bool{true, false} {
		b := engine.Budget{Level: engine.Medium, Iterations: engine.Medium.Iterations(), Seed: 1}
		plan, err := suggest(s, 1, b, alphaBeta)
		if err != nil {
			t.Fatal(err)
		}
		next, _, err := s.Apply(plan.Move)
		if err != nil || next.Winner() != 1 {
			t.Errorf("alpha-beta %v: suggested %v (%v), which does not win", alphaBeta, plan.Move, err)
		}
		if ev := plan.Evaluation.GetWinProbability(); ev < 0.5 {
			t.Errorf("alpha-beta %v: win probability %v of a won position", alphaBeta, ev)
		}
	}
}
