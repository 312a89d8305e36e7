package micropul

import "testing"

// TestTileTotals checks the sanity totals of the rules over the 44 ordinary tiles, and the big micropuls.
func TestTileTotals(t *testing.T) {
	var count [6]int
	var big []int
	for _, tile := range tiles {
		if tile.Big {
			big = append(big, tile.ID)
			continue
		}
		for _, q := range tile.Quads {
			count[q]++
		}
	}
	want := [6]int{Empty: 34, White: 50, Black: 50, One: 28, Two: 6, Plus: 8}
	if count != want {
		t.Errorf("quadrant totals %v, want %v (. W B 1 2 +)", count, want)
	}
	if len(big) != 4 || big[0] != 36 || big[1] != 37 || big[2] != 42 || big[3] != 43 {
		t.Errorf("big micropuls %v, want [36 37 42 43]", big)
	}
	if got := tiles[StartTile].String(); got != "WWBB" {
		t.Errorf("start tile %q, want WWBB", got)
	}
}

// TestRotation checks that a quarter turn moves TL to TR, and the canonical rotations of symmetric tiles.
func TestRotation(t *testing.T) {
	if got := tiles[2].Rotated(1); got != [4]Symbol{Plus, White, Black, Empty} {
		t.Errorf("tile 2 (WB.+) turned once: %v, want +WB.", got)
	}
	for _, c := range []struct {
		id        int
		canonical []bool
	}{
		{0, []bool{true, true, true, true}}, {26, []bool{true, true, false, false}},
		{34, []bool{true, true, false, false}}, {46, []bool{true, false, false, false}},
		{36, []bool{true, false, false, false}}, {40, []bool{true, true, true, true}},
	} {
		for r, want := range c.canonical {
			if got := tiles[c.id].Canonical(r); got != want {
				t.Errorf("tile %d rotation %d canonical = %v, want %v", c.id, r, got, want)
			}
		}
	}
}

// TestReferenceCheck is the rules' reference check: from the lone start tile, every other tile in all 4 rotations at
// the 4 positions next to it gives 244 legal placements, whose catalysts draw 108 tiles and fire + 32 times.
func TestReferenceCheck(t *testing.T) {
	s := newGame(t, DefaultOptions(), 1)
	legal, draws, plus := 0, 0, 0
	for id := range NumTiles {
		if id == StartTile {
			continue
		}
		for r := range 4 {
			for _, at := range []Coord{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
				p := Placed{Tile: id, At: at, Rotation: r}
				if f := fitAt(p.Quads(), at, s.lookup); !f.touches || !f.match || f.conflict {
					continue
				}
				legal++
				for _, a := range activations(p, s.lookup) {
					switch a.Catalyst {
					case One:
						draws++
					case Two:
						draws += 2
					case Plus:
						plus++
					}
				}
			}
		}
	}
	if legal != 244 || draws != 108 || plus != 32 {
		t.Errorf("%d legal placements, %d tiles drawn, %d plus activations; want 244, 108, 32", legal, draws, plus)
	}
}
