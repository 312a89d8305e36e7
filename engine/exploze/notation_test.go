package exploze

import (
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// TestParseBoard checks the notation: what it reads, and what it refuses.
func TestParseBoard(t *testing.T) {
	for _, c := range []struct {
		text       string
		cells      []Cell
		rows, cols int
		err        string // part of the error; "" when the text is read
	}{
		{"A1 .0 | B2 .0", []Cell{{1, 1}, {}, {2, 2}, {}}, 2, 2, ""},
		{"A1 .0\nB2 .0\n", []Cell{{1, 1}, {}, {2, 2}, {}}, 2, 2, ""},
		{"\n  H12 A3 C1  \n\n | D1 E1 F1 |", []Cell{{8, 12}, {1, 3}, {3, 1}, {4, 1}, {5, 1}, {6, 1}}, 2, 3, ""},
		{"", nil, 0, 0, "no cells"},
		{" | \n", nil, 0, 0, "no cells"},
		{"A1 .0 | B1", nil, 0, 0, "row 1 has 1 cells"},
		{"A0", nil, 0, 0, "count of at least 1"},
		{"A", nil, 0, 0, "count of at least 1"},
		{"A+1", nil, 0, 0, "count of at least 1"},
		{"A-1", nil, 0, 0, "count of at least 1"},
		{"Ax", nil, 0, 0, "count of at least 1"},
		{".1", nil, 0, 0, "neither .0"},
		{"I1", nil, 0, 0, "neither .0"},
		{"a1", nil, 0, 0, "neither .0"},
	} {
		cells, rows, cols, err := ParseBoard(c.text)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseBoard(%q): error %v, want one with %q", c.text, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("ParseBoard(%q): %v", c.text, err)
		case !slices.Equal(cells, c.cells) || rows != c.rows || cols != c.cols:
			t.Errorf("ParseBoard(%q) = %v, %d, %d; want %v, %d, %d", c.text, cells, rows, cols, c.cells, c.rows, c.cols)
		}
	}
}

// TestNotationRoundTrip checks that Board and String write what ParseBoard reads back.
func TestNotationRoundTrip(t *testing.T) {
	s := position(t, 3, 2, "A1 A2 .0 | A2 A3 C1 | .0 B1 .0")
	if got, want := s.Board(), "A1 A2 .0 | A2 A3 C1 | .0 B1 .0"; got != want {
		t.Errorf("Board() = %q, want %q", got, want)
	}
	want := "3x3, 3 players, 10 moves played, B to move\nA1 A2 .0\nA2 A3 C1\n.0 B1 .0\n"
	if got := s.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	_, body, _ := strings.Cut(s.String(), "\n")
	cells, rows, cols, err := ParseBoard(body)
	if err != nil || !slices.Equal(cells, s.cells) || rows != 3 || cols != 3 {
		t.Errorf("ParseBoard(String()) = %v, %d, %d, %v", cells, rows, cols, err)
	}
	over := position(t, 2, 0, ".0 A2 | A1 .0")
	if got, want := over.String(), "2x2, 2 players, 3 moves played, game over, A won\n.0 A2\nA1 .0\n"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := (Move{Player: 2, Row: 3, Col: 4}).String(), "B: e4"; got != want {
		t.Errorf("Move.String() = %q, want %q", got, want)
	}
	for p, want := range map[int]string{0: ".", 1: "A", 8: "H", 9: "P9", -1: "P-1"} {
		if got := playerName(engine.Player(p)); got != want {
			t.Errorf("playerName(%d) = %q, want %q", p, got, want)
		}
	}
}
