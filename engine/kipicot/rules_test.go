package kipicot

import (
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
)

// ruleCase is a hand-built position, moves played from it, and what the last of them does.
type ruleCase struct {
	name   string
	opts   *Options // nil: DefaultOptions
	toMove engine.Player
	phase  Phase
	board  string
	// caught are the players' catches; nil means 3 tokens each (2 red and 1 yellow for A, the other way round for
	// B), so that a pawn may be off the board: a pawn leaves the board only with a catch.
	caught []Catch
	idle   int
	// steps are played one move each; all but the last must apply.
	steps []Step
	// reason is the last step's refusal (Illegal unless invalid is set), or "" when it applies.
	reason  string
	invalid bool
	field   string // checked when reason is set and field is not "-"
	// When the last step applies: the board, the phase and the events of the last step, each checked when set.
	wantBoard  string
	wantPhase  Phase
	wantEvents []string
}

// fishedOnce are catches of one fishing square each (three tokens), which let both pawns be off the board.
var fishedOnce = []Catch{{Red: 2, Yellow: 1}, {Red: 1, Yellow: 2}}

// empty is the empty board.
const empty = ". . . . . | . . . . . | . . . . . | . . . . . | . . . . ."

// runRules runs a table of rule cases.
func runRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := DefaultOptions()
			if c.opts != nil {
				opts = *c.opts
			}
			toMove := c.toMove
			if toMove == engine.NoPlayer {
				toMove = 1
			}
			caught := c.caught
			if caught == nil {
				caught = fishedOnce
			}
			s := position(t, opts, toMove, c.phase, c.board, caught...)
			if c.idle != 0 {
				s = withIdle(t, s, c.idle)
			}
			s, _ = play(t, s, c.steps[:len(c.steps)-1]...)
			m := Move{Player: s.ToMove(), Step: c.steps[len(c.steps)-1]}
			next, events, err := s.Apply(m)
			if verr := s.Validate(m); (verr == nil) != (err == nil) || err != nil && verr.Error() != err.Error() {
				t.Errorf("Validate says %v, Apply says %v", verr, err)
			}
			if c.reason != "" {
				kind := engine.Illegal
				if c.invalid {
					kind = engine.Invalid
				}
				field := c.field
				if field == "" && !c.invalid {
					field = "-"
				}
				enginetest.WantError(t, err, kind, c.reason, field)
				return
			}
			if err != nil {
				t.Fatalf("%v: %v\n%v", m, err, s)
			}
			if c.wantBoard != "" {
				want, err := ParseBoard(c.wantBoard)
				if err != nil {
					t.Fatal(err)
				}
				if next.board != want {
					t.Errorf("board\n%v\nwant %q", next, c.wantBoard)
				}
			}
			if c.wantPhase != 0 && next.Phase() != c.wantPhase {
				t.Errorf("phase %v, want %v", next.Phase(), c.wantPhase)
			}
			if c.wantEvents != nil && !slices.Equal(enginetest.Strings(events), c.wantEvents) {
				t.Errorf("events %q, want %q", enginetest.Strings(events), c.wantEvents)
			}
			if _, err := FromProto(next.Proto()); err != nil {
				t.Errorf("the new state does not decode: %v", err)
			}
		})
	}
}

// TestPlacing covers step 2's placements: on an empty square, and each condition of stacking.
func TestPlacing(t *testing.T) {
	board := "r . ry y1 . | . . . . . | . . . . . | . . . . . | . . . . ."
	runRules(t, []ruleCase{
		{name: "on an empty square", phase: PhaseAction, board: board, steps: []Step{place(Red, 0, 1)},
			wantBoard: "r r ry y1 . | . . . . . | . . . . . | . . . . . | . . . . .", wantPhase: PhasePawn,
			wantEvents: []string{"A placed red at (0,1)"}},
		{name: "on a lone token of the other colour", phase: PhaseAction, board: board, steps: []Step{place(Yellow, 0, 0)},
			wantBoard:  "ry . ry y1 . | . . . . . | . . . . . | . . . . . | . . . . .",
			wantEvents: []string{"A stacked yellow on red at (0,0)"}},
		{name: "on a lone token of the same colour", phase: PhaseAction, board: board, steps: []Step{place(Red, 0, 0)},
			reason: ReasonStackNeedsOtherColor},
		{name: "on a stack of two", phase: PhaseAction, board: board, steps: []Step{place(Red, 0, 2)},
			reason: ReasonStackFull},
		{name: "on a token with a pawn", phase: PhaseAction, board: board, steps: []Step{place(Red, 0, 3)},
			reason: ReasonTokenFrozen},
		{name: "in step 1", phase: PhaseOptionalMove, board: board, steps: []Step{place(Red, 0, 1)},
			reason: ReasonWrongPhase},
		{name: "colour invalid", phase: PhaseAction, board: board, steps: []Step{place(NoColor, 0, 1)},
			reason: ReasonColorInvalid, invalid: true, field: "kipicot.place.color"},
		{name: "off the board", phase: PhaseAction, board: board, steps: []Step{place(Red, 0, 5)},
			reason: ReasonSquareOffBoard, invalid: true, field: "kipicot.place.to.col"},
	})
}

// TestMoving covers token moves: single steps, stack tops sliding and jumping, frozen tokens, and the variant.
func TestMoving(t *testing.T) {
	board := "r y . . . | . ry . r ry1 | . . . . . | . r . . . | . y . . ."
	whole := DefaultOptions()
	whole.WholeStackMoves = true
	runRules(t, []ruleCase{
		{name: "single one square", phase: PhaseAction, board: board, steps: []Step{mv(0, 0, 1, 0)},
			wantBoard: ". y . . . | r ry . r ry1 | . . . . . | . r . . . | . y . . .", wantPhase: PhasePawn,
			wantEvents: []string{"A moved red (0,0)-(1,0)"}},
		{name: "single two squares", phase: PhaseAction, board: board, steps: []Step{mv(0, 0, 2, 0)},
			reason: ReasonSingleMovesOneStep},
		{name: "single diagonally", phase: PhaseAction, board: board, steps: []Step{mv(1, 3, 2, 4)},
			reason: ReasonSingleMovesOneStep},
		{name: "onto a token", phase: PhaseAction, board: board, steps: []Step{mv(0, 0, 0, 1)},
			reason: ReasonDestinationOccupied},
		{name: "onto itself", phase: PhaseAction, board: board, steps: []Step{mv(0, 0, 0, 0)},
			reason: ReasonDestinationOccupied},
		{name: "from an empty square", phase: PhaseAction, board: board, steps: []Step{mv(2, 2, 2, 3)},
			reason: ReasonNoToken},
		{name: "stack top down its column, jumping", phase: PhaseAction, board: board, steps: []Step{mv(1, 1, 2, 1)},
			wantBoard: "r y . . . | . r . r ry1 | . y . . . | . r . . . | . y . . ."},
		{name: "stack top jumping two tokens", phase: PhaseOptionalMove, board: board, steps: []Step{mv(1, 1, 1, 0)},
			wantBoard: "r y . . . | y r . r ry1 | . . . . . | . r . . . | . y . . .", wantPhase: PhaseAction},
		{name: "stack top along its row over a token", phase: PhaseAction, board: board, steps: []Step{mv(1, 1, 1, 2)},
			wantBoard: "r y . . . | . r y r ry1 | . . . . . | . r . . . | . y . . ."},
		{name: "stack off its lines", phase: PhaseAction, board: board, steps: []Step{mv(1, 1, 2, 2)},
			reason: ReasonStackMovesInLine},
		{name: "frozen stack", phase: PhaseAction, board: board, steps: []Step{mv(1, 4, 0, 4)},
			reason: ReasonTokenFrozen},
		{name: "whole stack", opts: &whole, phase: PhaseAction, board: board, steps: []Step{mv(1, 1, 4, 1-1)},
			reason: ReasonStackMovesInLine},
		{name: "whole stack along its column", opts: &whole, phase: PhaseAction, board: board,
			steps:      []Step{mv(1, 1, 2, 1)},
			wantBoard:  "r y . . . | . . . r ry1 | . ry . . . | . r . . . | . y . . .",
			wantEvents: []string{"A moved yellow on red (1,1)-(2,1)"}},
		{name: "step 1 then step 2, the same token", phase: PhaseOptionalMove, board: board,
			steps: []Step{mv(0, 0, 1, 0), mv(1, 0, 2, 0)}, wantPhase: PhasePawn,
			wantBoard: ". y . . . | . ry . r ry1 | r . . . . | . r . . . | . y . . ."},
		{name: "skip", phase: PhaseOptionalMove, board: board, steps: []Step{skip()}, wantPhase: PhaseAction,
			wantEvents: []string{}},
		{name: "skip in step 2", phase: PhaseAction, board: board, steps: []Step{skip()}, reason: ReasonWrongPhase},
		{name: "move in step 3", phase: PhasePawn, board: board, steps: []Step{mv(0, 0, 1, 0)}, reason: ReasonWrongPhase},
		{name: "off the board", phase: PhaseAction, board: board, steps: []Step{mv(-1, 0, 0, 0)},
			reason: ReasonSquareOffBoard, invalid: true, field: "kipicot.moveToken.from.row"},
	})
}

// TestPawn covers step 3: targets, the opponent's pawn, and the pawn that must change token (and the variant).
func TestPawn(t *testing.T) {
	board := "r1 y2 y . . | . . . . . | . . . . . | . . . . . | . . . . ."
	stay := DefaultOptions()
	stay.PawnMayStay = true
	runRules(t, []ruleCase{
		{name: "onto an empty square", phase: PhasePawn, board: board, steps: []Step{pawn(0, 3)},
			reason: ReasonPawnTargetEmpty},
		{name: "onto the opponent's pawn", phase: PhasePawn, board: board, steps: []Step{pawn(0, 1)},
			reason: ReasonPawnTargetTaken},
		{name: "staying", phase: PhasePawn, board: "r1 y2 y . . | . . . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{pawn(0, 0)}, reason: ReasonPawnMustMove},
		{name: "staying with pawnMayStay", opts: &stay, phase: PhasePawn, board: board, steps: []Step{pawn(0, 0)},
			wantPhase: PhaseOptionalMove, wantEvents: []string{"A pawn (0,0)-(0,0)"},
			wantBoard: "r1 y2 y . . | . . . . . | . . . . . | . . . . . | . . . . ."},
		{name: "from off the board", toMove: 2, phase: PhasePawn, board: "r1 y . . . | . . . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{pawn(0, 1)}, wantEvents: []string{"B pawn off-(0,1)"},
			wantBoard: "r1 y2 . . . | . . . . . | . . . . . | . . . . . | . . . . ."},
		{name: "changing token", phase: PhasePawn, board: "r1 y2 y . . | . . . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{pawn(0, 2)}, wantEvents: []string{"A pawn (0,0)-(0,2)"},
			wantBoard: "r y2 y1 . . | . . . . . | . . . . . | . . . . . | . . . . ."},
		{name: "off the board", phase: PhasePawn, board: board, steps: []Step{pawn(5, 0)},
			reason: ReasonSquareOffBoard, invalid: true, field: "kipicot.pawn.to.row"},
	})
}

// TestFishing covers fishing squares: monochrome and checkered, the diagonal exclusion, the token kept under the
// opponent's pawn, blocks that do not qualify, and the choice between two.
func TestFishing(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "monochrome", phase: PhasePawn, board: "r yr . . . | r r . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{pawn(0, 0)}, wantPhase: PhaseOptionalMove, wantBoard: empty,
			wantEvents: []string{"A pawn off-(0,0)", "A fished at (0,0): took (0,0) (0,1) (1,0) (1,1), 4 red 1 yellow"}},
		{name: "checkered", phase: PhasePawn, board: ". . . . . | . r ry . . | . y r . . | . . . . . | . . . . .",
			steps: []Step{pawn(2, 2)}, wantBoard: empty,
			wantEvents: []string{"A pawn off-(2,2)", "A fished at (1,1): took (1,1) (1,2) (2,1) (2,2), 3 red 2 yellow"}},
		{name: "diagonals of one colour each, the same", phase: PhasePawn,
			board: "y y . . . | y y . . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1)},
			wantBoard: empty},
		{name: "mixed diagonal", phase: PhasePawn, board: "r y . . . | y y . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{pawn(1, 1)}, wantEvents: []string{"A pawn off-(1,1)"},
			wantBoard: "r y . . . | y y1 . . . | . . . . . | . . . . . | . . . . ."},
		{name: "a square empty", phase: PhasePawn, board: "r y . . . | . r . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{pawn(1, 1)}, wantEvents: []string{"A pawn off-(1,1)"}},
		{name: "opponent's pawn diagonally opposite", phase: PhasePawn,
			board: "r2 y . . . | y r . . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1)},
			wantEvents: []string{"A pawn off-(1,1)"}},
		{name: "opponent's pawn beside: its token stays", phase: PhasePawn,
			board: "ry y2 . . . | y y . . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1)},
			wantBoard:  ". y2 . . . | . . . . . | . . . . . | . . . . . | . . . . .",
			wantEvents: []string{"A pawn off-(1,1)", "A fished at (0,0): took (0,0) (1,0) (1,1), 1 red 3 yellow"}},
		{name: "only blocks with the mover's pawn", phase: PhasePawn, toMove: 2,
			board: "r r . . . | r r . . y | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 4)},
			wantEvents: []string{"B pawn off-(1,4)"}},
		{name: "two fishing squares: a choice", phase: PhasePawn,
			board: "r r r . . | r r r . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1)},
			wantPhase: PhaseFishing, wantEvents: []string{"A pawn off-(1,1)", "A chooses a fishing square: (0,0) (0,1)"}},
		{name: "the choice made", phase: PhasePawn,
			board: "r r r . . | r r r . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1), fish(0, 1)},
			wantPhase: PhaseOptionalMove, wantBoard: "r . . . . | r . . . . | . . . . . | . . . . . | . . . . .",
			wantEvents: []string{"A fished at (0,1): took (0,1) (0,2) (1,1) (1,2), 4 red 0 yellow"}},
		{name: "a choice that does not qualify", phase: PhasePawn,
			board: "r r r . . | r r r . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1), fish(1, 1)},
			reason: ReasonNotAFishingSquare},
		{name: "a choice off the board", phase: PhasePawn,
			board: "r r r . . | r r r . . | . . . . . | . . . . . | . . . . .", steps: []Step{pawn(1, 1), fish(0, 4)},
			reason: ReasonBlockOffBoard, invalid: true, field: "kipicot.fish.corner.col"},
		{name: "fishing outside the choice", phase: PhasePawn, board: "r r . . . | r r . . . | . . . . . | . . . . . | . . . . .",
			steps: []Step{fish(0, 0)}, reason: ReasonWrongPhase},
	})
}

// TestPlacementRequiredLast checks that when the anti-stall rule demands a placement, a token move that breaks a
// rule of moving is refused for that rule, the more specific fault, and only a move that would be legal gets
// PLACEMENT_REQUIRED; step 1 stays free.
func TestPlacementRequiredLast(t *testing.T) {
	board := "r y . . . | . ry . r ry1 | . . . . . | . r . . . | . y . . ."
	limit := 2 * DefaultAntiStallRounds
	runRules(t, []ruleCase{
		{name: "from an empty square", phase: PhaseAction, board: board, idle: limit, steps: []Step{mv(2, 2, 2, 3)},
			reason: ReasonNoToken},
		{name: "a frozen stack", phase: PhaseAction, board: board, idle: limit, steps: []Step{mv(1, 4, 0, 4)},
			reason: ReasonTokenFrozen},
		{name: "onto a token", phase: PhaseAction, board: board, idle: limit, steps: []Step{mv(0, 0, 0, 1)},
			reason: ReasonDestinationOccupied},
		{name: "a single two squares", phase: PhaseAction, board: board, idle: limit, steps: []Step{mv(0, 0, 2, 0)},
			reason: ReasonSingleMovesOneStep},
		{name: "a stack off its lines", phase: PhaseAction, board: board, idle: limit, steps: []Step{mv(1, 1, 2, 2)},
			reason: ReasonStackMovesInLine},
		{name: "a legal move", phase: PhaseAction, board: board, idle: limit, steps: []Step{mv(0, 0, 1, 0)},
			reason: ReasonPlacementRequired},
		{name: "a legal move one turn short", phase: PhaseAction, board: board, idle: limit - 1,
			steps: []Step{mv(0, 0, 1, 0)}, wantPhase: PhasePawn},
		{name: "step 1 is free", phase: PhaseOptionalMove, board: board, idle: limit, steps: []Step{mv(0, 0, 1, 0)},
			wantPhase: PhaseAction},
		{name: "then step 2 is not", phase: PhaseOptionalMove, board: board, idle: limit,
			steps: []Step{mv(0, 0, 1, 0), mv(1, 0, 2, 0)}, reason: ReasonPlacementRequired},
		{name: "a placement", phase: PhaseAction, board: board, idle: limit, steps: []Step{place(Red, 2, 2)},
			wantPhase: PhasePawn},
	})
}

// TestAntiStall checks the count of turns without a placement and the placement it forces.
func TestAntiStall(t *testing.T) {
	board := "r . . . . | . . . . . | . . . . . | . . . . . | r . y . r"
	s := position(t, DefaultOptions(), 1, PhaseAction, board, fishedOnce...)
	// Six turns moving the top token back and forth, the pawns jumping on the bottom row: the count rises to 6,
	// and the seventh turn must place.
	for turn := 1; turn <= 6; turn++ {
		col := 1 - turn%2 // the column of the top token
		s, _ = play(t, s, mv(0, col, 0, 1-col))
		if s.TurnsWithoutPlacement() != turn {
			t.Fatalf("after turn %d's step 2 the count is %d", turn, s.TurnsWithoutPlacement())
		}
		for _, m := range s.Legal(s.ToMove()) {
			if m.To.Row == 4 {
				s, _ = play(t, s, m.Step)
				break
			}
		}
		if s.Phase() != PhaseOptionalMove {
			t.Fatalf("turn %d did not end:\n%v", turn, s)
		}
		s, _ = play(t, s, skip())
	}
	if !s.PlacementRequired() {
		t.Fatal("a placement is not required after three full rounds")
	}
	_, _, err := s.Apply(Move{Player: s.ToMove(), Step: mv(0, 0, 0, 1)})
	enginetest.WantError(t, err, engine.Illegal, ReasonPlacementRequired, "")
	for _, m := range s.Legal(s.ToMove()) {
		if m.Kind != StepPlace {
			t.Errorf("Legal lists %v when a placement is required", m)
		}
	}
	s, _ = play(t, s, place(Yellow, 2, 2))
	if s.TurnsWithoutPlacement() != 0 || s.PlacementRequired() {
		t.Errorf("after a placement the count is %d", s.TurnsWithoutPlacement())
	}
	off := DefaultOptions()
	off.AntiStallRounds = 0
	s = position(t, off, 1, PhaseAction, board, fishedOnce...)
	s, _ = play(t, s, mv(0, 0, 0, 1))
	if s.TurnsWithoutPlacement() != 0 {
		t.Errorf("with the rule off the count is %d", s.TurnsWithoutPlacement())
	}
}

// TestEnd checks that the game ends after the turn that empties a supply (or brings it to the end threshold), in
// mid-turn, with the fishing of that turn counted, and the outcome.
func TestEnd(t *testing.T) {
	// 19 red tokens out: A places the last red one, then fishes: the game ends after the pawn.
	board := "r r . . . | r y r r r | r r r r r | r r r r r | r r r . ."
	s := position(t, DefaultOptions(), 1, PhaseAction, board, Catch{Yellow: 3}, Catch{Yellow: 3})
	if s.Supply(Red) != 1 {
		t.Fatalf("red supply %d, want 1", s.Supply(Red))
	}
	s, _ = play(t, s, place(Red, 1, 1))
	if s.Over() || s.Phase() != PhasePawn || s.Supply(Red) != 0 {
		t.Fatalf("the turn does not go on after the last red token:\n%v", s)
	}
	s, events := play(t, s, pawn(0, 0))
	want := []string{"A pawn off-(0,0)", "A fished at (0,0): took (0,0) (0,1) (1,0) (1,1), 4 red 1 yellow",
		"game over: A wins"}
	if !slices.Equal(enginetest.Strings(events), want) {
		t.Errorf("events %q, want %q", enginetest.Strings(events), want)
	}
	if sc := s.Score(); !s.Over() || s.ToMove() != engine.NoPlayer || sc.Winner != 1 || sc.Draw ||
		sc.Players[0].Caught.Total() != 3+5 {
		t.Errorf("score %+v, over %v", sc, s.Over())
	}
	_, _, err := s.Apply(Move{Player: 1, Step: skip()})
	enginetest.WantError(t, err, engine.Illegal, ReasonGameOver, "")

	// A draw: B catches four red tokens, which brings B level with A.
	s = position(t, DefaultOptions(), 2, PhaseAction, board, Catch{Yellow: 7}, Catch{Yellow: 3})
	s, _ = play(t, s, place(Red, 1, 1), pawn(4, 0))
	if sc := s.Score(); !sc.Over || !sc.Draw || sc.Winner != engine.NoPlayer {
		t.Errorf("score %+v, want a draw", sc)
	}

	// The end threshold: the game ends when a supply falls to it.
	three := DefaultOptions()
	three.EndThreshold = 3
	s = position(t, three, 1, PhaseAction, "r r r r r | r r r r r | r r r r r | r . . . . | . . . . .",
		Catch{Yellow: 3}, Catch{Yellow: 3})
	s, _ = play(t, s, place(Red, 4, 4), pawn(4, 4))
	if !s.Over() || s.Supply(Red) != 3 {
		t.Errorf("with threshold 3 and 3 red tokens left the game goes on:\n%v", s)
	}
}
