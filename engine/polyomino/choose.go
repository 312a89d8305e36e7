package polyomino

import (
	"math"
	"math/bits"
	"slices"
)

// chooseDepth bounds the shallow nodes of Count's search on the shapes where it covers pockets first (see
// board.addPockets): while fewer than chooseDepth pieces are placed, it covers the cell with the fewest placements left
// or places the piece with the fewest, whichever has fewer (Knuth's S heuristic, see search.choose). Counting the
// placements costs several hundred nanoseconds a node, several times a node of the scan, but the few shallow nodes
// decide how wide the whole search below them is; deeper, where the nodes are many and their subtrees small, the scan
// is cheaper. 6 was the fastest of 5, 6, 7, 8, 9 and 12 on the 60-cell shapes of the benchmarks (BENCHMARKS.md,
// 2026-12-01).
const chooseDepth = 6

// fitTable holds, for a board on a rectangle layout, the orientations of every piece as masks to shift over the board:
// what search.choose needs to find every placement that still fits a board in a few operations per orientation.
type fitTable struct {
	// orientStart[p]:orientStart[p+1] index the orientations of piece p that fit the layout somewhere.
	orientStart []int32
	// mask[o] is orientation o placed with its first cell on bit 0, and valid[o] the bits it may be shifted to (the
	// placement there lies inside the shape). Two orientations whose masks are equal (one placed across the end of a
	// line) are one entry, valid on the bits of both: the masks are the cells covered, so the placements are the same.
	mask, valid []uint64
	// offsets[cellStart[o]:cellStart[o+1]] are the bits of mask[o] but bit 0.
	cellStart []int32
	offsets   []uint8
	// covering[o*cells+c], cells being the layout's, are the valid bits of orientation o whose placement covers c.
	covering []uint64
	cells    int
}

// newFitTable returns the fitTable of b, read off its placements: those of one orientation are one mask shifted, by
// the bit of their first cell.
func (b *board) newFitTable() *fitTable {
	t := &fitTable{orientStart: []int32{0}, cellStart: []int32{0}}
	for _, ms := range b.placements {
		first := len(t.mask)
		for _, m := range ms {
			at := bits.TrailingZeros64(m)
			o := first + slices.Index(t.mask[first:], m>>at)
			if o < first {
				o = len(t.mask)
				t.mask = append(t.mask, m>>at)
				t.valid = append(t.valid, 0)
				for rest := m >> at &^ 1; rest != 0; rest &= rest - 1 {
					t.offsets = append(t.offsets, uint8(bits.TrailingZeros64(rest)))
				}
				t.cellStart = append(t.cellStart, int32(len(t.offsets)))
			}
			t.valid[o] |= 1 << at
		}
		t.orientStart = append(t.orientStart, int32(len(t.mask)))
	}
	t.cells = len(b.cells)
	t.covering = make([]uint64, len(t.mask)*t.cells)
	for o, m := range t.mask {
		for v := t.valid[o]; v != 0; v &= v - 1 {
			at := bits.TrailingZeros64(v)
			for rest := m << at; rest != 0; rest &= rest - 1 {
				t.covering[o*t.cells+bits.TrailingZeros64(rest)] |= 1 << at
			}
		}
	}
	return t
}

// tally counts, for every bit of a board at once, how many of the masks added so far cover it, up to 15: planes[k]
// holds bit k of the counts, and over the bits covered 16 times or more.
type tally struct {
	planes [4]uint64
	over   uint64
}

// add counts the bits of x once more, as a ripple-carry addition on the planes.
func (t *tally) add(x uint64) {
	c := t.planes[0] & x
	t.planes[0] ^= x
	x = c
	c = t.planes[1] & x
	t.planes[1] ^= x
	x = c
	c = t.planes[2] & x
	t.planes[2] ^= x
	x = c
	c = t.planes[3] & x
	t.planes[3] ^= x
	t.over |= c
}

// fewest returns a bit of among with the least count and that count (16 standing for 16 or more): the first in scan
// order.
func (t *tally) fewest(among uint64) (bit, n int) {
	cand := among &^ t.over
	if cand == 0 {
		return bits.TrailingZeros64(among), 16
	}
	for k := len(t.planes) - 1; k >= 0; k-- {
		if z := cand &^ t.planes[k]; z != 0 {
			cand = z
		} else {
			n |= 1 << k
		}
	}
	return bits.TrailingZeros64(cand), n
}

// choose counts, as count does, the tilings that complete board with the pieces not in used, d = |used| being below
// chooseDepth, but branches as Knuth's S heuristic does: it finds every placement that still fits (for each
// orientation of each unused piece, the bits where it may go, in a shift and an AND per cell), counts them per empty
// cell and per piece, and tries every placement covering the cell with the fewest, or every placement of the piece
// with the fewest if that is fewer (the first such cell in scan order, the first such piece, the cell on a tie). A
// cell or a piece with none left is a dead end, found without placing anything. Its children are nodes as count's
// are, through countWith, so the nodes it explores do not depend on the workers either.
func (s *search) choose(board, used uint64, d int) {
	t := s.b.fit
	e := s.b.full &^ board
	fits := s.fits[d*len(t.mask) : (d+1)*len(t.mask)]
	var cover tally
	piece, pieceFits := -1, math.MaxInt
	unused := s.allowed &^ used
	for rem := unused; rem != 0; rem &= rem - 1 {
		p := bits.TrailingZeros64(rem)
		n := 0
		for o := t.orientStart[p]; o < t.orientStart[p+1]; o++ {
			offs := t.offsets[t.cellStart[o]:t.cellStart[o+1]]
			f := t.valid[o] & e
			for _, off := range offs {
				f &= e >> off
			}
			fits[o] = f
			if f == 0 {
				continue
			}
			n += bits.OnesCount64(f)
			cover.add(f)
			for _, off := range offs {
				cover.add(f << off)
			}
		}
		if n == 0 {
			return
		}
		if n < pieceFits {
			piece, pieceFits = p, n
		}
	}
	cell, cellFits := cover.fewest(e)
	if cellFits == 0 {
		return
	}
	if pieceFits < cellFits {
		s.branchPiece(board, used, piece, fits)
		return
	}
	s.branchCell(board, used, cell, fits)
}

// branchPiece tries every placement of piece that fits board, fits being as choose leaves them.
func (s *search) branchPiece(board, used uint64, piece int, fits []uint64) {
	t := s.b.fit
	for o := t.orientStart[piece]; o < t.orientStart[piece+1]; o++ {
		for f := fits[o]; f != 0; f &= f - 1 {
			if s.countWith(board|t.mask[o]<<bits.TrailingZeros64(f), used|1<<piece) {
				return
			}
		}
	}
}

// branchCell tries every placement of an unused piece that fits board and covers cell, fits being as choose leaves
// them.
func (s *search) branchCell(board, used uint64, cell int, fits []uint64) {
	t := s.b.fit
	for rem := s.allowed &^ used; rem != 0; rem &= rem - 1 {
		p := bits.TrailingZeros64(rem)
		for o := t.orientStart[p]; o < t.orientStart[p+1]; o++ {
			for at := fits[o] & t.covering[int(o)*t.cells+cell]; at != 0; at &= at - 1 {
				if s.countWith(board|t.mask[o]<<bits.TrailingZeros64(at), used|1<<p) {
					return
				}
			}
		}
	}
}
