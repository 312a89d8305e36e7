package exploze

import (
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// arranged returns the position with the board in notation, players players and toMove to move, the moves played
// being the stones on the board, built without NewState's checks. It is for boards that show a rule at work but that
// no game reaches, such as the third worked example of the rules: A is to move with 9 stones on the board, while B,
// who would have moved last, holds a single stone. The bound on chains holds on any stable board, reached or not.
func arranged(t testing.TB, players int, toMove engine.Player, board string) *State {
	t.Helper()
	cells, rows, cols, err := ParseBoard(board)
	if err != nil {
		t.Fatal(err)
	}
	return arrangedCells(Options{Rows: rows, Cols: cols, Players: players}, toMove, cells)
}

// arrangedCells is arranged for a board given as cells, row by row.
func arrangedCells(opts Options, toMove engine.Player, cells []Cell) *State {
	s := &State{opts: opts, toMove: toMove, cells: slices.Clone(cells)}
	for _, c := range cells {
		s.owned[c.Owner]++
		s.moves += c.Stones
	}
	return s
}
