package polyomino

import (
	"context"
	"math/bits"
	"slices"
	"testing"
)

// TestTally checks the bit-sliced counts against counts kept cell by cell: the cell fewest returns has the least
// count among those asked, the first such, and its count, 16 standing for 16 or more.
func TestTally(t *testing.T) {
	for _, c := range []struct {
		name  string
		adds  []uint64
		among uint64
		bit   int
		n     int
	}{
		{"nothing added", nil, 0b1100, 2, 0},
		{"one mask", []uint64{0b0110}, 0b0111, 0, 0},
		{"counts 2 1 3", []uint64{0b111, 0b101, 0b100}, 0b111, 1, 1},
		{"tie goes to the first", []uint64{0b1010, 0b1111}, 0b1111, 0, 1},
		{"the rest asked", []uint64{0b0001, 0b0001, 0b1110}, 0b1001, 3, 1},
		{"sixteen and more", slices.Repeat([]uint64{0b11}, 20), 0b11, 0, 16},
		{"below sixteen wins", append(slices.Repeat([]uint64{0b11}, 20), slices.Repeat([]uint64{0b100}, 15)...), 0b111, 2, 15},
	} {
		var tl tally
		for _, x := range c.adds {
			tl.add(x)
		}
		if bit, n := tl.fewest(c.among); bit != c.bit || n != c.n {
			t.Errorf("%s: fewest = bit %d, count %d; want bit %d, count %d", c.name, bit, n, c.bit, c.n)
		}
	}
}

// TestFitTable checks that a board's fitTable describes exactly its placements: the masks of each piece's
// orientations shifted onto their valid bits are its placements, each once, and the bits covering each cell are those
// of the placements that cover it.
func TestFitTable(t *testing.T) {
	for _, c := range irregular {
		b, err := newBoard(mustGrid(t, c.grid), c.set)
		if err != nil {
			t.Fatal(err)
		}
		ft := b.newFitTable()
		for p, want := range b.placements {
			var got []uint64
			for o := ft.orientStart[p]; o < ft.orientStart[p+1]; o++ {
				offsets := ft.offsets[ft.cellStart[o]:ft.cellStart[o+1]]
				if ft.mask[o]&1 == 0 || bits.OnesCount64(ft.mask[o]) != 1+len(offsets) {
					t.Fatalf("%s, piece %d, orientation %d: mask %b, offsets %v", c.name, p, o, ft.mask[o], offsets)
				}
				var covering [64]uint64
				for v := ft.valid[o]; v != 0; v &= v - 1 {
					m := ft.mask[o] << bits.TrailingZeros64(v)
					got = append(got, m)
					for rest := m; rest != 0; rest &= rest - 1 {
						covering[bits.TrailingZeros64(rest)] |= v & -v
					}
				}
				if !slices.Equal(covering[:ft.cells], ft.covering[int(o)*ft.cells:int(o+1)*ft.cells]) {
					t.Errorf("%s, piece %d, orientation %d: the placements covering each cell differ", c.name, p, o)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s, piece %d: the fit table gives %d placements, the board %d", c.name, p, len(got), len(want))
			}
		}
	}
}

// TestChooseNodes checks, on a shape whose first pieces Count chooses by their placements (a wall, 8 pieces), that it
// finds the tilings the dancing links do and explores the same nodes whatever its workers, and that the node limit
// it needs passes and one less fails, for any number of workers.
func TestChooseNodes(t *testing.T) {
	shape := mustGrid(t, "..####|######|######|######|######|######|######")
	set := Pentominoes().Subset(0, 1, 2, 3, 4, 5, 6, 7)
	b, err := newBoard(shape, set)
	if err != nil {
		t.Fatal(err)
	}
	if b.addPockets(); b.fit == nil {
		t.Fatal("the shape does not take the search that chooses")
	}
	want, _ := dlxCount(shape, set)
	if want == 0 {
		t.Fatal("the shape has no tiling: the test proves little")
	}
	need := nodesNeeded(t, shape, set)
	for _, workers := range []int{1, 2, 3} {
		var explored int64
		n, err := Count(context.Background(), shape, set, Options{Workers: workers, Explored: &explored})
		if err != nil || n != want || explored != need {
			t.Errorf("workers %d: Count = %d, %v in %d nodes; want %d in %d", workers, n, err, explored, want, need)
		}
		if _, err := Count(context.Background(), shape, set, Options{Workers: workers, NodeLimit: need - 1}); reasonOf(err) != ReasonNodeLimitReached {
			t.Errorf("workers %d, limit %d: %v; want %s", workers, need-1, err, ReasonNodeLimitReached)
		}
	}
}
