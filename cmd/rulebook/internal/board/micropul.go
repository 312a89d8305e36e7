package board

import (
	"strconv"
	"strings"

	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// micropulStones is the number of stones each player has.
const micropulStones = 3

// micropulEnds says how a game ended, by MicropulEnd.
var micropulEnds = map[rulebookv1.MicropulEnd]string{
	rulebookv1.MicropulEnd_MICROPUL_END_CORE_EMPTY:   "the core is empty",
	rulebookv1.MicropulEnd_MICROPUL_END_OUT_OF_TILES: "a player ran out of tiles",
	rulebookv1.MicropulEnd_MICROPUL_END_BLOCKED:      "nobody can act any more",
}

// micropulPosition is a tile position, x to the right and y downwards from the start tile.
type micropulPosition struct{ x, y int32 }

// drawMicropul draws the Micropul board, a tile a block of 2 x 2 quadrants in columns headed by x and rows headed by
// y (one position more on every side, where tiles may go): each quadrant its symbol (W and B micropuls, 1 and 2 dot
// catalysts, + plus, . nothing), then the mark of the stone on it (x player 1's, o player 2's). Then the hands (the
// tiles themselves where the view shows them), supplies, stones and core, and who is to move.
func drawMicropul(p *pen, s *rulebookv1.MicropulState) {
	tiles := map[micropulPosition]*rulebookv1.MicropulPlacedTile{}
	var lo, hi micropulPosition
	for i, t := range s.GetBoard() {
		at := micropulPosition{t.GetX(), t.GetY()}
		tiles[at] = t
		if i == 0 {
			lo, hi = at, at
		}
		lo.x, lo.y, hi.x, hi.y = min(lo.x, at.x), min(lo.y, at.y), max(hi.x, at.x), max(hi.y, at.y)
	}
	stones := map[micropulPosition]map[rulebookv1.MicropulQuadrant]int32{}
	placed := make([]int, len(s.GetPlayers())+1)
	for _, st := range s.GetStones() {
		at := micropulPosition{st.GetX(), st.GetY()}
		if stones[at] == nil {
			stones[at] = map[rulebookv1.MicropulQuadrant]int32{}
		}
		stones[at][st.GetQuadrant()] = st.GetPlayer()
		if n := int(st.GetPlayer()); n > 0 && n < len(placed) {
			placed[n]++
		}
	}
	p.printf("    ")
	for x := lo.x - 1; x <= hi.x+1; x++ {
		p.printf("%-6s", strconv.Itoa(int(x)))
	}
	p.printf("\n")
	for y := lo.y - 1; y <= hi.y+1; y++ {
		lines := 2
		if y < lo.y || y > hi.y {
			lines = 1 // the row of positions around the board holds no tile
		}
		for line := range lines {
			if line == 0 {
				p.printf("%3d ", y)
			} else {
				p.printf("    ")
			}
			for x := lo.x - 1; x <= hi.x+1; x++ {
				at := micropulPosition{x, y}
				t, ok := tiles[at]
				if !ok {
					p.printf("      ")
					continue
				}
				tile, _ := micropul.TileByID(int(t.GetTile()))
				quads := tile.Rotated(int(t.GetRotation()))
				left, right := 0, 1 // TL and TR on the first line
				if line == 1 {
					left, right = 3, 2 // BL and BR on the second
				}
				drawQuadrant(p, quads[left], stones[at][rulebookv1.MicropulQuadrant(left+1)])
				drawQuadrant(p, quads[right], stones[at][rulebookv1.MicropulQuadrant(right+1)])
				p.printf("  ")
			}
			p.printf("\n")
		}
		if lines == 2 && y < hi.y {
			p.printf("\n")
		}
	}
	p.printf("W B micropuls, 1 2 + catalysts; a stone follows its micropul: x player 1's, o player 2's.\n")
	for i, pl := range s.GetPlayers() {
		n := int32(i + 1)
		p.player(n)
		p.printf(": %d in hand, %d in supply, %d of %d stones left\n", pl.GetHandCount(), pl.GetSupplyCount(),
			micropulStones-placed[n], micropulStones)
		if len(pl.GetHand()) > 0 {
			drawHand(p, pl.GetHand())
		}
	}
	p.printf("Core: %d tiles.\n", s.GetCoreCount())
	if s.GetToMove() == 0 {
		p.printf("The game is over: %s.\n", micropulEnds[s.GetEnd()])
		return
	}
	p.player(s.GetToMove())
	p.printf(" to move")
	if s.GetExtraTurn() {
		p.printf(" (an extra turn, %d more to come)", s.GetExtraTurnsPending())
	}
	p.printf(".\n")
}

// stoneMarks are the marks of the players' stones, from player 1.
const stoneMarks = "xo"

// drawQuadrant writes one quadrant, two characters wide: its symbol, then the mark of the stone on it (x for player
// 1, o for player 2) or a space.
func drawQuadrant(p *pen, symbol micropul.Symbol, stone int32) {
	text := symbol.String()
	switch symbol {
	case micropul.White:
		p.paint(colorBold, text)
	case micropul.Black:
		p.paint("7", text) // reverse video: a dark micropul on a light ground
	case micropul.Empty:
		p.paint(colorDim, text)
	default:
		p.printf("%s", text)
	}
	if stone == 0 {
		p.printf(" ")
		return
	}
	mark := "?"
	if stone <= int32(len(stoneMarks)) {
		mark = stoneMarks[stone-1 : stone]
	}
	p.paint(colorBold+";"+playerColor(stone), mark)
}

// drawHand writes the tiles of a hand side by side, as they lie unturned (r0), each under its name ("t12"); a big
// micropul is named with its centre catalyst ("t36 big +").
func drawHand(p *pen, hand []uint32) {
	var names []string
	for _, id := range hand {
		tile, _ := micropul.TileByID(int(id))
		name := "t" + strconv.Itoa(int(id))
		if tile.Big {
			name += " big " + tile.Centre.String()
		}
		names = append(names, name)
	}
	width := 6
	for _, n := range names {
		width = max(width, len(n)+2)
	}
	p.printf("  ")
	for _, n := range names {
		p.printf("%-*s", width, n)
	}
	p.printf("\n")
	for _, quads := range [2][2]int{{0, 1}, {3, 2}} {
		p.printf("  ")
		for _, id := range hand {
			tile, _ := micropul.TileByID(int(id))
			drawQuadrant(p, tile.Quads[quads[0]], 0)
			drawQuadrant(p, tile.Quads[quads[1]], 0)
			p.printf("%s", strings.Repeat(" ", width-4))
		}
		p.printf("\n")
	}
}
