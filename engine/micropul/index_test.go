package micropul

import (
	"math"
	"testing"
)

// TestIndex checks that an index finds each tile of its board and nothing elsewhere: inside its rectangle, on its
// edges, beyond them and as far as a message's coordinates go, for boards whose positions out of range are left out
// of the rectangle.
func TestIndex(t *testing.T) {
	farAway := []Coord{{math.MaxInt32, 0}, {0, math.MaxInt32}, {math.MinInt32, math.MinInt32}, {1, math.MaxInt32 / 2},
		{math.MaxInt32 / 2, 1}}
	cases := []struct {
		name  string
		board []Placed
		cells int
	}{
		{"start tile", []Placed{{Tile: StartTile}}, 1},
		{"L shape", []Placed{{Tile: StartTile}, {Tile: 1, At: Coord{1, 0}}, {Tile: 2, At: Coord{1, -2}}}, 6},
		{"far corners", []Placed{{Tile: StartTile}, {Tile: 1, At: Coord{-MaxCoord, MaxCoord}}}, 48 * 48},
		{"out of range left out", []Placed{{Tile: StartTile}, {Tile: 1, At: Coord{MaxCoord + 1, 0}},
			{Tile: 2, At: Coord{0, -MaxCoord - 5}}}, 1},
		{"empty", nil, 0},
	}
	for _, c := range cases {
		x := emptyIndex(c.board)
		if len(x.cells) != c.cells {
			t.Errorf("%s: %d cells, want %d", c.name, len(x.cells), c.cells)
		}
		want := map[Coord]int{}
		for i, p := range c.board {
			if p.At.inRange() {
				x.set(p.At, i)
				want[p.At] = i
			}
		}
		for _, far := range farAway {
			if x.has(far) {
				t.Errorf("%s: a tile at %v", c.name, far)
			}
		}
		for y := -MaxCoord - 6; y <= MaxCoord+6; y++ {
			for xc := -MaxCoord - 6; xc <= MaxCoord+6; xc++ {
				at := Coord{xc, y}
				i, ok := x.at(at)
				if w, wok := want[at]; ok != wok || i != w || x.has(at) != wok {
					t.Errorf("%s: at %v = %d, %v; want %d, %v", c.name, at, i, ok, w, wok)
				}
			}
		}
	}
}
