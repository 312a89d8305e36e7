package kipicot

import (
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// position returns the state with the board given in notation, toMove to move in phase, and the supply holding every
// token that is neither on the board nor in caught (A's catch, then B's). It fails t if the position is refused.
func position(t testing.TB, opts Options, toMove engine.Player, phase Phase, board string, caught ...Catch) *State {
	t.Helper()
	s, err := positionErr(opts, toMove, phase, board, caught...)
	if err != nil {
		t.Fatalf("position %q: %v", board, err)
	}
	return s
}

// positionErr is position returning NewState's error.
func positionErr(opts Options, toMove engine.Player, phase Phase, board string, caught ...Catch) (*State, error) {
	squares, err := ParseBoard(board)
	if err != nil {
		return nil, err
	}
	p := Parts{ToMove: toMove, Phase: phase, Board: squares, SupplyRed: TokensPerColor, SupplyYellow: TokensPerColor}
	copy(p.Caught[:], caught)
	for _, c := range p.Caught {
		p.SupplyRed -= c.Red
		p.SupplyYellow -= c.Yellow
	}
	for _, q := range squares {
		for _, c := range []Color{q.Bottom, q.Top} {
			switch c {
			case Red:
				p.SupplyRed--
			case Yellow:
				p.SupplyYellow--
			}
		}
	}
	return NewState(opts, p)
}

// withIdle returns s with the anti-stall count set to n, failing t if NewState refuses it.
func withIdle(t testing.TB, s *State, n int) *State {
	t.Helper()
	p := s.Parts()
	p.TurnsWithoutPlacement = n
	next, err := NewState(s.opts, p)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// play applies the steps in turn from s, each as a move of the player to move, and returns the last state and the
// events of all the steps. It fails t on any refusal.
func play(t testing.TB, s *State, steps ...Step) (*State, []Event) {
	t.Helper()
	var events []Event
	for _, st := range steps {
		m := Move{Player: s.ToMove(), Step: st}
		next, ev, err := s.Apply(m)
		if err != nil {
			t.Fatalf("%v: %v\n%v", m, err, s)
		}
		s, events = next, append(events, ev...)
	}
	return s, events
}

// newGame returns the start of a game with opts, failing t on an error.
func newGame(t testing.TB, opts Options) *State {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Steps, for short.
func skip() Step { return Step{Kind: StepSkip} }
func mv(fr, fc, tr, tc int) Step {
	return Step{Kind: StepMoveToken, From: Coord{fr, fc}, To: Coord{tr, tc}}
}
func place(c Color, r, col int) Step {
	return Step{Kind: StepPlace, Color: c, To: Coord{r, col}}
}
func pawn(r, c int) Step { return Step{Kind: StepPawn, To: Coord{r, c}} }
func fish(r, c int) Step { return Step{Kind: StepFish, To: Coord{r, c}} }
