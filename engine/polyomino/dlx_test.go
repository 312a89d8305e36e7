package polyomino

import (
	"context"
	"math/rand/v2"
	"testing"
)

// This file is a second independent reference for the solver, and the baseline of its benchmarks: Knuth's Algorithm
// X with dancing links ("Dancing Links", 2000) on the exact cover problem of a tiling, written as in the paper and
// sharing no code with the solver. Its columns are the cells of the shape and the pieces, all primary: every cell is
// covered once and every piece used once, as Count requires. Its rows are the placements: each distinct orientation
// of each piece (plainOrients) at each translation that keeps it inside the shape. The column to cover next is the
// one with the fewest rows left (Knuth's S heuristic), the first such in column order.

// dlx is the dancing-links matrix: node 0 is the root, nodes 1..columns the column headers, the rest one per 1 of the
// matrix; left, right, up and down link the nodes, col is the header of a node's column, and size[c] the rows left
// in column c.
type dlx struct {
	left, right, up, down, col []int
	size                       []int
	// nodes counts the rows tried (pieces placed), solutions the exact covers found.
	nodes     int64
	solutions int
}

// newDLX returns the matrix of the tilings of shape by the pieces of s, each used once.
func newDLX(shape []Cell, s Set) *dlx {
	cellColumn := map[Cell]int{}
	for i, c := range shape {
		cellColumn[c] = 1 + i
	}
	columns := len(shape) + len(s.Pieces)
	d := &dlx{size: make([]int, columns+1)}
	for c := 0; c <= columns; c++ {
		d.left = append(d.left, (c+columns)%(columns+1))
		d.right = append(d.right, (c+1)%(columns+1))
		d.up = append(d.up, c)
		d.down = append(d.down, c)
		d.col = append(d.col, c)
	}
	for p, piece := range s.Pieces {
		for _, o := range plainOrients(piece.Cells, s.Mirror) {
			for _, at := range shape {
				row := []int{1 + len(shape) + p}
				for _, c := range o {
					if k, in := cellColumn[Cell{at.X + c.X - o[0].X, at.Y + c.Y - o[0].Y}]; in {
						row = append(row, k)
					}
				}
				if len(row) == 1+len(o) {
					d.addRow(row)
				}
			}
		}
	}
	return d
}

// addRow appends a row with a 1 in each of columns.
func (d *dlx) addRow(columns []int) {
	first := len(d.col)
	for i, c := range columns {
		n := len(d.col)
		d.col = append(d.col, c)
		d.up = append(d.up, d.up[c])
		d.down = append(d.down, c)
		d.down[d.up[c]] = n
		d.up[c] = n
		d.size[c]++
		d.left = append(d.left, first+(i+len(columns)-1)%len(columns))
		d.right = append(d.right, first+(i+1)%len(columns))
	}
}

// cover removes column c from the header list and every row with a 1 in c from the other columns.
func (d *dlx) cover(c int) {
	d.right[d.left[c]], d.left[d.right[c]] = d.right[c], d.left[c]
	for i := d.down[c]; i != c; i = d.down[i] {
		for j := d.right[i]; j != i; j = d.right[j] {
			d.down[d.up[j]], d.up[d.down[j]] = d.down[j], d.up[j]
			d.size[d.col[j]]--
		}
	}
}

// uncover undoes cover(c), in the reverse order.
func (d *dlx) uncover(c int) {
	for i := d.up[c]; i != c; i = d.up[i] {
		for j := d.left[i]; j != i; j = d.left[j] {
			d.size[d.col[j]]++
			d.down[d.up[j]], d.up[d.down[j]] = j, j
		}
	}
	d.right[d.left[c]], d.left[d.right[c]] = c, c
}

// search adds to d.solutions the exact covers of the columns left.
func (d *dlx) search() {
	if d.right[0] == 0 {
		d.solutions++
		return
	}
	c := d.right[0]
	for j := d.right[c]; j != 0; j = d.right[j] {
		if d.size[j] < d.size[c] {
			c = j
		}
	}
	d.cover(c)
	for r := d.down[c]; r != c; r = d.down[r] {
		d.nodes++
		for j := d.right[r]; j != r; j = d.right[j] {
			d.cover(d.col[j])
		}
		d.search()
		for j := d.left[r]; j != r; j = d.left[j] {
			d.uncover(d.col[j])
		}
	}
	d.uncover(c)
}

// dlxCount returns the number of tilings of shape by the pieces of s, each used exactly once, and the rows tried: 0
// tilings when the pieces' area differs from the shape's.
func dlxCount(shape []Cell, s Set) (tilings int, nodes int64) {
	if s.Area() != len(shape) {
		return 0, 0
	}
	d := newDLX(shape, s)
	d.search()
	return d.solutions, d.nodes
}

// TestDancingLinks checks the dancing-links search against known counts and Count on puzzles larger than the random
// ones: the 3 x 20 rectangle (8 tilings by the 12 pentominoes), the 5 x 6 one by six of them, and the sheets of
// irregular (the Ubongo Duel ones; the 60-cell shapes take the dancing links too long for a test).
func TestDancingLinks(t *testing.T) {
	p := Pentominoes()
	cases := []struct {
		name  string
		shape Cells
		set   Set
	}{
		{"3x20", Rect(20, 3), p},
		{"5x6-FLPTWY", Rect(5, 6), p.Subset(0, 2, 4, 5, 8, 10)},
	}
	for _, c := range irregular {
		if c.plain {
			cases = append(cases, struct {
				name  string
				shape Cells
				set   Set
			}{c.name, mustGrid(t, c.grid), c.set})
		}
	}
	for _, c := range cases {
		want, err := Count(context.Background(), c.shape, c.set, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got, nodes := dlxCount(c.shape, c.set); got != want || nodes == 0 {
			t.Errorf("%s: dancing links count %d in %d nodes, Count %d", c.name, got, nodes, want)
		}
	}
}

// TestCountMatchesDancingLinks compares Count with the dancing-links search on random shapes for sets of 8 or 9
// pieces of 3 to 5 cells, enough for Count to cover pockets first (see pocketPieces) on the shapes that do not fill
// their bounding rectangle, with one worker and with two. It fails if too few cases tile for the comparison to prove
// much.
func TestCountMatchesDancingLinks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pool := smallPieces()[2:]
	cases, tiled := 24, 0
	for i := range cases {
		s := randomSet(rng, pool, 1)
		for len(s.Pieces) < pocketPieces+i%2 {
			s.Pieces = append(s.Pieces, randomSet(rng, pool, 1).Pieces[0])
		}
		shape := randomShape(rng, s.Area(), 8, 8)
		if i%3 == 0 { // a compact blob, more likely to tile
			shape = randomShape(rng, s.Area(), 6, (s.Area()+5)/6+1)
		}
		want, _ := dlxCount(shape, s)
		for _, workers := range []int{1, 2} {
			got, err := Count(context.Background(), shape, s, Options{Workers: workers})
			if err != nil || got != want {
				t.Fatalf("case %d, workers %d: Count = %d, %v; dancing links %d\nshape:\n%s\npieces %v mirror %v",
					i, workers, got, err, want, shape.Grid(), s.Pieces, s.Mirror)
			}
		}
		if want > 0 {
			tiled++
		}
	}
	if tiled < cases/10 {
		t.Errorf("of %d random cases, %d tile: the test is too weak", cases, tiled)
	}
	t.Logf("of %d random cases, %d tile", cases, tiled)
}
