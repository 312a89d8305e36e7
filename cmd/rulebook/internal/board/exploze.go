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
	owners, counts := s.GetOwners(), s.GetStones()
	p.columnHeader(4, cols, 4, engine.Column)
	for r := range rows {
		p.printf("%3d ", r+1)
		for c := range cols {
			i := r*cols + c
			if i >= len(owners) || i >= len(counts) {
				break
			}
			if owners[i] == 0 {
				p.paint(colorDim, ".   ")
				continue
			}
			p.paint(playerColor(owners[i]), fmt.Sprintf("%-4s", ownerLetter(owners[i])+strconv.Itoa(int(counts[i]))))
		}
		p.printf("\n")
	}
	stones := make([]int, s.GetOptions().GetPlayers()+1)
	for i, o := range owners {
		if o > 0 && int(o) < len(stones) && i < len(counts) {
			stones[o] += int(counts[i])
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
