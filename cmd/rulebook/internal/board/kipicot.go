package board

import (
	"strconv"
	"strings"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// kipicotSide is the side of the Kipicot board.
const kipicotSide = 5

// kipicotPhases names the steps of a turn, by KipicotPhase.
var kipicotPhases = map[rulebookv1.KipicotPhase]string{
	rulebookv1.KipicotPhase_KIPICOT_PHASE_OPTIONAL_MOVE: "step 1, an optional token move (or skip)",
	rulebookv1.KipicotPhase_KIPICOT_PHASE_ACTION:        "step 2, a placement from the supply or a token move",
	rulebookv1.KipicotPhase_KIPICOT_PHASE_PAWN:          "step 3, the pawn",
	rulebookv1.KipicotPhase_KIPICOT_PHASE_FISHING:       "the choice of a fishing square",
}

// drawKipicot draws the Kipicot board: each square its tokens bottom first (r red, y yellow) and the pawn standing
// on them (1 or 2), "." when empty; then the blocks whose diagonals are each of one colour (a fishing square for a
// pawn in it, unless the opponent's pawn is across), the supply, the catches, and the step of the turn.
func drawKipicot(p *pen, s *rulebookv1.KipicotState) {
	squares := s.GetSquares()
	p.columnHeader(4, kipicotSide, 5, engine.Column)
	for r := range kipicotSide {
		p.printf("%3d ", r+1)
		for c := range kipicotSide {
			i := r*kipicotSide + c
			if i >= len(squares) {
				break
			}
			drawKipicotSquare(p, squares[i])
		}
		p.printf("\n")
	}
	p.printf("r red, y yellow token (a stack bottom first); 1 2 the pawn on it.\n")
	if blocks := kipicotBlocks(squares); len(blocks) > 0 {
		p.printf("Blocks with one-colour diagonals: %s\n", strings.Join(blocks, ", "))
	}
	p.printf("Supply: %d red, %d yellow.\n", s.GetSupplyRed(), s.GetSupplyYellow())
	for i, c := range s.GetCaptured() {
		p.player(int32(i + 1))
		p.printf(" has caught %d red, %d yellow.\n", c.GetRed(), c.GetYellow())
	}
	if s.GetToMove() == 0 {
		p.toMoveLine(0)
		return
	}
	p.player(s.GetToMove())
	p.printf(" to move: %s.\n", kipicotPhases[s.GetPhase()])
}

// drawKipicotSquare writes one square, five characters wide.
func drawKipicotSquare(p *pen, sq *rulebookv1.KipicotSquare) {
	if len(sq.GetTokens()) == 0 {
		p.paint(colorDim, ".    ")
		return
	}
	width := 0
	for _, t := range sq.GetTokens() {
		switch t {
		case rulebookv1.KipicotColor_KIPICOT_COLOR_RED:
			p.paint(colorRed, "r")
		case rulebookv1.KipicotColor_KIPICOT_COLOR_YELLOW:
			p.paint(colorYellow, "y")
		default:
			p.printf("?")
		}
		width++
	}
	if pawn := sq.GetPawn(); pawn != 0 {
		p.paint(colorBold+";"+playerColor(pawn), strconv.Itoa(int(pawn)))
		width++
	}
	p.printf("%s", strings.Repeat(" ", 5-width))
}

// kipicotBlocks returns the top-left squares of the 2 x 2 blocks of squares that all hold tokens and whose
// diagonals are each of one colour (a square's colour is its top token's), in row-major order.
func kipicotBlocks(squares []*rulebookv1.KipicotSquare) []string {
	if len(squares) != kipicotSide*kipicotSide {
		return nil
	}
	top := func(r, c int) rulebookv1.KipicotColor {
		tokens := squares[r*kipicotSide+c].GetTokens()
		if len(tokens) == 0 {
			return rulebookv1.KipicotColor_KIPICOT_COLOR_UNSPECIFIED
		}
		return tokens[len(tokens)-1]
	}
	var blocks []string
	for r := range kipicotSide - 1 {
		for c := range kipicotSide - 1 {
			a, b, d, e := top(r, c), top(r, c+1), top(r+1, c), top(r+1, c+1)
			empty := rulebookv1.KipicotColor_KIPICOT_COLOR_UNSPECIFIED
			if a != empty && b != empty && d != empty && e != empty && a == e && b == d {
				blocks = append(blocks, engine.Square(c, r))
			}
		}
	}
	return blocks
}
