package kipicot

import (
	"math"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestEdgeStacking covers each condition of stacking in step 2: only on a lone token of the other colour that
// carries no pawn (of either player), never on a stack, with or without a pawn.
func TestEdgeStacking(t *testing.T) {
	board := "r y1 ry yr2 . | y r . . . | . . . . . | . . . . . | . . . . ."
	runRules(t, []ruleCase{
		{name: "yellow on a lone red", phase: PhaseAction, board: board, steps: []Step{place(Yellow, 0, 0)},
			wantBoard:  "ry y1 ry yr2 . | y r . . . | . . . . . | . . . . . | . . . . .",
			wantEvents: []string{"A stacked yellow on red at (0,0)"}},
		{name: "red on a lone yellow", phase: PhaseAction, board: board, steps: []Step{place(Red, 1, 0)},
			wantBoard: "r y1 ry yr2 . | yr r . . . | . . . . . | . . . . . | . . . . ."},
		{name: "on a lone yellow carrying the mover's pawn", phase: PhaseAction, board: board,
			steps: []Step{place(Red, 0, 1)}, reason: ReasonTokenFrozen},
		{name: "on a lone red carrying the opponent's pawn", phase: PhaseAction,
			board: "r2 y1 . . . | . . . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{place(Yellow, 0, 0)}, reason: ReasonTokenFrozen},
		{name: "on a stack, other colour than the top", phase: PhaseAction, board: board, steps: []Step{place(Red, 0, 2)},
			reason: ReasonStackFull},
		{name: "on a stack, same colour as the top", phase: PhaseAction, board: board, steps: []Step{place(Yellow, 0, 2)},
			reason: ReasonStackFull},
		{name: "on a stack carrying a pawn", phase: PhaseAction, board: board, steps: []Step{place(Red, 0, 3)},
			reason: ReasonStackFull},
		{name: "same colour on a lone token", phase: PhaseAction, board: board, steps: []Step{place(Yellow, 1, 0)},
			reason: ReasonStackNeedsOtherColor},
	})
	// Legal lists exactly the placements the rules allow.
	s := position(t, DefaultOptions(), 1, PhaseAction, board)
	var got []string
	for _, m := range s.Legal(1) {
		if m.Kind == StepPlace && (m.To.Row < 2) {
			got = append(got, m.Step.String())
		}
	}
	want := []string{"y a1", "r e1", "y e1", "r a2", "y b2", "r c2", "y c2", "r d2", "y d2", "r e2", "y e2"}
	if !slices.Equal(got, want) {
		t.Errorf("placements on rows 0-1: %q, want %q", got, want)
	}
}

// TestEdgeMoving covers token moves: stack tops and whole stacks jumping pawns and stacks, frozen tokens of either
// player, and moves that would make a stack.
func TestEdgeMoving(t *testing.T) {
	board := "ry r2 yr1 . . | . . . . . | y . . . . | . . . . . | . . . . ."
	whole := DefaultOptions()
	whole.WholeStackMoves = true
	runRules(t, []ruleCase{
		{name: "stack top jumps a pawned single and a pawned stack", phase: PhaseAction, board: board,
			steps:     []Step{mv(0, 0, 0, 3)},
			wantBoard: "r r2 yr1 y . | . . . . . | y . . . . | . . . . . | . . . . ."},
		{name: "stack top to the far end of its column", phase: PhaseAction, board: board,
			steps:     []Step{mv(0, 0, 4, 0)},
			wantBoard: "r r2 yr1 . . | . . . . . | y . . . . | . . . . . | y . . . ."},
		{name: "whole stack jumps pawns", opts: &whole, phase: PhaseAction, board: board,
			steps:     []Step{mv(0, 0, 0, 4)},
			wantBoard: ". r2 yr1 . ry | . . . . . | y . . . . | . . . . . | . . . . ."},
		{name: "whole stack onto a single", opts: &whole, phase: PhaseAction, board: board,
			steps: []Step{mv(0, 0, 2, 0)}, reason: ReasonDestinationOccupied},
		{name: "stack top onto a single", phase: PhaseAction, board: board,
			steps: []Step{mv(0, 0, 2, 0)}, reason: ReasonDestinationOccupied},
		{name: "single onto a stack", phase: PhaseAction,
			board: "ry r . . . | . . . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{mv(0, 1, 0, 0)}, reason: ReasonDestinationOccupied},
		{name: "single carrying the opponent's pawn", phase: PhaseOptionalMove, board: board,
			steps: []Step{mv(0, 1, 1, 1)}, reason: ReasonTokenFrozen},
		{name: "stack top carrying the mover's pawn", phase: PhaseOptionalMove, board: board,
			steps: []Step{mv(0, 2, 3, 2)}, reason: ReasonTokenFrozen},
		{name: "whole stack carrying a pawn", opts: &whole, phase: PhaseAction, board: board,
			steps: []Step{mv(0, 2, 3, 2)}, reason: ReasonTokenFrozen},
		{name: "whole stack, one square", opts: &whole, phase: PhaseAction, board: board,
			steps:     []Step{mv(0, 0, 1, 0)},
			wantBoard: ". r2 yr1 . . | ry . . . . | y . . . . | . . . . . | . . . . ."},
		{name: "step 1 moves a stack top, step 2 moves it on", phase: PhaseOptionalMove, board: board,
			steps:     []Step{mv(0, 0, 1, 0), mv(1, 0, 1, 1)},
			wantBoard: "r r2 yr1 . . | . y . . . | y . . . . | . . . . . | . . . . .", wantPhase: PhasePawn},
		{name: "step 1 moves the top, step 2 the bottom left behind", phase: PhaseOptionalMove, board: board,
			steps:     []Step{mv(0, 0, 4, 0), mv(0, 0, 1, 0)},
			wantBoard: ". r2 yr1 . . | r . . . . | y . . . . | . . . . . | y . . . .", wantPhase: PhasePawn},
	})
	// No legal move ever leaves a frozen square or ends on an occupied one.
	for _, opts := range []Options{DefaultOptions(), whole} {
		s := position(t, opts, 1, PhaseOptionalMove, board)
		for _, m := range s.Legal(1) {
			if m.Kind != StepMoveToken {
				continue
			}
			if from := s.Square(m.From.Row, m.From.Col); from.Pawn != engine.NoPlayer || from.Empty() {
				t.Errorf("legal move %v leaves %v", m, from)
			}
			if !s.Square(m.To.Row, m.To.Col).Empty() {
				t.Errorf("legal move %v ends on a token", m)
			}
		}
	}
}

// TestEdgePawn covers the pawn step: onto stacks and either colour, back from off the board after fishing, and the
// pawn that must change token.
func TestEdgePawn(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "onto a stack", phase: PhasePawn, board: "ry . . . . | . . . . . | . . . . . | . . . . . | . . . . y2",
			steps:     []Step{pawn(0, 0)},
			wantBoard: "ry1 . . . . | . . . . . | . . . . . | . . . . . | . . . . y2"},
		{name: "onto a stack carrying the opponent's pawn", phase: PhasePawn,
			board: "ry2 r . . . | . . . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{pawn(0, 0)}, reason: ReasonPawnTargetTaken},
		{name: "staying on a stack", phase: PhasePawn,
			board: "ry1 r . . . | . . . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{pawn(0, 0)}, reason: ReasonPawnMustMove},
	})
	// A pawn that fished comes back in its player's next step 3.
	s := position(t, DefaultOptions(), 1, PhasePawn, "r y . . . | y r . . . | . . . . . | . . . . . | . . . . y2",
		fishedOnce...)
	s, events := play(t, s, pawn(0, 0))
	if _, on := s.Pawn(1); on || s.Caught(1).Total() != fishedOnce[0].Total()+4 {
		t.Fatalf("after fishing the pawn is on the board or the catch is %v: %q", s.Caught(1), enginetest.Strings(events))
	}
	supplyR, supplyY := s.Supply(Red), s.Supply(Yellow)
	s, _ = play(t, s, skip(), place(Red, 2, 2), pawn(2, 2)) // B's turn
	if s.Supply(Red) != supplyR-1 || s.Supply(Yellow) != supplyY {
		t.Errorf("caught tokens returned to the supply: %dr %dy, want %dr %dy", s.Supply(Red), s.Supply(Yellow),
			supplyR-1, supplyY)
	}
	s, _ = play(t, s, skip(), place(Yellow, 3, 3))
	var targets []string
	for _, m := range s.Legal(1) {
		targets = append(targets, m.Step.String())
	}
	if want := []string{"pawn d4", "pawn e5"}; !slices.Equal(targets, want) {
		t.Errorf("targets of a pawn coming back: %q, want %q", targets, want)
	}
	_, events = play(t, s, pawn(4, 4))
	if want := []string{"A pawn off-(4,4)"}; !slices.Equal(enginetest.Strings(events), want) {
		t.Errorf("events %q, want %q", enginetest.Strings(events), want)
	}
}

// TestEdgeFishing covers the odd cases of fishing squares.
func TestEdgeFishing(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "opponent's stack beside stays, with both its tokens", phase: PhasePawn,
			board: "r yr2 . . . | r r . . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1)},
			wantBoard:  ". yr2 . . . | . . . . . | . . . . . | . . . . . | . . . . .",
			wantEvents: []string{"A pawn off-(1,1)", "A fished at (0,0): took (0,0) (1,0) (1,1), 3 red 0 yellow"}},
		{name: "mover's pawn on a stack: both tokens taken", phase: PhasePawn,
			board: "ry y . . . | y y . . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(0, 0)},
			wantBoard:  empty,
			wantEvents: []string{"A pawn off-(0,0)", "A fished at (0,0): took (0,0) (0,1) (1,0) (1,1), 1 red 4 yellow"}},
		{name: "colour is the top token's, not the bottom's", phase: PhasePawn,
			board: "ry r . . . | r r . . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(0, 1)},
			wantEvents: []string{"A pawn off-(0,1)"}},
		{name: "checkered by tops over bottoms of the other colour", phase: PhasePawn,
			board: "yr ry . . . | y r . . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1)},
			wantBoard:  empty,
			wantEvents: []string{"A pawn off-(1,1)", "A fished at (0,0): took (0,0) (0,1) (1,0) (1,1), 3 red 3 yellow"}},
		{name: "opponent opposite in one block, the other block is automatic", phase: PhasePawn,
			board: "r2 r r . . | r r r . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1)},
			wantBoard:  "r2 . . . . | r . . . . | . . . . . | . . . . . | . . . . .",
			wantEvents: []string{"A pawn off-(1,1)", "A fished at (0,1): took (0,1) (0,2) (1,1) (1,2), 4 red 0 yellow"}},
		{name: "opponent opposite, mover on a corner square of the board", phase: PhasePawn,
			board: ". . . . . | . . . . . | . . . . . | . . . y y2 | . . . y y", steps: []Step{pawn(4, 3)},
			wantEvents: []string{"A pawn off-(4,3)"}},
		{name: "four blocks around the pawn: a choice among them", phase: PhasePawn,
			board: "r r r . . | r r r . . | r r r . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1)},
			wantPhase:  PhaseFishing,
			wantEvents: []string{"A pawn off-(1,1)", "A chooses a fishing square: (0,0) (0,1) (1,0) (1,1)"}},
		{name: "one capture per turn", phase: PhasePawn,
			board: "r r r . . | r r r . . | r r r . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1), fish(1, 0)},
			wantBoard: "r r r . . | . . r . . | . . r . . | . . . . . | . . . . .", wantPhase: PhaseOptionalMove},
		{name: "a block made in step 2 away from the pawn catches nothing", phase: PhaseAction,
			board: "r r . . . | r . . . . | . . . . . | . . . . . | . . . . y", steps: []Step{place(Red, 1, 1), pawn(4, 4)},
			wantBoard: "r r . . . | r r . . . | . . . . . | . . . . . | . . . . y1"},
		{name: "fishing only for the mover, not the opponent", phase: PhasePawn,
			board: "r r2 . . . | r r . . . | . . . . . | . . . . . | . . . . y",
			steps: []Step{pawn(4, 4)}, wantBoard: "r r2 . . . | r r . . . | . . . . . | . . . . . | . . . . y1"},
	})
	// The fishing choice, refused: a block without the pawn.
	s := position(t, DefaultOptions(), 1, PhasePawn, "r r r r . | r r r r . | . . . . . | . . . . . | . . . . .",
		fishedOnce...)
	s, _ = play(t, s, pawn(1, 1))
	_, _, err := s.Apply(Move{Player: 1, Step: fish(0, 2)})
	enginetest.WantError(t, err, engine.Illegal, ReasonNotAFishingSquare, "")
	if err := reviewConserved(s); err != nil {
		t.Error(err)
	}
}

// reviewConserved returns an error unless supply, board and catches hold 20 tokens of each colour.
func reviewConserved(s *State) error {
	p := s.Parts()
	_, err := NewState(s.opts, p)
	for _, c := range []Color{Red, Yellow} {
		if n := s.supply[c] + s.onBoard(c) + s.caught[1][c] + s.caught[2][c]; n != TokensPerColor {
			return engine.Invalidf(ReasonTokenCountMismatch, "", map[string]string{}, "%d %v tokens", n, c)
		}
	}
	return err
}

// TestEdgeAntiStall checks the exact count: five idle turns leave moves free, the sixth forces a placement; a
// move in step 1 neither counts nor resets; one round forces after two turns; 0 turns the rule off.
func TestEdgeAntiStall(t *testing.T) {
	board := "ry . . . . | . . . . . | . . . . . | . . . . . | r . . . y"
	for _, c := range []struct {
		rounds, idle int
		required     bool
	}{{3, 5, false}, {3, 6, true}, {1, 1, false}, {1, 2, true}, {10, 19, false}, {10, 20, true}, {0, 0, false}} {
		opts := DefaultOptions()
		opts.AntiStallRounds = c.rounds
		s := withIdle(t, position(t, opts, 1, PhaseOptionalMove, board, fishedOnce...), c.idle)
		if s.PlacementRequired() != c.required {
			t.Errorf("rounds %d, count %d: required %v", c.rounds, c.idle, s.PlacementRequired())
		}
		// Step 1 is free either way and leaves the count alone.
		s, _ = play(t, s, mv(0, 0, 0, 2))
		if s.TurnsWithoutPlacement() != c.idle {
			t.Errorf("rounds %d: step 1 changed the count to %d", c.rounds, s.TurnsWithoutPlacement())
		}
		_, _, err := s.Apply(Move{Player: 1, Step: mv(0, 2, 0, 3)})
		if c.required {
			enginetest.WantError(t, err, engine.Illegal, ReasonPlacementRequired, "")
			if legal := s.Legal(1); len(legal) == 0 {
				t.Errorf("rounds %d: no placement when one is required", c.rounds)
			}
			continue
		}
		if err != nil {
			t.Errorf("rounds %d, count %d: a move in step 2 refused: %v", c.rounds, c.idle, err)
		}
	}
	// A full board with pawns on two singles and the count at its limit: a placement is still possible.
	full := "ry ry ry ry ry | ry ry ry ry ry | ry ry ry r r | r1 r2 r r y | y y y y y"
	s := withIdle(t, position(t, DefaultOptions(), 1, PhaseAction, full), 6)
	if legal := s.Legal(1); len(legal) != 10 || legal[0].Step.String() != "y d3" {
		t.Errorf("legal moves on a full board %v", legal)
	}
}

// TestEdgeEnd checks the end: the last red token is placed, the fishing choice of that turn still happens, then
// the game ends and the biggest catch wins.
func TestEdgeEnd(t *testing.T) {
	board := "r y r . . | y . y . . | . . . . . | r r r r r | r r r r r"
	s := position(t, DefaultOptions(), 1, PhaseAction, board, Catch{Yellow: 3}, Catch{Red: 7, Yellow: 1})
	if s.Supply(Red) != 1 {
		t.Fatalf("red supply %d", s.Supply(Red))
	}
	s, _ = play(t, s, place(Red, 1, 1), pawn(1, 1))
	if s.Phase() != PhaseFishing || s.Supply(Red) != 0 || s.Over() {
		t.Fatalf("the last turn does not reach its fishing choice:\n%v", s)
	}
	s, events := play(t, s, fish(0, 1))
	want := []string{"A fished at (0,1): took (0,1) (0,2) (1,1) (1,2), 2 red 2 yellow", "game over: B wins"}
	if !slices.Equal(enginetest.Strings(events), want) || !s.Over() {
		t.Errorf("events %q, want %q", enginetest.Strings(events), want)
	}
	if err := reviewConserved(s); err != nil {
		t.Error(err)
	}
}

// TestEdgeTurnStepFact checks that the error of a turn's step carries the step's index as the fact "step", for
// every reason, including WRONG_PHASE, whose own facts name the kind of step.
func TestEdgeTurnStepFact(t *testing.T) {
	s := position(t, DefaultOptions(), 1, PhaseOptionalMove, "r y . . . | . . . . . | . . . . . | . . . . . | . . . . .",
		fishedOnce...)
	for _, c := range []struct {
		name   string
		turn   []Step
		reason string
		step   string
	}{
		{"wrong phase", []Step{skip(), skip()}, ReasonWrongPhase, "1"},
		{"wrong phase first", []Step{pawn(0, 0)}, ReasonWrongPhase, "0"},
		{"a refused placement", []Step{skip(), place(Red, 0, 0)}, ReasonStackNeedsOtherColor, "1"},
		{"a refused pawn", []Step{mv(0, 0, 1, 0), place(Red, 0, 0), pawn(4, 4)}, ReasonPawnTargetEmpty, "2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := s.Apply(Move{Player: 1, Turn: c.turn})
			enginetest.WantError(t, err, engine.Illegal, c.reason, "kipicot.turn.steps["+c.step+"]")
			if e, _ := engine.AsError(err); e == nil || e.Facts["step"] != c.step {
				t.Errorf("fact step %q, want %q (%v)", e.Facts["step"], c.step, e.Facts)
			}
		})
	}
}

// TestEdgeTurnAtomic checks that a turn refused at its last step leaves the state as it was, and that a turn
// begun step by step can be finished by a composite move that then refuses a step too many.
func TestEdgeTurnAtomic(t *testing.T) {
	s := position(t, DefaultOptions(), 1, PhaseOptionalMove, "r y . . . | . . . . . | . . . . . | . . . . . | y . . . r2",
		fishedOnce...)
	before, wire := *s, s.Proto()
	for _, turn := range [][]Step{
		{mv(0, 0, 1, 0), place(Yellow, 1, 0), pawn(4, 4)},
		{mv(0, 0, 1, 0), place(Yellow, 1, 0), pawn(1, 0), skip()},
		{mv(0, 0, 1, 0), place(Yellow, 1, 0)},
	} {
		if _, _, err := s.Apply(Move{Player: 1, Turn: turn}); err == nil {
			t.Errorf("turn %v applied", turn)
		}
		if *s != before || !proto.Equal(s.Proto(), wire) {
			t.Fatalf("a refused turn changed the state:\n%v", s)
		}
	}
	mid, _ := play(t, s, mv(0, 0, 1, 0), place(Yellow, 1, 0))
	if _, _, err := mid.Apply(Move{Player: 1, Turn: []Step{pawn(1, 0)}}); err != nil {
		t.Errorf("finishing a turn with a composite move: %v", err)
	}
	_, _, err := mid.Apply(Move{Player: 1, Turn: []Step{pawn(1, 0), pawn(0, 1)}})
	enginetest.WantError(t, err, engine.Illegal, ReasonTurnAlreadyOver, "kipicot.turn.steps[1]")
}

// TestEdgeUnreachable checks that NewState refuses states no play reaches: the supply only shrinks in step 2, by
// one token a turn, so a game ends with exactly one supply at the end threshold; the pawn step and the fishing choice
// never see a supply below it, nor both at it; the last turn placed, so a game over has no idle turns; a turn whose
// step 2 moved leaves both supplies above the threshold; a catch is made of at least three tokens; and a turn whose
// pawn stands in a fishing square at its end would have fished.
func TestEdgeUnreachable(t *testing.T) {
	t2 := DefaultOptions()
	t2.EndThreshold = 2
	over := func(opts Options, red, yellow int, idle int) Parts {
		p := Parts{Phase: PhaseOver, SupplyRed: red, SupplyYellow: yellow, TurnsWithoutPlacement: idle}
		p.Caught[0] = Catch{Red: TokensPerColor - red}
		p.Caught[1] = Catch{Yellow: TokensPerColor - yellow}
		return p
	}
	pawnPhase := func(red, yellow, idle int) Parts {
		p := over(DefaultOptions(), red, yellow, idle)
		p.Phase, p.ToMove = PhasePawn, 1
		p.Board[0] = Square{Bottom: Red}
		p.Caught[0].Red--
		return p
	}
	for _, c := range []struct {
		name   string
		opts   Options
		parts  Parts
		reason string // "" when accepted
		field  string
	}{
		{"over, one supply at the threshold", DefaultOptions(), over(DefaultOptions(), 0, 5, 0), "", ""},
		{"over, both supplies empty", DefaultOptions(), over(DefaultOptions(), 0, 0, 0), ReasonPhaseInconsistent, "phase"},
		{"over, one supply below the threshold", t2, over(t2, 1, 5, 0), ReasonPhaseInconsistent, "phase"},
		{"over, both at the threshold", t2, over(t2, 2, 2, 0), ReasonPhaseInconsistent, "phase"},
		{"over with idle turns", DefaultOptions(), over(DefaultOptions(), 0, 5, 3), ReasonStallCountOutOfRange,
			"turnsWithoutPlacement"},
		{"pawn step, one supply at the threshold", DefaultOptions(), pawnPhase(0, 5, 0), "", ""},
		{"pawn step, both supplies at the threshold", DefaultOptions(), pawnPhase(0, 0, 0), ReasonPhaseInconsistent,
			"phase"},
		{"pawn step, a supply below the threshold", t2, pawnPhase(1, 5, 0), ReasonPhaseInconsistent, "phase"},
		{"pawn step after a move, a supply at the threshold", DefaultOptions(), pawnPhase(0, 5, 2),
			ReasonStallCountOutOfRange, "turnsWithoutPlacement"},
		{"pawn step after a move, supplies above", DefaultOptions(), pawnPhase(1, 5, 2), "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewState(c.opts, c.parts)
			if c.reason == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			enginetest.WantError(t, err, engine.Invalid, c.reason, c.field)
		})
	}
	// Catches of one or two tokens.
	for _, catch := range []Catch{{Red: 1}, {Yellow: 2}, {Red: 1, Yellow: 1}} {
		_, err := positionErr(DefaultOptions(), 1, PhaseOptionalMove, empty, Catch{}, catch)
		enginetest.WantError(t, err, engine.Invalid, ReasonCountOutOfRange, "-")
	}
	if _, err := positionErr(DefaultOptions(), 1, PhaseOptionalMove, empty, Catch{Red: 2, Yellow: 1}, Catch{Yellow: 3}); err != nil {
		t.Errorf("a catch of three refused: %v", err)
	}
	// B's pawn ended B's turn in a fishing square of B's: B would have fished.
	fishy := "r r2 . . . | r r . . . | . . . . . | . . . . . | . . . . ."
	_, err := positionErr(DefaultOptions(), 1, PhaseOptionalMove, fishy, fishedOnce...)
	enginetest.WantError(t, err, engine.Invalid, ReasonPhaseInconsistent, "phase")
	for _, phase := range []Phase{PhaseAction, PhasePawn} { // step 1 may have made the block
		if _, err := positionErr(DefaultOptions(), 1, phase, fishy, fishedOnce...); err != nil {
			t.Errorf("phase %v: %v", phase, err)
		}
	}
	if _, err := positionErr(DefaultOptions(), 2, PhaseOptionalMove, fishy, fishedOnce...); err != nil {
		t.Errorf("the mover's own fishing square at the start of the turn: %v", err)
	}
}

// TestEdgePawnOffBoard checks that a pawn is off the board only before its player's first pawn step or after a
// catch: player 1's in turn 1, player 2's in turns 1 and 2 (or after a game over in turn 1), either after a catch.
func TestEdgePawnOffBoard(t *testing.T) {
	one := ". . . . . | . . . . . | . . r . . | . . . . . | . . . . ."
	onePawn := ". . . . . | . . . . . | . . r1 . . | . . . . . | . . . . ."
	twoPawn := ". . . . . | . . . . . | . . r1 y . | . . . . . | . . . . ."
	bothDown := ". . . . . | . . . . . | . . r1 y2 . | . . . . . | . . . . ."
	early := DefaultOptions()
	early.EndThreshold = TokensPerColor - 1
	for _, c := range []struct {
		name   string
		opts   Options
		toMove engine.Player
		phase  Phase
		board  string
		caught []Catch
		reason string // "" when accepted
	}{
		{"turn 1, step 1", DefaultOptions(), 1, PhaseOptionalMove, empty, nil, ""},
		{"turn 1, step 2", DefaultOptions(), 1, PhaseAction, empty, nil, ""},
		{"turn 1, pawn step", DefaultOptions(), 1, PhasePawn, one, nil, ""},
		{"turn 2, step 1", DefaultOptions(), 2, PhaseOptionalMove, onePawn, nil, ""},
		{"turn 2, pawn step after a placement", DefaultOptions(), 2, PhasePawn, twoPawn, nil, ""},
		{"over after turn 1", early, 0, PhaseOver, onePawn, nil, ""},
		{"both pawns down", DefaultOptions(), 1, PhaseOptionalMove, bothDown, nil, ""},
		{"after catches", DefaultOptions(), 1, PhaseOptionalMove, twoPawn, fishedOnce, ""},
		{"A's pawn off after turn 1", DefaultOptions(), 1, PhaseOptionalMove, one, nil, ReasonPawnOffBoard},
		{"A's pawn off in turn 2", DefaultOptions(), 2, PhaseOptionalMove, one, nil, ReasonPawnOffBoard},
		{"B's pawn off in turn 3", DefaultOptions(), 1, PhaseOptionalMove, twoPawn, nil, ReasonPawnOffBoard},
		{"B's pawn off in turn 2 after two tokens", DefaultOptions(), 2, PhaseOptionalMove, twoPawn, nil,
			ReasonPawnOffBoard},
		{"B's pawn off, A's catch does not count", DefaultOptions(), 1, PhaseOptionalMove, twoPawn,
			[]Catch{{Red: 3}}, ReasonPawnOffBoard},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := positionErr(c.opts, c.toMove, c.phase, c.board, c.caught...)
			if c.reason == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			enginetest.WantError(t, err, engine.Invalid, c.reason, "squares")
		})
	}
}

// TestEdgeTooFewTaken checks that a catch needs four tokens out of the supply, and a turn without a placement three.
func TestEdgeTooFewTaken(t *testing.T) {
	idle := func(n int, board string, caught ...Catch) func(t *testing.T) (*State, error) {
		return func(t *testing.T) (*State, error) {
			s, err := positionErr(DefaultOptions(), 1, PhaseOptionalMove, board, caught...)
			if err != nil {
				t.Fatal(err)
			}
			p := s.Parts()
			p.TurnsWithoutPlacement = n
			return NewState(s.opts, p)
		}
	}
	three := ". . . . . | . . . . . | . . r1 y2 r | . . . . . | . . . . ."
	for _, c := range []struct {
		name   string
		state  func(t *testing.T) (*State, error)
		reason string // "" when accepted
		field  string
	}{
		{"a catch of three, one token left", func(*testing.T) (*State, error) {
			return positionErr(DefaultOptions(), 1, PhaseOptionalMove, ". . . . . | . . r2 . . | . . . . . | . . . . . | . . . . .",
				Catch{Red: 2, Yellow: 1})
		}, "", ""},
		{"a catch of three, nothing left", func(*testing.T) (*State, error) {
			return positionErr(DefaultOptions(), 1, PhaseOptionalMove, empty, Catch{Red: 2, Yellow: 1}, Catch{Yellow: 3})
		}, "", ""},
		{"a catch of three and nothing else", func(*testing.T) (*State, error) {
			return positionErr(DefaultOptions(), 1, PhaseOptionalMove, empty, Catch{}, Catch{Red: 2, Yellow: 1})
		}, ReasonTooFewTaken, "captured[1]"},
		{"idle after three placements", idle(1, three), "", ""},
		{"idle after two placements", idle(1, ". . . . . | . . . . . | . . r1 y2 . | . . . . . | . . . . ."),
			ReasonTooFewTaken, "turnsWithoutPlacement"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.state(t)
			if c.reason == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			enginetest.WantError(t, err, engine.Invalid, c.reason, c.field)
		})
	}
}

// TestEdgeHostile feeds FromProto, MoveFromProto and the Game adapter hostile messages: each must be refused with
// a typed error (and no panic).
func TestEdgeHostile(t *testing.T) {
	good := position(t, DefaultOptions(), 1, PhaseOptionalMove, "r y . . . | . . . . . | . . . . . | . . . . . | . . . . .",
		fishedOnce...)
	state := func(change func(m *rulebookv1.KipicotState)) *rulebookv1.KipicotState {
		m := good.Proto()
		change(m)
		return m
	}
	big := 100_000
	for _, c := range []struct {
		name   string
		m      *rulebookv1.KipicotState
		reason string
	}{
		{"100,000 squares", state(func(m *rulebookv1.KipicotState) {
			m.Squares = make([]*rulebookv1.KipicotSquare, big)
		}), ReasonBoardSizeMismatch},
		{"100,000 tokens on a square", state(func(m *rulebookv1.KipicotState) {
			m.Squares[7].Tokens = make([]rulebookv1.KipicotColor, big)
		}), ReasonStackTooHigh},
		{"100,000 catches", state(func(m *rulebookv1.KipicotState) {
			m.Captured = make([]*rulebookv1.KipicotCatch, big)
		}), ReasonCapturedSizeMismatch},
		{"nil squares", state(func(m *rulebookv1.KipicotState) { m.Squares[3] = nil; m.Squares[0].Tokens = nil }),
			ReasonTokenCountMismatch},
		{"nil catches", state(func(m *rulebookv1.KipicotState) { m.Captured[0] = nil; m.SupplyRed = 0 }),
			ReasonTokenCountMismatch},
		{"rules version max", state(func(m *rulebookv1.KipicotState) { m.RulesVersion = math.MaxUint32 }),
			ReasonRulesVersionUnsupported},
		{"anti-stall rounds max", state(func(m *rulebookv1.KipicotState) {
			m.Options.AntiStallRounds = proto.Int32(math.MaxInt32)
		}), ReasonOptionOutOfRange},
		{"end threshold min", state(func(m *rulebookv1.KipicotState) {
			m.Options.EndThreshold = proto.Int32(math.MinInt32)
		}), ReasonOptionOutOfRange},
		{"colour max", state(func(m *rulebookv1.KipicotState) { m.Squares[0].Tokens[0] = math.MaxInt32 }),
			ReasonColorInvalid},
		{"colour negative", state(func(m *rulebookv1.KipicotState) { m.Squares[0].Tokens[0] = -1 }),
			ReasonColorInvalid},
		{"pawn max", state(func(m *rulebookv1.KipicotState) { m.Squares[0].Pawn = math.MaxInt32 }),
			ReasonPawnOutOfRange},
		{"supply max", state(func(m *rulebookv1.KipicotState) { m.SupplyRed = math.MaxUint32 }), ReasonCountOutOfRange},
		{"catch max", state(func(m *rulebookv1.KipicotState) { m.Captured[1].Yellow = math.MaxUint32 }),
			ReasonCountOutOfRange},
		{"phase max", state(func(m *rulebookv1.KipicotState) { m.Phase = math.MaxInt32 }), ReasonPhaseInvalid},
		{"phase negative", state(func(m *rulebookv1.KipicotState) { m.Phase = math.MinInt32 }), ReasonPhaseInvalid},
		{"to move max", state(func(m *rulebookv1.KipicotState) { m.ToMove = math.MaxInt32 }), ReasonToMoveInvalid},
		{"to move negative", state(func(m *rulebookv1.KipicotState) { m.ToMove = -1 }), ReasonToMoveInvalid},
		{"stall count max", state(func(m *rulebookv1.KipicotState) { m.TurnsWithoutPlacement = math.MaxUint32 }),
			ReasonStallCountOutOfRange},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromProto(c.m)
			enginetest.WantError(t, err, engine.Invalid, c.reason, "-")
			_, err = Spec.Decode(&rulebookv1.GameState{Game: &rulebookv1.GameState_Kipicot{Kipicot: c.m}})
			enginetest.WantError(t, err, engine.Invalid, c.reason, "-")
		})
	}
	position, err := Spec.Decode(&rulebookv1.GameState{Game: &rulebookv1.GameState_Kipicot{Kipicot: good.Proto()}})
	if err != nil {
		t.Fatal(err)
	}
	turn := func(n int, step *rulebookv1.KipicotStep) *rulebookv1.Move {
		steps := make([]*rulebookv1.KipicotStep, n)
		for i := range steps {
			steps[i] = step
		}
		return &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Kipicot{Kipicot: &rulebookv1.KipicotMove{
			Kind: &rulebookv1.KipicotMove_Turn{Turn: &rulebookv1.KipicotTurn{Steps: steps}}}}}
	}
	coord := &rulebookv1.KipicotCoord{Row: math.MaxInt32, Col: math.MinInt32}
	for _, c := range []struct {
		name   string
		m      *rulebookv1.Move
		reason string
		field  string
	}{
		{"a turn of 100,000 skips", turn(big, Move{Step: skip()}.Step.proto()), ReasonTurnTooLong,
			"move.kipicot.turn.steps"},
		{"a turn of 100,000 nil steps", turn(big, nil), ReasonTurnTooLong, "move.kipicot.turn.steps"},
		{"a turn of 100,000 empty steps", turn(big, &rulebookv1.KipicotStep{}), ReasonTurnTooLong,
			"move.kipicot.turn.steps"},
		{"a turn without its message", &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Kipicot{
			Kipicot: &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Turn{}}}}, ReasonTurnEmpty,
			"move.kipicot.turn.steps"},
		{"a player out of int32", &rulebookv1.Move{Player: math.MinInt32, Game: Move{Step: skip()}.Proto().Game},
			ReasonPlayerOutOfRange, "move.player"},
		{"a square far off", &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Kipicot{Kipicot: &rulebookv1.KipicotMove{
			Kind: &rulebookv1.KipicotMove_MoveToken{MoveToken: &rulebookv1.KipicotTokenMove{From: coord, To: coord}}}}},
			ReasonSquareOffBoard, "move.kipicot.moveToken.from.row"},
		{"a colour far off", &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Kipicot{Kipicot: &rulebookv1.KipicotMove{
			Kind: &rulebookv1.KipicotMove_Place{Place: &rulebookv1.KipicotPlacement{Color: math.MaxInt32}}}}},
			ReasonColorInvalid, "move.kipicot.place.color"},
		{"a fishing corner far off", &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Kipicot{Kipicot: &rulebookv1.KipicotMove{
			Kind: &rulebookv1.KipicotMove_Fish{Fish: &rulebookv1.KipicotFishing{Corner: coord}}}}},
			ReasonBlockOffBoard, "move.kipicot.fish.corner.row"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := position.Apply(c.m)
			enginetest.WantError(t, err, engine.Invalid, c.reason, c.field)
			if verr := position.Validate(c.m); verr == nil || verr.Error() != err.Error() {
				t.Errorf("Validate says %v", verr)
			}
		})
	}
}
