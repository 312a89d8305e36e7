package exploze

import (
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
)

// TestWorkedExamples plays the three worked examples of the rules, verbatim.
func TestWorkedExamples(t *testing.T) {
	t.Run("2x2 B eliminates A", func(t *testing.T) {
		s := newGame(t, Options{Rows: 2, Cols: 2})
		s, _ = play(t, s, Coord{0, 0}, Coord{1, 1}, Coord{0, 0})
		if got, want := s.Board(), ".0 A1 | A1 B1"; got != want {
			t.Errorf("after move 3: %q, want %q", got, want)
		}
		s, events := play(t, s, Coord{1, 1})
		if got, want := s.Board(), ".0 B2 | B2 .0"; got != want {
			t.Errorf("after move 4: %q, want %q", got, want)
		}
		wantEvents := []string{
			"B placed at (1,1): 2 stones",
			"wave 1: exploded (1,1); captured (0,1) 1 from A, (1,0) 1 from A",
			"A eliminated after wave 1",
			"game over: B wins",
		}
		if got := enginetest.Strings(events); !slices.Equal(got, wantEvents) {
			t.Errorf("events %q, want %q", got, wantEvents)
		}
		if !s.Over() || s.Winner() != 2 || s.ToMove() != engine.NoPlayer || !s.Eliminated(1) {
			t.Errorf("over %v winner %d toMove %d eliminated(A) %v; want true 2 0 true", s.Over(), s.Winner(),
				s.ToMove(), s.Eliminated(1))
		}
	})
	t.Run("3x3 centre explodes once", func(t *testing.T) {
		s := newGame(t, Options{Rows: 3, Cols: 3})
		s, events := play(t, s, Coord{1, 1}, Coord{0, 0}, Coord{1, 1}, Coord{0, 2}, Coord{1, 1}, Coord{2, 0}, Coord{1, 1})
		if got, want := s.Board(), "B1 A1 B1 | A1 .0 A1 | B1 A1 .0"; got != want {
			t.Errorf("board %q, want %q", got, want)
		}
		wantEvents := []string{"A placed at (1,1): 4 stones", "wave 1: exploded (1,1)"}
		if got := enginetest.Strings(events); !slices.Equal(got, wantEvents) {
			t.Errorf("events %q, want %q", got, wantEvents)
		}
	})
	t.Run("3x3 three waves", func(t *testing.T) {
		// No game reaches this board with A to move (see arranged), but it shows the waves.
		s := arranged(t, 2, 1, "A1 A2 .0 | A2 A3 .0 | .0 .0 B1")
		wantBoards := []string{
			".0 A3 .0 | A3 A3 .0 | .0 .0 B1",
			"A2 .0 A1 | .0 A5 .0 | A1 .0 B1",
			".0 A2 A1 | A2 A1 A1 | A1 A1 B1",
		}
		// Replay the waves from the events on a copy of the board, to check each intermediate board.
		next, events := play(t, s, Coord{0, 0})
		board := s.clone()
		board.cells[0].Stones++
		var waves []Wave
		for _, e := range events {
			if w, ok := e.(Wave); ok {
				waves = append(waves, w)
			}
		}
		if len(waves) != len(wantBoards) {
			t.Fatalf("%d waves, want %d: %q", len(waves), len(wantBoards), enginetest.Strings(events))
		}
		for k, w := range waves {
			fire(board, w.Exploded, 1)
			if got := board.Board(); got != wantBoards[k] {
				t.Errorf("after wave %d: %q, want %q", k+1, got, wantBoards[k])
			}
		}
		if got := next.Board(); got != wantBoards[2] {
			t.Errorf("final board %q, want %q", got, wantBoards[2])
		}
	})
}

// fire explodes the cells at once on s, changing it, as a wave of mover's does. Tests use it to replay waves.
func fire(s *State, cells []Coord, mover engine.Player) {
	var buf [4]int
	for _, c := range cells {
		s.cells[c.Row*s.opts.Cols+c.Col].Stones -= s.Critical(c.Row, c.Col)
	}
	for _, c := range cells {
		for _, j := range s.neighbours(c.Row*s.opts.Cols+c.Col, &buf) {
			s.cells[j].Owner = mover
			s.cells[j].Stones++
		}
	}
	for i := range s.cells {
		if s.cells[i].Stones == 0 {
			s.cells[i].Owner = engine.NoPlayer
		}
	}
}

// TestCritical checks the critical numbers: 2 in a corner, 3 on an edge, 4 inside, 0 off the board.
func TestCritical(t *testing.T) {
	s := newGame(t, Options{Rows: 3, Cols: 4})
	for _, c := range []struct{ row, col, want int }{
		{0, 0, 2}, {0, 3, 2}, {2, 0, 2}, {2, 3, 2}, {0, 1, 3}, {1, 0, 3}, {2, 2, 3}, {1, 3, 3}, {1, 1, 4}, {1, 2, 4},
		{-1, 0, 0}, {3, 0, 0}, {0, 4, 0},
	} {
		if got := s.Critical(c.row, c.col); got != c.want {
			t.Errorf("Critical(%d, %d) = %d, want %d", c.row, c.col, got, c.want)
		}
	}
}

// TestOptions checks the defaults and the range of each option.
func TestOptions(t *testing.T) {
	for _, c := range []struct {
		opts  Options
		want  Options
		field string // the field of the OPTION_OUT_OF_RANGE error; "" when the options are valid
	}{
		{Options{}, Options{6, 6, 2}, ""},
		{Options{Rows: 2, Cols: 32, Players: 8}, Options{2, 32, 8}, ""},
		{Options{Rows: 32, Cols: 2}, Options{32, 2, 2}, ""},
		{Options{Players: 8}, Options{6, 6, 8}, ""},
		{Options{Rows: 2, Cols: 2, Players: 4}, Options{2, 2, 4}, ""},
		{Options{Rows: 1}, Options{}, "rows"},
		{Options{Rows: 33}, Options{}, "rows"},
		{Options{Rows: -2}, Options{}, "rows"},
		{Options{Cols: 1}, Options{}, "cols"},
		{Options{Cols: 33}, Options{}, "cols"},
		{Options{Players: 1}, Options{}, "players"},
		{Options{Players: 9}, Options{}, "players"},
		{Options{Rows: 2, Cols: 2, Players: 5}, Options{}, "players"},
		{Options{Rows: 2, Cols: 3, Players: 7}, Options{}, "players"},
	} {
		s, err := New(c.opts)
		if c.field != "" {
			enginetest.WantError(t, err, engine.Invalid, ReasonOptionOutOfRange, c.field)
			_, err = NewState(c.opts, 0, 1, nil)
			enginetest.WantError(t, err, engine.Invalid, ReasonOptionOutOfRange, "options."+c.field)
			continue
		}
		if err != nil {
			t.Errorf("New(%+v): %v", c.opts, err)
			continue
		}
		if s.Options() != c.want || s.MovesPlayed() != 0 || s.ToMove() != 1 || s.Over() {
			t.Errorf("New(%+v) = %v, want options %+v, no move, player 1 to move", c.opts, s, c.want)
		}
	}
}

// TestNewStateReasons checks each reason code of NewState (and so of FromProto), with the field it names.
func TestNewStateReasons(t *testing.T) {
	for _, c := range []struct {
		name    string
		players int
		toMove  engine.Player
		board   string
		reason  string // "" when the state is valid
		field   string
	}{
		{"empty board", 2, 1, ".0 .0 | .0 .0", "", ""},
		{"round one", 3, 3, "A1 .0 | .0 B1", "", ""},
		{"end of round one", 2, 1, "A1 .0 | .0 B1", "", ""},
		{"mid game", 2, 2, "A1 .0 .0 | B1 A2 B1", "", ""},
		{"over with unstable cells", 2, 0, ".0 A3 | A2 .0", "", ""},
		{"after an elimination, one player", 3, 1, "A1 A2 .0 | .0 B2 .0", "", ""},
		{"after an elimination, the other", 3, 2, "A1 A2 .0 | .0 B2 .0", "", ""},
		{"stones without owner", 2, 1, ".0 .0 | .0 .0", "", ""},
		{"size", 2, 1, ".0 .0 | .0 .0 | .0 .0 | .0 .0", "", ""},

		{"round one owner not placed yet", 3, 3, "A1 .0 | .0 C1", ReasonFirstRoundMismatch, "owners[3]"},
		{"round one two stones", 3, 2, "A2 .0 | .0 .0", ReasonFirstRoundMismatch, "stones[0]"},
		{"round one second cell", 3, 3, "A1 A1 | .0 .0", ReasonFirstRoundMismatch, "owners[1]"},
		{"end of round one missing player", 2, 0, "A1 A1 | .0 .0", ReasonFirstRoundMismatch, "owners[1]"},
		{"unstable corner", 2, 1, "A2 .0 .0 | A1 B1 B1", ReasonUnstableCell, "stones[0]"},
		{"unstable centre", 2, 1, "B1 A1 B1 | A1 A4 A1 | B1 .0 .0", ReasonUnstableCell, "stones[4]"},
		{"to move in round one", 3, 1, "A1 .0 | .0 .0", ReasonToMoveInvalid, "toMove"},
		{"to move eliminated", 3, 2, "A1 A2 .0 | .0 C2 .0", ReasonToMoveInvalid, "toMove"},
		{"to move out of range", 2, 3, "A1 .0 .0 | B1 A2 B1", ReasonToMoveInvalid, "toMove"},
		{"to move nobody in a live game", 2, 0, "A1 .0 .0 | B1 A2 B1", ReasonToMoveInvalid, "toMove"},
		{"to move after the end", 2, 1, "A5 .0 | .0 .0", ReasonToMoveInvalid, "toMove"},
		{"two players, A to move after an odd move", 2, 1, "A1 .0 .0 | B1 A2 B1", ReasonToMoveInvalid, "toMove"},
		{"two players, B to move after an even move", 2, 2, "A1 .0 B1 | B1 A2 B1", ReasonToMoveInvalid, "toMove"},
		{"nobody out, seat order", 3, 1, "A1 B1 | C1 A1", ReasonToMoveInvalid, "toMove"},
		{"last mover holds one stone", 2, 2, "A1 .0 .0 | B1 .0 B1", ReasonLastMoverStones, "stones"},
		{"last mover before an eliminated seat", 3, 1, "A1 A2 .0 | B1 .0 A1", ReasonLastMoverStones, "stones"},
		{"winner out of turn", 2, 0, ".0 A2 | A2 .0", ReasonWinnerMismatch, "movesPlayed"},
		{"first move after round one, B out, C next", 3, 3, ".0 A2 C1 | A1 .0 .0", "", ""},
		{"first move after round one, A again", 3, 1, ".0 A2 C1 | A1 .0 .0", ReasonToMoveInvalid, "toMove"},
		{"first move after round one ends the game, A wins", 3, 0, ".0 A2 | A2 .0", "", ""},
		{"first move after round one ends the game, B wins", 3, 0, ".0 B2 | B2 .0", ReasonWinnerMismatch, "movesPlayed"},
		{"over without a last wave", 2, 0, "A3 .0 | .0 .0", ReasonFinalWaveMissing, "stones"},
		{"over, unstable far from the last wave", 2, 0, "A1 A1 .0 | A1 .0 .0 | .0 .0 A2", ReasonFinalWaveMissing,
			"stones[8]"},
		{"owner out of range", 2, 1, "A1 .0 | .0 C1", ReasonOwnerOutOfRange, "owners[3]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := positionErr(c.players, c.toMove, c.board)
			if c.reason == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			enginetest.WantError(t, err, engine.Invalid, c.reason, c.field)
		})
	}

	// Boards the notation cannot write.
	opts := Options{Rows: 2, Cols: 2}
	cells := func(changes map[int]Cell) []Cell {
		board := []Cell{{1, 1}, {}, {}, {2, 1}}
		for i, c := range changes {
			board[i] = c
		}
		return board
	}
	for _, c := range []struct {
		name   string
		moves  int
		cells  []Cell
		reason string
		field  string
	}{
		{"too few cells", 2, cells(nil)[:3], ReasonBoardSizeMismatch, "owners"},
		{"too many cells", 2, append(cells(nil), Cell{}), ReasonBoardSizeMismatch, "owners"},
		{"negative moves", -1, cells(nil), ReasonMovesOutOfRange, "movesPlayed"},
		{"moves past the longest game", 6, cells(nil), ReasonMovesOutOfRange, "movesPlayed"},
		{"negative stones", 2, cells(map[int]Cell{1: {1, -1}}), ReasonStonesOutOfRange, "stones[1]"},
		{"stones past the longest game", 2, cells(map[int]Cell{1: {1, 6}}), ReasonStonesOutOfRange, "stones[1]"},
		{"negative owner", 2, cells(map[int]Cell{1: {-1, 1}}), ReasonOwnerOutOfRange, "owners[1]"},
		{"stones without owner", 3, cells(map[int]Cell{1: {0, 1}}), ReasonCellOwnerMismatch, "owners[1]"},
		{"owner without stones", 2, cells(map[int]Cell{1: {2, 0}}), ReasonCellOwnerMismatch, "owners[1]"},
		{"stones short of moves", 3, cells(nil), ReasonStoneCountMismatch, "movesPlayed"},
		{"stones past moves", 1, cells(nil), ReasonStoneCountMismatch, "movesPlayed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewState(opts, c.moves, 1, c.cells)
			enginetest.WantError(t, err, engine.Invalid, c.reason, c.field)
		})
	}
}

// TestNewStateCopiesCells checks that the state does not share the caller's slice.
func TestNewStateCopiesCells(t *testing.T) {
	cells := []Cell{{1, 1}, {}, {}, {}}
	s, err := NewState(Options{Rows: 2, Cols: 2, Players: 3}, 1, 2, cells)
	if err != nil {
		t.Fatal(err)
	}
	cells[1] = Cell{2, 1}
	if got := s.Cell(0, 1); got != (Cell{}) {
		t.Errorf("cell (0,1) changed with the caller's slice: %+v", got)
	}
}

// TestValidateReasons checks each reason code of Validate, and that Apply returns the same error.
func TestValidateReasons(t *testing.T) {
	live := position(t, 2, 1, "A1 .0 B1 | B1 A2 B1")
	over := position(t, 2, 0, ".0 A2 | A1 .0")
	for _, c := range []struct {
		name   string
		s      *State
		move   Move
		kind   engine.Kind
		reason string // "" when the move is legal
		field  string
	}{
		{"empty cell", live, Move{1, 0, 1}, 0, "", ""},
		{"own cell", live, Move{1, 1, 1}, 0, "", ""},
		{"player 0", live, Move{0, 0, 1}, engine.Invalid, ReasonPlayerOutOfRange, "player"},
		{"player past the players", live, Move{3, 0, 1}, engine.Invalid, ReasonPlayerOutOfRange, "player"},
		{"negative player", live, Move{-1, 0, 1}, engine.Invalid, ReasonPlayerOutOfRange, "player"},
		{"row above", live, Move{1, -1, 0}, engine.Invalid, ReasonCellOffBoard, "exploze.row"},
		{"row below", live, Move{1, 2, 0}, engine.Invalid, ReasonCellOffBoard, "exploze.row"},
		{"col left", live, Move{1, 0, -1}, engine.Invalid, ReasonCellOffBoard, "exploze.col"},
		{"col right", live, Move{1, 0, 3}, engine.Invalid, ReasonCellOffBoard, "exploze.col"},
		{"invalid before illegal", live, Move{2, 5, 0}, engine.Invalid, ReasonCellOffBoard, "exploze.row"},
		{"not your turn", live, Move{2, 0, 1}, engine.Illegal, ReasonNotYourTurn, ""},
		{"opponent's cell", live, Move{1, 1, 2}, engine.Illegal, ReasonCellOwnedByOpponent, ""},
		{"game over", over, Move{1, 0, 0}, engine.Illegal, ReasonGameOver, ""},
		{"game over, loser", over, Move{2, 0, 0}, engine.Illegal, ReasonGameOver, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.s.Validate(c.move)
			next, events, applyErr := c.s.Apply(c.move)
			if c.reason == "" {
				if err != nil || applyErr != nil || next == nil || len(events) == 0 {
					t.Errorf("Validate: %v; Apply: %v, %v events", err, applyErr, len(events))
				}
				return
			}
			enginetest.WantError(t, err, c.kind, c.reason, c.field)
			if e, _ := engine.AsError(applyErr); next != nil || events != nil || e == nil || e.Reason != c.reason {
				t.Errorf("Apply returned %v, %v, %v; want Validate's error", next, events, applyErr)
			}
		})
	}
}

// TestLegal checks the legal moves: every empty cell and every own cell, row by row, only for the player to move.
func TestLegal(t *testing.T) {
	s := position(t, 3, 2, "A1 .0 C1 | B1 .0 A1")
	want := []Move{{2, 0, 1}, {2, 1, 0}, {2, 1, 1}}
	if got := s.Legal(2); !slices.Equal(got, want) {
		t.Errorf("Legal(B) = %v, want %v", got, want)
	}
	for _, p := range []engine.Player{engine.NoPlayer, 1, 3, 4, -1} {
		if got := s.Legal(p); len(got) != 0 {
			t.Errorf("Legal(%d) = %v, want none: B is to move", p, got)
		}
	}
	over := position(t, 2, 0, ".0 A2 | A1 .0")
	if got := over.Legal(1); len(got) != 0 {
		t.Errorf("Legal in a finished game = %v, want none", got)
	}
	start := newGame(t, Options{Rows: 2, Cols: 3})
	if got := len(start.Legal(1)); got != 6 {
		t.Errorf("%d legal moves on an empty 2x3 board, want 6", got)
	}
}

// TestApplyKeepsReceiver checks that Apply leaves its receiver as it was, through a chain that captures and
// eliminates.
func TestApplyKeepsReceiver(t *testing.T) {
	s := position(t, 3, 1, "A1 A2 .0 | A2 A3 C2 | .0 B2 .0")
	before, proto := s.String(), s.Proto().String()
	next, _ := play(t, s, Coord{0, 0})
	if s.String() != before || s.Proto().String() != proto {
		t.Errorf("Apply changed its receiver:\n%v\nwas\n%v", s, before)
	}
	if next.String() == before {
		t.Error("Apply returned an unchanged state")
	}
}

// TestChains checks the wave rules on small boards worked out by hand: explosions at or above the critical number,
// a cell that jumps past its critical number within a wave and keeps its surplus, captures counted once per wave,
// eliminations in player order, and the early stop that leaves unstable cells on the board.
func TestChains(t *testing.T) {
	for _, c := range []struct {
		name    string
		players int
		toMove  engine.Player
		board   string
		move    Coord
		want    string
		events  []string
		next    engine.Player
		// arranged marks a board that shows the rule but that no game reaches: it is built as arranged does, and
		// the board after the move is not decoded.
		arranged bool
	}{
		{
			// Wave 2 gives the corner (0,0) a stone from each side: 1 + 2 = 3, past its critical number 2. It
			// explodes in wave 3 and keeps 1. The board is the third worked example's, with A to move.
			name: "3x3 corner jumps past critical", players: 2, toMove: 1, arranged: true,
			board: "A1 A2 .0 | A2 A3 .0 | .0 .0 B1", move: Coord{1, 1},
			want: "A1 A1 A1 | A1 A2 A1 | A1 A1 B1",
			events: []string{
				"A placed at (1,1): 4 stones",
				"wave 1: exploded (1,1)",
				"wave 2: exploded (0,1) (1,0)",
				"wave 3: exploded (0,0)",
			},
			next: 2,
		},
		{
			name: "3x3 captures", players: 2, toMove: 2,
			board: ".0 A1 A1 | A1 A2 A1 | A1 A1 B1", move: Coord{2, 2},
			want: ".0 A1 A1 | A1 A2 B2 | A1 B2 .0",
			events: []string{
				"B placed at (2,2): 2 stones",
				"wave 1: exploded (2,2); captured (1,2) 1 from A, (2,1) 1 from A",
			},
			next: 1,
		},
		{
			// B's last stones go in wave 2; the corners (1,0) and (1,2) are left at their critical number.
			name: "2x3 early stop", players: 2, toMove: 1,
			board: "A1 A2 A1 | B1 .0 B1", move: Coord{0, 1},
			want: ".0 A2 .0 | A2 A1 A2",
			events: []string{
				"A placed at (0,1): 3 stones",
				"wave 1: exploded (0,1)",
				"wave 2: exploded (0,0) (0,2); captured (1,0) 1 from B, (1,2) 1 from B",
				"B eliminated after wave 2",
				"game over: A wins",
			},
			next: engine.NoPlayer,
		},
		{
			// The moves A(1,0) B(1,1) A(1,0) B(1,1) A(1,0): the edge (1,1) is captured with 3 stones and does not
			// explode, as B is gone.
			name: "3x2 early stop", players: 2, toMove: 1,
			board: ".0 .0 | A2 B2 | .0 .0", move: Coord{1, 0},
			want: "A1 .0 | .0 A3 | A1 .0",
			events: []string{
				"A placed at (1,0): 3 stones",
				"wave 1: exploded (1,0); captured (1,1) 2 from B",
				"B eliminated after wave 1",
				"game over: A wins",
			},
			next: engine.NoPlayer,
		},
		{
			name: "3 players, B eliminated, C next", players: 3, toMove: 1,
			board: "A1 B1 C1 | .0 .0 .0", move: Coord{0, 0},
			want: ".0 A2 C1 | A1 .0 .0",
			events: []string{
				"A placed at (0,0): 2 stones",
				"wave 1: exploded (0,0); captured (0,1) 1 from B",
				"B eliminated after wave 1",
			},
			next: 3,
		},
		{
			name: "3 players, two eliminated in one wave", players: 3, toMove: 1,
			board: "A1 B1 | C1 .0", move: Coord{0, 0},
			want: ".0 A2 | A2 .0",
			events: []string{
				"A placed at (0,0): 2 stones",
				"wave 1: exploded (0,0); captured (0,1) 1 from B, (1,0) 1 from C",
				"B eliminated after wave 1",
				"C eliminated after wave 1",
				"game over: A wins",
			},
			next: engine.NoPlayer,
		},
		{
			// (1,1) gains two stones in wave 2 but is captured once, with the 1 stone it held.
			name: "4 players, three eliminated", players: 4, toMove: 1,
			board: "A1 B1 | C1 D1", move: Coord{0, 0},
			want: "A2 .0 | .0 A3",
			events: []string{
				"A placed at (0,0): 2 stones",
				"wave 1: exploded (0,0); captured (0,1) 1 from B, (1,0) 1 from C",
				"B eliminated after wave 1",
				"C eliminated after wave 1",
				"wave 2: exploded (0,1) (1,0); captured (1,1) 1 from D",
				"D eliminated after wave 2",
				"game over: A wins",
			},
			next: engine.NoPlayer,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := arranged(t, c.players, c.toMove, c.board)
			if !c.arranged {
				s = position(t, c.players, c.toMove, c.board)
			}
			next, events := play(t, s, c.move)
			if got := next.Board(); got != c.want {
				t.Errorf("board %q, want %q", got, c.want)
			}
			if got := enginetest.Strings(events); !slices.Equal(got, c.events) {
				t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.events, "\n"))
			}
			if got := next.ToMove(); got != c.next {
				t.Errorf("to move %d, want %d", got, c.next)
			}
			if _, err := FromProto(next.Proto()); err != nil && !c.arranged {
				t.Errorf("the new state does not decode: %v", err)
			}
		})
	}
}

// TestEliminatedSkipped checks that an eliminated player is skipped, may not move, and stays out.
func TestEliminatedSkipped(t *testing.T) {
	s, _ := play(t, position(t, 3, 1, "A1 B1 C1 | .0 .0 .0"), Coord{0, 0})
	if !s.Eliminated(2) || s.Eliminated(1) || s.Eliminated(3) || s.Over() {
		t.Fatalf("want only B eliminated and the game going on:\n%v", s)
	}
	if got := s.Legal(2); len(got) != 0 {
		t.Errorf("Legal(B) = %v, want none", got)
	}
	enginetest.WantError(t, s.Validate(Move{Player: 2, Row: 1, Col: 1}), engine.Illegal, ReasonNotYourTurn, "")
	for _, c := range []struct {
		move Coord
		next engine.Player
	}{{Coord{1, 2}, 1}, {Coord{1, 1}, 3}} {
		s, _ = play(t, s, c.move)
		if s.ToMove() != c.next {
			t.Fatalf("to move %d, want %d:\n%v", s.ToMove(), c.next, s)
		}
	}
	// In round one, a player who has not placed yet has no stone but is not eliminated.
	r1 := newGame(t, Options{Players: 3})
	if r1.Eliminated(2) || r1.Eliminated(3) {
		t.Error("a player is eliminated before placing")
	}
}

// TestScore checks the live and the final standings.
func TestScore(t *testing.T) {
	s := position(t, 3, 2, "B1 C2 B1 | A1 A2 .0")
	sc := s.Score()
	want := Score{Players: []PlayerScore{
		{Player: 1, Stones: 3, Cells: 2}, {Player: 2, Stones: 2, Cells: 2}, {Player: 3, Stones: 2, Cells: 1},
	}}
	if !slices.Equal(sc.Players, want.Players) || sc.Over || sc.Winner != 0 || sc.FinalMove != 0 {
		t.Errorf("Score() = %+v, want %+v", sc, want)
	}
	over := position(t, 3, 0, "A3 .0 | .0 A2")
	sc = over.Score()
	want = Score{Players: []PlayerScore{
		{Player: 1, Stones: 5, Cells: 2}, {Player: 2, Eliminated: true}, {Player: 3, Eliminated: true},
	}, Over: true, Winner: 1, FinalMove: 5}
	if !slices.Equal(sc.Players, want.Players) || !sc.Over || sc.Winner != 1 || sc.FinalMove != 5 {
		t.Errorf("Score() = %+v, want %+v", sc, want)
	}
}
