package kipicot_test

import (
	"fmt"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/kipicot"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestConformance runs the conformance suite over every variant of the options, the defaults first.
func TestConformance(t *testing.T) {
	enginetest.Run(t, kipicot.Spec, battery, enginetest.ChosenDepth(t))
}

// battery is what the conformance suite needs to know of Kipicot beyond its spec.
var battery = enginetest.Battery[*kipicot.State, kipicot.Move]{
	Setups: []enginetest.Setup{
		setup("default", kipicot.DefaultOptions()),
		setup("wholeStack", kipicot.Options{WholeStackMoves: true, AntiStallRounds: kipicot.DefaultAntiStallRounds}),
		setup("pawnMayStay-stall1", kipicot.Options{PawnMayStay: true, AntiStallRounds: 1}),
		setup("threshold5-stall2", kipicot.Options{EndThreshold: 5, AntiStallRounds: 2}),
	},
	Candidates: candidates,
	Check:      conserved,
}

// setup returns the setup of a game with opts, worth two playouts.
func setup(name string, opts kipicot.Options) enginetest.Setup {
	return enginetest.Setup{Name: name, Playouts: 2,
		Options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Kipicot{Kipicot: opts.Proto()}}}
}

// conserved returns an error unless supply, board and catches hold 20 tokens of each colour: 40 in all.
func conserved(s *kipicot.State) error {
	total := 0
	for _, c := range []kipicot.Color{kipicot.Red, kipicot.Yellow} {
		n := s.Supply(c)
		for r := range kipicot.Size {
			for col := range kipicot.Size {
				q := s.Square(r, col)
				if q.Bottom == c {
					n++
				}
				if q.Top == c {
					n++
				}
			}
		}
		for p := engine.Player(1); p <= kipicot.Players; p++ {
			caught := s.Caught(p)
			n += map[kipicot.Color]int{kipicot.Red: caught.Red, kipicot.Yellow: caught.Yellow}[c]
		}
		if n != kipicot.TokensPerColor {
			return fmt.Errorf("%d %v tokens in supply, board and catches, want %d", n, c, kipicot.TokensPerColor)
		}
		total += n
	}
	if total != 2*kipicot.TokensPerColor {
		return fmt.Errorf("%d tokens, want 40", total)
	}
	return nil
}

// candidates returns moves to probe, legal or not, for both players: skip; every placement of both colours; every
// token move along rows and columns (the only moves that can be legal) plus a diagonal one; every pawn target; every
// block; a few whole turns; and malformed moves.
func candidates(s *kipicot.State) []kipicot.Move {
	to := max(s.ToMove(), 1)
	var moves []kipicot.Move
	add := func(st kipicot.Step) { moves = append(moves, kipicot.Move{Player: to, Step: st}) }
	add(kipicot.Step{Kind: kipicot.StepSkip})
	for r := range kipicot.Size {
		for c := range kipicot.Size {
			at := kipicot.Coord{Row: r, Col: c}
			add(kipicot.Step{Kind: kipicot.StepPlace, Color: kipicot.Red, To: at})
			add(kipicot.Step{Kind: kipicot.StepPlace, Color: kipicot.Yellow, To: at})
			add(kipicot.Step{Kind: kipicot.StepPawn, To: at})
			if r < kipicot.Size-1 && c < kipicot.Size-1 {
				add(kipicot.Step{Kind: kipicot.StepFish, To: at})
				add(kipicot.Step{Kind: kipicot.StepMoveToken, From: at, To: kipicot.Coord{Row: r + 1, Col: c + 1}})
			}
			if s.Square(r, c).Empty() {
				continue
			}
			for k := range kipicot.Size {
				add(kipicot.Step{Kind: kipicot.StepMoveToken, From: at, To: kipicot.Coord{Row: r, Col: k}})
				add(kipicot.Step{Kind: kipicot.StepMoveToken, From: at, To: kipicot.Coord{Row: k, Col: c}})
			}
		}
	}
	// Whole turns, which Legal never lists (it lists the steps of the phase), so only refused ones: a legal step of
	// each phase chained to the end of the turn, then cut short or with a step too many.
	var turn []kipicot.Step
	for next := s; len(turn) < 4; {
		legal := next.Legal(to)
		if len(legal) == 0 {
			break
		}
		turn = append(turn, legal[len(legal)/2].Step)
		var err error
		if next, _, err = next.Apply(legal[len(legal)/2]); err != nil {
			break
		}
	}
	if len(turn) > 0 {
		moves = append(moves, kipicot.Move{Player: to, Turn: turn[:len(turn)-1]},
			kipicot.Move{Player: to, Turn: append(append([]kipicot.Step{}, turn...), kipicot.Step{Kind: kipicot.StepSkip})})
	}
	return append(moves,
		kipicot.Move{Player: 3 - to, Step: kipicot.Step{Kind: kipicot.StepSkip}},
		kipicot.Move{Player: 3 - to, Step: kipicot.Step{Kind: kipicot.StepPawn, To: kipicot.Coord{Row: 2, Col: 2}}},
		kipicot.Move{Player: engine.NoPlayer, Step: kipicot.Step{Kind: kipicot.StepSkip}},
		kipicot.Move{Player: 3, Step: kipicot.Step{Kind: kipicot.StepSkip}},
		kipicot.Move{Player: to},
		kipicot.Move{Player: to, Turn: []kipicot.Step{}},
		kipicot.Move{Player: to, Step: kipicot.Step{Kind: kipicot.StepPlace, Color: 7}},
		kipicot.Move{Player: to, Step: kipicot.Step{Kind: kipicot.StepPawn, To: kipicot.Coord{Row: -1}}},
		kipicot.Move{Player: to, Step: kipicot.Step{Kind: kipicot.StepMoveToken, To: kipicot.Coord{Col: 5}}},
		kipicot.Move{Player: to, Step: kipicot.Step{Kind: kipicot.StepFish, To: kipicot.Coord{Row: 4}}},
	)
}
