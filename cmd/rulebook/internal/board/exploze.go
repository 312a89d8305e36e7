package board

import (
	"fmt"
	"strconv"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// drawExploze draws the Exploze grid: each cell its owner's letter (A for player 1) and stone count, "." when empty,
// then each player's stones and who is to move.
func drawExploze(p *pen, s *rulebookv1.ExplozeState) {
	rows, cols := int(s.GetOptions().GetRows()), int(s.GetOptions().GetCols())
	p.columnHeader(4, cols, 4, engine.Column)
	for r := range rows {
		p.printf("%3d ", r+1)
		for c := range cols {
			i := r*cols + c
			if i >= len(s.GetCells()) {
				break
			}
			cell := s.GetCells()[i]
			if cell.GetOwner() == 0 {
				p.paint(colorDim, ".   ")
				continue
			}
			text := fmt.Sprintf("%-4s", ownerLetter(cell.GetOwner())+strconv.Itoa(int(cell.GetStones())))
			p.paint(playerColor(cell.GetOwner()), text)
		}
		p.printf("\n")
	}
	stones := make([]int, s.GetOptions().GetPlayers()+1)
	for _, cell := range s.GetCells() {
		if o := int(cell.GetOwner()); o > 0 && o < len(stones) {
			stones[o] += int(cell.GetStones())
		}
	}
	for n := 1; n < len(stones); n++ {
		p.printf("%s ", ownerLetter(int32(n)))
		p.player(int32(n))
		p.printf(": %d %s", stones[n], plural(stones[n], "stone"))
		if stones[n] == 0 && s.GetMovesPlayed() >= uint32(len(stones)-1) {
			p.printf(", out")
		}
		p.printf("\n")
	}
	p.printf("%d moves played. ", s.GetMovesPlayed())
	p.toMoveLine(s.GetToMove())
}

// ownerLetter returns the letter of an Exploze player, A for player 1 as in the rules, or "?" beyond H.
func ownerLetter(player int32) string {
	if player < 1 || player > 8 {
		return "?"
	}
	return string(rune('A' + player - 1))
}

// plural returns noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
