package exploze

import (
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// position returns the state with the board given in notation, players players, and toMove to move; the moves played
// are the stones on the board. It fails t if the position is refused.
func position(t testing.TB, players int, toMove engine.Player, board string) *State {
	t.Helper()
	s, err := positionErr(players, toMove, board)
	if err != nil {
		t.Fatalf("position %q: %v", board, err)
	}
	return s
}

// positionErr is position returning NewState's error.
func positionErr(players int, toMove engine.Player, board string) (*State, error) {
	cells, rows, cols, err := ParseBoard(board)
	if err != nil {
		return nil, err
	}
	moves := 0
	for _, c := range cells {
		moves += c.Stones
	}
	return NewState(Options{Rows: rows, Cols: cols, Players: players}, moves, toMove, cells)
}

// play applies moves in turn from s, each by the player to move, and returns the last state and the events of the
// last move. It fails t on any refusal.
func play(t testing.TB, s *State, cells ...Coord) (*State, []Event) {
	t.Helper()
	var events []Event
	for _, c := range cells {
		m := Move{Player: s.ToMove(), Row: c.Row, Col: c.Col}
		next, ev, err := s.Apply(m)
		if err != nil {
			t.Fatalf("after %d moves, %v: %v\n%v", s.MovesPlayed(), m, err, s)
		}
		s, events = next, ev
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
