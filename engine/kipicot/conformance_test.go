package kipicot_test

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/kipicot"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// maxPlies bounds a playout. With the anti-stall rule on, at most 2 x rounds turns pass between placements, each
// placement spends a token of a supply, and a turn has at most four steps.
func maxPlies(o kipicot.Options) int {
	return 4 * (2*o.AntiStallRounds + 1) * 2 * kipicot.TokensPerColor
}

// variants returns the options of each seed's game: every option in turn, the defaults first.
func variants(seed uint64) kipicot.Options {
	o := kipicot.DefaultOptions()
	switch seed % 4 {
	case 1:
		o.WholeStackMoves = true
	case 2:
		o.PawnMayStay, o.AntiStallRounds = true, 1
	case 3:
		o.EndThreshold, o.AntiStallRounds = 5, 2
	}
	return o
}

// TestConformance runs the shared conformance suite on the typed engine, over every variant of the options.
func TestConformance(t *testing.T) {
	t.Parallel()
	h := enginetest.Harness[*kipicot.State, kipicot.Move]{
		New:        func(seed uint64) (*kipicot.State, error) { return kipicot.New(variants(seed)) },
		Legal:      func(s *kipicot.State) []kipicot.Move { return s.Legal(s.ToMove()) },
		Candidates: candidates,
		Validate:   (*kipicot.State).Validate,
		Apply: func(s *kipicot.State, m kipicot.Move) (*kipicot.State, error) {
			next, _, err := s.Apply(m)
			return next, err
		},
		Over: (*kipicot.State).Over,
		Check: func(s *kipicot.State) error {
			if err := conserved(s); err != nil {
				return err
			}
			_, err := kipicot.FromProto(s.Proto())
			return err
		},
		Encode: func(s *kipicot.State) proto.Message { return s.Proto() },
		Decode: func(m proto.Message) (*kipicot.State, error) {
			return kipicot.FromProto(m.(*rulebookv1.KipicotState))
		},
		EncodeMove: func(m kipicot.Move) proto.Message { return m.Proto() },
		MaxPlies:   maxPlies(kipicot.DefaultOptions()),
		Playouts:   8,
		Players:    func(*kipicot.State) []engine.Player { return []engine.Player{1, 2} },
		View:       (*kipicot.State).View,
	}
	enginetest.Run(t, h)
}

// TestConformanceGame runs the suite on the engine.Game adapter, as the service drives it: envelopes in and out.
func TestConformanceGame(t *testing.T) {
	t.Parallel()
	h := enginetest.GameHarness(kipicot.Game{}, nil, func(s *rulebookv1.GameState) []*rulebookv1.Move {
		typed, err := kipicot.FromProto(s.GetKipicot())
		if err != nil {
			return nil
		}
		var moves []*rulebookv1.Move
		for _, m := range candidates(typed) {
			moves = append(moves, m.Proto())
		}
		// An envelope with no move, one with no Kipicot move, and a Kipicot move that holds nothing.
		return append(moves, nil, &rulebookv1.Move{Player: 1},
			&rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Kipicot{Kipicot: &rulebookv1.KipicotMove{}}})
	}, nil)
	h.MaxPlies, h.Playouts = maxPlies(kipicot.DefaultOptions()), 2
	enginetest.Run(t, h)
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
