package polyomino

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkSolution fails t unless sol is a tiling of shape by the pieces of s at the indexes in want (all pieces if want
// is nil), checked cell by cell: each piece used covers cells of the shape in one of its orientations (as the plain
// search computes them), no cell is covered twice, and every cell of the shape is covered.
func checkSolution(t testing.TB, shape Cells, s Set, sol Solution, want []int) {
	t.Helper()
	if len(sol) != len(s.Pieces) {
		t.Fatalf("solution has %d entries for %d pieces", len(sol), len(s.Pieces))
	}
	in := map[Cell]bool{}
	for _, c := range shape {
		in[c] = true
	}
	covered := map[Cell]int{}
	for i, cells := range sol {
		if (want == nil || slices.Contains(want, i)) != (cells != nil) {
			t.Fatalf("piece %d (%s): used %v, want used %v", i, s.Pieces[i].Name, cells != nil, !(cells != nil))
		}
		if cells == nil {
			continue
		}
		key := plainKey(plainShift(cells))
		if !slices.ContainsFunc(plainOrients(s.Pieces[i].Cells, s.Mirror), func(o []Cell) bool { return plainKey(o) == key }) {
			t.Fatalf("piece %d (%s) covers %v, not one of its orientations", i, s.Pieces[i].Name, cells)
		}
		for _, c := range cells {
			if !in[c] {
				t.Fatalf("piece %d covers %v outside the shape", i, c)
			}
			covered[c]++
			if covered[c] > 1 {
				t.Fatalf("cell %v covered twice", c)
			}
		}
	}
	if len(covered) != len(in) {
		t.Fatalf("%d of %d cells covered", len(covered), len(in))
	}
}

// reasonOf returns the reason of err if it is an *Error, or "".
func reasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// smallPieces is a pool for random tests: every free polyomino of 1 to 4 cells, and three pentominoes.
func smallPieces() []Piece {
	return []Piece{
		{"1", Cells{{0, 0}}},
		{"2", Cells{{0, 0}, {1, 0}}},
		{"3I", Cells{{0, 0}, {1, 0}, {2, 0}}},
		{"3L", Cells{{0, 0}, {0, 1}, {1, 1}}},
		{"4I", Cells{{0, 0}, {1, 0}, {2, 0}, {3, 0}}},
		{"4O", Cells{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},
		{"4T", Cells{{0, 0}, {1, 0}, {2, 0}, {1, 1}}},
		{"4L", Cells{{0, 0}, {0, 1}, {0, 2}, {1, 2}}},
		{"4S", Cells{{1, 0}, {2, 0}, {0, 1}, {1, 1}}},
		{"5F", Cells{{1, 0}, {2, 0}, {0, 1}, {1, 1}, {1, 2}}},
		{"5P", Cells{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}}},
		{"5N", Cells{{1, 0}, {1, 1}, {0, 2}, {1, 2}, {0, 3}}},
	}
}

// randomShape returns n cells grown at random from a random cell inside a w x h box (n <= w*h); with probability 1/4
// it grows two separate blobs instead (the shape may then be disconnected or have holes).
func randomShape(rng *rand.Rand, n, w, h int) Cells {
	if n > w*h {
		panic("randomShape: the box is too small")
	}
	in := map[Cell]bool{}
	var out Cells
	add := func(c Cell) {
		in[c] = true
		out = append(out, c)
	}
	add(Cell{rng.IntN(w), rng.IntN(h)})
	for len(out) < n {
		var c Cell
		if rng.IntN(4) == 0 && len(out) == n/2 {
			c = Cell{rng.IntN(w), rng.IntN(h)}
		} else {
			from := out[rng.IntN(len(out))]
			d := [4]Cell{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}[rng.IntN(4)]
			c = Cell{from.X + d.X, from.Y + d.Y}
		}
		if c.X < 0 || c.Y < 0 || c.X >= w || c.Y >= h || in[c] {
			continue
		}
		add(c)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// randomSet returns between 1 and maxPieces pieces drawn from pool (a piece may come twice), each moved and turned at
// random, and Mirror set at random.
func randomSet(rng *rand.Rand, pool []Piece, maxPieces int) Set {
	s := Set{Name: "random", Mirror: rng.IntN(2) == 0}
	for range 1 + rng.IntN(maxPieces) {
		p := pool[rng.IntN(len(pool))]
		cells := image(p.Cells, rng.IntN(8))
		dx, dy := rng.IntN(7)-3, rng.IntN(7)-3
		for i := range cells {
			cells[i].X += dx
			cells[i].Y += dy
		}
		s.Pieces = append(s.Pieces, Piece{Name: p.Name, Cells: cells})
	}
	return s
}
