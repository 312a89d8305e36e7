package kipicot

import (
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
)

// TestTurn checks composite moves: a whole turn in one move, a turn that starts mid-turn, and the errors that name
// the failing step.
func TestTurn(t *testing.T) {
	board := "r y . . . | . . . . . | . . . . . | . . . . . | . . . . ."
	s := position(t, DefaultOptions(), 1, PhaseOptionalMove, board, fishedOnce...)
	turn := []Step{mv(0, 1, 1, 1), place(Red, 0, 1), pawn(0, 1)}
	next, events, err := s.Apply(Move{Player: 1, Turn: turn})
	if err != nil {
		t.Fatal(err)
	}
	stepwise, stepEvents := play(t, s, turn...)
	if next.Board() != stepwise.Board() || next.ToMove() != 2 || !slices.Equal(enginetest.Strings(events), enginetest.Strings(stepEvents)) {
		t.Errorf("the turn gave %q %q, step by step %q %q", next.Board(), enginetest.Strings(events), stepwise.Board(),
			enginetest.Strings(stepEvents))
	}
	mid, _ := play(t, s, skip())
	if _, _, err := mid.Apply(Move{Player: 1, Turn: []Step{place(Red, 2, 2), pawn(2, 2)}}); err != nil {
		t.Errorf("a turn from step 2: %v", err)
	}

	for _, c := range []struct {
		name   string
		m      Move
		kind   engine.Kind
		reason string
		field  string
	}{
		{"a step refused", Move{Player: 1, Turn: []Step{skip(), place(Red, 0, 0), pawn(0, 0)}}, engine.Illegal,
			ReasonStackNeedsOtherColor, "kipicot.turn.steps[1]"},
		{"a step in the wrong phase", Move{Player: 1, Turn: []Step{skip(), skip()}}, engine.Illegal,
			ReasonWrongPhase, "kipicot.turn.steps[1]"},
		{"incomplete", Move{Player: 1, Turn: []Step{skip(), place(Red, 2, 2)}}, engine.Illegal,
			ReasonTurnIncomplete, "kipicot.turn"},
		{"a step after the end", Move{Player: 1, Turn: []Step{skip(), place(Red, 2, 2), pawn(2, 2), skip()}},
			engine.Illegal, ReasonTurnAlreadyOver, "kipicot.turn.steps[3]"},
		{"empty", Move{Player: 1, Turn: []Step{}}, engine.Invalid, ReasonTurnEmpty, "kipicot.turn.steps"},
		{"too long", Move{Player: 1, Turn: make([]Step, 5)}, engine.Invalid, ReasonTurnTooLong, "kipicot.turn.steps"},
		{"a step missing", Move{Player: 1, Turn: []Step{skip(), {}}}, engine.Invalid, ReasonStepMissing,
			"kipicot.turn.steps[1]"},
		{"a malformed step", Move{Player: 1, Turn: []Step{skip(), place(Red, 7, 0)}}, engine.Invalid,
			ReasonSquareOffBoard, "kipicot.turn.steps[1].place.to.row"},
		{"no step", Move{Player: 1}, engine.Invalid, ReasonStepMissing, "kipicot"},
		{"player out of range", Move{Player: 3, Step: skip()}, engine.Invalid, ReasonPlayerOutOfRange, "player"},
		{"not your turn", Move{Player: 2, Turn: []Step{skip()}}, engine.Illegal, ReasonNotYourTurn, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := s.Apply(c.m)
			enginetest.WantError(t, err, c.kind, c.reason, c.field)
			if verr := s.Validate(c.m); verr == nil || verr.Error() != err.Error() {
				t.Errorf("Validate says %v, Apply %v", verr, err)
			}
			if e, _ := engine.AsError(err); c.kind == engine.Illegal && c.field != "" && c.reason != ReasonTurnIncomplete &&
				e.Facts["step"] == "" {
				t.Errorf("the error of a step has no step fact: %v", e.Facts)
			}
		})
	}
}

// TestLegalOrder checks the documented order of Legal in each phase, and that the other player has no move.
func TestLegalOrder(t *testing.T) {
	s := position(t, DefaultOptions(), 1, PhaseOptionalMove, "r1 ry . . . | . . . . . | . . . . . | . . . . . | . . . . y2")
	var got []string
	for _, m := range s.Legal(1) {
		got = append(got, m.Step.String())
	}
	want := []string{"skip", "b1-c1", "b1-d1", "b1-e1", "b1-b2", "b1-b3", "b1-b4", "b1-b5"}
	if !slices.Equal(got, want) {
		t.Errorf("step 1: %q, want %q", got, want)
	}
	if len(s.Legal(2)) != 0 || len(s.Legal(engine.NoPlayer)) != 0 {
		t.Error("a player who is not to move has moves")
	}
	s, _ = play(t, s, skip())
	got = got[:0]
	for _, m := range s.Legal(1)[:4] {
		got = append(got, m.Step.String())
	}
	if want := []string{"r c1", "y c1", "r d1", "y d1"}; !slices.Equal(got, want) {
		t.Errorf("step 2 starts %q, want %q", got, want)
	}
	if last := s.Legal(1); last[len(last)-1].Step.String() != "b1-b5" {
		t.Errorf("step 2 ends with %v", last[len(last)-1])
	}
}
