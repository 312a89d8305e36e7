package notation

import (
	"errors"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// explozeLimit is the side of the largest Exploze board.
const explozeLimit = 32

// parseExploze reads an Exploze move: the square that gets the stone.
func parseExploze(text string) (*rulebookv1.ExplozeMove, error) {
	col, row, err := parseSquare(text, explozeLimit)
	if err != nil {
		return nil, err
	}
	return &rulebookv1.ExplozeMove{Row: int32(row), Col: int32(col)}, nil
}

// formatExploze writes an Exploze move.
func formatExploze(m *rulebookv1.ExplozeMove) (string, error) {
	if m.GetRow() < 0 || m.GetCol() < 0 || m.GetRow() >= explozeLimit || m.GetCol() >= explozeLimit {
		return "", errors.New("the move's square is off every Exploze board")
	}
	return Square(int(m.GetCol()), int(m.GetRow())), nil
}
