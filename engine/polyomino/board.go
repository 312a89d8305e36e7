package polyomino

import (
	"math/bits"
	"slices"
)

// pocketPieces is the fewest pieces for which Count chooses its first pieces and covers pockets first on a shape
// that does not fill its bounding rectangle (see search.choose and search.count). With fewer, as on Ubongo Duel's
// sheets, the search is a few hundred nodes and most of the time goes into the tables; on a rectangle, whose scan
// lines are its shorter side, the first empty cell makes a smaller search (BENCHMARKS.md, 2026-12-01).
const pocketPieces = 8

// window is how many cells after the first empty one select a placement list: the lists for a cell and a piece are
// filtered by which of the next window cells are filled, so most placements that do not fit are never tried.
const window = 6

// board is a shape mapped to the bits of a uint64, with every placement of every piece of a set precomputed as a
// mask. It is read-only once built, so searches on several goroutines share it.
//
// When the shape's bounding rectangle has at most 64 cells, bit k is a cell of that rectangle, scanned line by line
// (rows or columns, see newBoard), and the cells of the rectangle outside the shape are walls, filled from the start;
// neighbours are then bit shifts, which frontier uses. Otherwise bit k is the k-th cell of the shape in scan order.
type board struct {
	// cells[k] is the cell of bit k (for a rectangle layout, walls included).
	cells Cells
	// full has one bit per cell of the layout; walls are those of its cells outside the shape, the board a search
	// starts from.
	full, walls uint64
	// line is the length of a scan line of a rectangle layout (0 for the compact one); first and last are the cells
	// at the start and at the end of a line.
	line        int
	first, last uint64
	// pieces is the number of pieces; sizes holds their areas, and minSize the smallest.
	pieces  int
	sizes   []int
	minSize int
	// anchored[i*pieces+p] holds the placements of piece p (at most one per orientation, inside the shape) whose
	// first cell in scan order is cell i, in the order of its orientations; fitting[(i*pieces+p)<<window | pat]
	// selects among them (bit t for the t-th) those that leave free the cells filled among the window cells after i,
	// whose pattern is pat.
	anchored [][maxOrientations]uint64
	fitting  []uint8
	// On a rectangle layout, pocketMasks[pocketStart[k]:pocketStart[k+1]], k = (c*pieces+p)<<2 | d, are the
	// placements of piece p that cover cell c and none of its neighbours but the one in direction d (see
	// neighbourDirection): those that may cover c when that neighbour is its only empty one, a pocket (see count).
	pocketStart []int32
	pocketMasks []uint64
	// pockets are the cells Count may cover before the first empty one when they are pockets (see search.count):
	// the shape's cells, set by addPockets, or none.
	pockets uint64
	// fit is set with pockets: the search chooses its first chooseDepth pieces with it (see search.choose).
	fit *fitTable
	// placements[p] is every placement of piece p, in increasing order of masks.
	placements [][]uint64
	// symmetries are the permutations of the bits that map the shape onto itself under a rotation, or a reflection
	// when pieces may be turned over: each maps every tiling to a tiling. The identity is first.
	symmetries [][]int
}

// checkShape returns an *Error if shape cannot be searched: no cell, more than MaxShapeCells, a duplicate cell or a
// coordinate out of range.
func checkShape(shape Cells) error {
	switch {
	case len(shape) == 0:
		return errorf(ReasonEmptyShape, "the shape has no cell")
	case len(shape) > MaxShapeCells:
		return errorf(ReasonShapeTooLarge, "the shape has %d cells, more than the %d a search handles", len(shape), MaxShapeCells)
	}
	return checkCells(shape, "the shape")
}

// CheckShape returns the *Error that Count, Find and TilingSubsets would return for shape, or nil: shape must have
// from 1 to MaxShapeCells cells, each listed once, with coordinates within MaxCoord.
func CheckShape(shape Cells) error { return checkShape(shape) }

// newBoard checks shape and set and builds their board.
//
// The scan order decides which cell the search covers next (the first empty one), so it decides the search's width:
// cells are scanned along the shorter side of the shape's bounding rectangle, row by row (reading order) when the
// shape is at most as wide as it is tall, and column by column when it is wider. A 10 x 6 rectangle is scanned by
// columns of 6 cells, which leaves far fewer dead ends than rows of 10.
func newBoard(shape Cells, set Set) (*board, error) {
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	if err := set.Check(); err != nil {
		return nil, err
	}
	b := &board{pieces: len(set.Pieces)}
	for _, p := range set.Pieces {
		b.sizes = append(b.sizes, len(p.Cells))
	}
	b.minSize = slices.Min(b.sizes)

	w, h := shape.Bounds()
	byColumns := w > h
	order := compareReading
	if byColumns {
		order = compareColumns
	}
	var index *cellIndex
	if w*h <= 64 {
		minX := slices.MinFunc(shape, compareColumns).X
		minY := slices.MinFunc(shape, compareReading).Y
		// The shape's cells are marked first (as bit 0), then given their bits in scan order.
		index = newGridIndex(minX, minY, w, h)
		for _, c := range shape {
			index.set(c, 0)
		}
		lines := h
		b.line = w
		if byColumns {
			b.line, lines = h, w
		}
		b.full = ^uint64(0) >> (64 - b.line*lines)
		for k := range b.line * lines {
			along, across := k%b.line, k/b.line
			c := Cell{minX + along, minY + across}
			if byColumns {
				c = Cell{minX + across, minY + along}
			}
			b.cells = append(b.cells, c)
			if along == 0 {
				b.first |= 1 << k
			}
			if along == b.line-1 {
				b.last |= 1 << k
			}
			if _, in := index.bit(c); in {
				index.set(c, k)
			} else {
				b.walls |= 1 << k
			}
		}
	} else {
		b.cells = slices.SortedFunc(slices.Values(shape), order)
		b.full = ^uint64(0) >> (64 - len(shape))
		index = newMapIndex(len(shape))
		for k, c := range b.cells {
			index.set(c, k)
		}
	}

	b.anchored = make([][maxOrientations]uint64, len(b.cells)*b.pieces)
	counts := make([]uint8, len(b.anchored)) // counts[j]: the placements in anchored[j]
	for p, piece := range set.Pieces {
		if len(piece.Cells) > len(shape) {
			continue
		}
		for _, o := range piece.Orientations(set.Mirror) {
			pl := b.newPlacer(o, byColumns, index)
			for i := range b.cells {
				if m := pl.at(i); m != 0 {
					j := i*b.pieces + p
					b.anchored[j][counts[j]] = m
					counts[j]++
				}
			}
		}
	}
	b.placements = make([][]uint64, b.pieces)
	for j, n := range counts {
		b.placements[j%b.pieces] = append(b.placements[j%b.pieces], b.anchored[j][:n]...)
	}
	for _, ms := range b.placements {
		slices.Sort(ms)
	}
	b.symmetries = symmetries(shape, set.Mirror, b.cells, index)
	b.fitting = fittingLists(b.anchored, counts, b.pieces)
	return b, nil
}

// neighbours returns the bits of the neighbours of cell c on a rectangle layout, in the directions of
// neighbourDirection (0 where there is none).
func (b *board) neighbours(c int) [4]uint64 {
	var n [4]uint64
	bit := uint64(1) << c
	if bit&b.last == 0 {
		n[0] = bit << 1
	}
	if bit&b.first == 0 {
		n[1] = bit >> 1
	}
	n[2] = bit << b.line & b.full
	n[3] = bit >> b.line
	return n
}

// neighbourDirection returns the direction of the only empty neighbour of cell c of board on a rectangle layout: 0
// for the next cell along the line, 1 the previous one, 2 the cell of the next line, 3 that of the previous line.
func (b *board) neighbourDirection(board uint64, c int) int {
	for d, n := range b.neighbours(c) {
		if n != 0 && board&n == 0 {
			return d
		}
	}
	return 0
}

// addPockets lets Count's search on b choose its first pieces by their placements (see search.choose) and then cover
// pockets first (see search.count) if the layout is a rectangle with walls and there are at least pocketPieces
// pieces: it sets the pockets, pocketStart, pocketMasks and fit fields.
func (b *board) addPockets() {
	if b.line > 0 && b.walls != 0 && b.pieces >= pocketPieces {
		b.pockets = b.full &^ b.walls
		b.pocketStart, b.pocketMasks = b.pocketLists()
		b.fit = b.newFitTable()
	}
}

// pocketLists returns the pocketStart and pocketMasks fields of a board on a rectangle layout (see board).
func (b *board) pocketLists() ([]int32, []uint64) {
	covering := make([][]uint64, len(b.cells)*b.pieces) // covering[c*pieces+p]: the placements of p covering c
	for p, ms := range b.placements {
		for _, m := range ms {
			for rest := m; rest != 0; rest &= rest - 1 {
				c := bits.TrailingZeros64(rest)
				covering[c*b.pieces+p] = append(covering[c*b.pieces+p], m)
			}
		}
	}
	start := make([]int32, 1, len(covering)<<2+1)
	var masks []uint64
	for j, ms := range covering {
		n := b.neighbours(j / b.pieces)
		for d := range n {
			others := (n[0] | n[1] | n[2] | n[3]) &^ n[d]
			for _, m := range ms {
				if m&others == 0 {
					masks = append(masks, m)
				}
			}
			start = append(start, int32(len(masks)))
		}
	}
	return start, masks
}

// placer places one orientation of a piece with its first cell in scan order on any bit of a layout.
type placer struct {
	b     *board
	index *cellIndex
	o     Cells
	first Cell
	// On a rectangle layout, mask is the placement on bit 0, and along and across bound the offsets of its cells
	// from the first along and across the lines; never is set if it is larger than the layout.
	mask                          uint64
	minAlong, maxAlong, maxAcross int
	never                         bool
}

// newPlacer returns the placer of orientation o on b, whose layout is by columns if byColumns, with index.
func (b *board) newPlacer(o Cells, byColumns bool, index *cellIndex) placer {
	order := compareReading
	if byColumns {
		order = compareColumns
	}
	pl := placer{b: b, index: index, o: o, first: slices.MinFunc(o, order)}
	if b.line == 0 {
		return pl
	}
	for _, x := range o {
		along, across := x.X-pl.first.X, x.Y-pl.first.Y
		if byColumns {
			along, across = across, along
		}
		if along <= -b.line || along >= b.line || across >= len(b.cells)/b.line {
			pl.never = true
			return pl
		}
		pl.minAlong, pl.maxAlong, pl.maxAcross = min(pl.minAlong, along), max(pl.maxAlong, along), max(pl.maxAcross, across)
		pl.mask |= 1 << (across*b.line + along)
	}
	return pl
}

// at returns the mask of the orientation placed with its first cell on bit i, or 0 if it does not lie inside the
// shape. On a rectangle layout it is the placement on bit 0 shifted by i, if that neither crosses the end of a line
// nor covers a wall; on the compact one, each cell is looked up.
func (pl *placer) at(i int) uint64 {
	b := pl.b
	if b.line == 0 {
		dx, dy := b.cells[i].X-pl.first.X, b.cells[i].Y-pl.first.Y
		var m uint64
		for _, x := range pl.o {
			k, ok := pl.index.bit(Cell{x.X + dx, x.Y + dy})
			if !ok {
				return 0
			}
			m |= 1 << k
		}
		return m
	}
	along, across := i%b.line, i/b.line
	if pl.never || along+pl.minAlong < 0 || along+pl.maxAlong >= b.line || (across+pl.maxAcross)*b.line >= len(b.cells) {
		return 0
	}
	if m := pl.mask << i; m&b.walls == 0 {
		return m
	}
	return 0
}

// fittingLists returns the fitting field of a board (see board) from its anchored field, counts[j] being the number
// of placements in anchored[j]. The placements that fit a pattern are all of them less those covering one of its
// cells; the pattern is split into its low and high halves, whose covering placements are tabulated first.
func fittingLists(anchored [][maxOrientations]uint64, counts []uint8, pieces int) []uint8 {
	const low = window / 2
	fitting := make([]uint8, len(anchored)<<window)
	for j, n := range counts {
		if n == 0 {
			continue
		}
		// covering[k][h]: the placements covering a cell of the pattern h of half k (bit c for window cell c+k*low).
		var covering [2][1 << (window - low)]uint8
		for t, m := range anchored[j][:n] {
			covers := int(m>>(j/pieces+1)) & (1<<window - 1) // the window cells m covers
			for h := range 1 << low {
				if covers&h != 0 {
					covering[0][h] |= 1 << t
				}
			}
			for h := range 1 << (window - low) {
				if (covers>>low)&h != 0 {
					covering[1][h] |= 1 << t
				}
			}
		}
		all := uint8(1<<n - 1)
		sel := fitting[j<<window : (j+1)<<window]
		for pat := range sel {
			sel[pat] = all &^ (covering[0][pat&(1<<low-1)] | covering[1][pat>>low])
		}
	}
	return fitting
}

// frontier reports whether the empty cells of board include a region no remaining piece can fill: a closed region
// of one cell when every piece has two or more, or of two cells when every piece has three or more. It also returns
// the pockets of board among b.pockets: its empty cells with exactly one empty neighbour. It checks the whole board in
// a few shifts, and only on a rectangle layout (it returns false and no pockets on the compact one).
func (b *board) frontier(board uint64) (dead bool, pockets uint64) {
	if b.line == 0 {
		return false, 0
	}
	e := b.full &^ board
	// n1..n4 are the cells whose next, previous, following-line and preceding-line neighbour is empty.
	n1 := (e >> 1) &^ b.last
	n2 := (e << 1) &^ b.first
	n3 := e >> b.line
	n4 := e << b.line
	if b.minSize >= 2 && e&^(n1|n2|n3|n4) != 0 {
		return true, 0
	}
	atLeastTwo := n1&n2 | n3&n4 | (n1|n2)&(n3|n4)
	x := e & (n1 ^ n2 ^ n3 ^ n4) &^ atLeastTwo
	// Two pockets next to each other are a closed pair.
	if b.minSize >= 3 && x&((x>>1)&^b.last|(x<<1)&^b.first|x>>b.line|x<<b.line) != 0 {
		return true, 0
	}
	return false, x & b.pockets
}

// cellsOf returns the cells of mask m in reading order.
func (b *board) cellsOf(m uint64) Cells {
	var out Cells
	for i, c := range b.cells {
		if m&(1<<i) != 0 {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, compareReading)
	return out
}
