package notation

import (
	"errors"
	"fmt"
	"strings"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Bounds of Ubongo Duel moves, as the API sets them: the side of any shape's grid, the pieces of a solution and the
// cells of a piece.
const (
	ubongoLimit         = 64
	ubongoMaxPlacements = 21
	ubongoMaxCells      = 6
)

// parseUbongoDuel reads an Ubongo Duel action: giveup, close, or a solution. The service stamps the time it receives
// the move, so the move leaves it unset.
func parseUbongoDuel(text string) (*rulebookv1.UbongoDuelMove, error) {
	switch strings.Join(strings.Fields(text), " ") {
	case "giveup", "give up":
		giveUp := &rulebookv1.UbongoDuelMove_GiveUp{GiveUp: &rulebookv1.UbongoDuelGiveUp{}}
		return &rulebookv1.UbongoDuelMove{Action: giveUp}, nil
	case "close":
		closeDuel := &rulebookv1.UbongoDuelMove_CloseDuel{CloseDuel: &rulebookv1.UbongoDuelCloseDuel{}}
		return &rulebookv1.UbongoDuelMove{Action: closeDuel}, nil
	}
	parts := strings.Split(text, ";")
	if strings.TrimSpace(parts[len(parts)-1]) == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > ubongoMaxPlacements {
		return nil, fmt.Errorf("a solution places at most %d pieces", ubongoMaxPlacements)
	}
	submit := &rulebookv1.UbongoDuelSubmit{}
	for _, part := range parts {
		words := strings.Fields(strings.ReplaceAll(part, ",", " "))
		if len(words) < 2 || len(words[0]) != 1 || words[0][0] < 'a' || words[0][0] > 'u' {
			return nil, fmt.Errorf("%q is not a piece's placement: its letter (A to U) and the squares it covers, "+
				"such as A a1 b1 b2, or giveup or close", strings.TrimSpace(part))
		}
		if len(words)-1 > ubongoMaxCells {
			return nil, fmt.Errorf("piece %s covers %d squares: no piece has more than %d", strings.ToUpper(words[0]),
				len(words)-1, ubongoMaxCells)
		}
		placement := &rulebookv1.UbongoDuelPlacement{Piece: strings.ToUpper(words[0])}
		for _, w := range words[1:] {
			col, row, err := parseSquare(w, ubongoLimit)
			if err != nil {
				return nil, err
			}
			placement.Cells = append(placement.Cells, &rulebookv1.UbongoDuelCell{X: int32(col), Y: int32(row)})
		}
		submit.Placements = append(submit.Placements, placement)
	}
	return &rulebookv1.UbongoDuelMove{Action: &rulebookv1.UbongoDuelMove_Submit{Submit: submit}}, nil
}

// formatUbongoDuel writes an Ubongo Duel action, without its receive time.
func formatUbongoDuel(m *rulebookv1.UbongoDuelMove) (string, error) {
	switch a := m.GetAction().(type) {
	case *rulebookv1.UbongoDuelMove_GiveUp:
		return "giveup", nil
	case *rulebookv1.UbongoDuelMove_CloseDuel:
		return "close", nil
	case *rulebookv1.UbongoDuelMove_Submit:
		placements := a.Submit.GetPlacements()
		if len(placements) == 0 || len(placements) > ubongoMaxPlacements {
			return "", fmt.Errorf("a solution of %d pieces, not 1 to %d", len(placements), ubongoMaxPlacements)
		}
		texts := make([]string, len(placements))
		for i, p := range placements {
			piece := p.GetPiece()
			if len(piece) != 1 || piece[0] < 'A' || piece[0] > 'U' {
				return "", fmt.Errorf("piece %q is not a letter A to U", piece)
			}
			if len(p.GetCells()) == 0 || len(p.GetCells()) > ubongoMaxCells {
				return "", fmt.Errorf("piece %s covers %d squares, not 1 to %d", piece, len(p.GetCells()), ubongoMaxCells)
			}
			words := []string{piece}
			for _, c := range p.GetCells() {
				if c.GetX() < 0 || c.GetY() < 0 || c.GetX() >= ubongoLimit || c.GetY() >= ubongoLimit {
					return "", fmt.Errorf("piece %s covers (%d,%d), off every shape", piece, c.GetX(), c.GetY())
				}
				words = append(words, Square(int(c.GetX()), int(c.GetY())))
			}
			texts[i] = strings.Join(words, " ")
		}
		return strings.Join(texts, "; "), nil
	}
	return "", errors.New("an Ubongo Duel move with no action")
}
