package polyomino

// cellIndex maps the cells of a shape to their bits on a board.
type cellIndex struct {
	// On a rectangle layout, grid[(y-minY)*w + x-minX] is one more than the bit of cell (x, y), or 0 for a cell of
	// the bounding rectangle outside the shape; on the compact layout, bits maps each cell to its bit.
	minX, minY, w, h int
	grid             []int8
	bits             map[Cell]int
}

// newGridIndex returns an index on the w x h rectangle whose top-left cell is (minX, minY), with no cell in it yet.
func newGridIndex(minX, minY, w, h int) *cellIndex {
	return &cellIndex{minX: minX, minY: minY, w: w, h: h, grid: make([]int8, w*h)}
}

// newMapIndex returns an index for cells of a compact layout, with no cell in it yet.
func newMapIndex(n int) *cellIndex { return &cellIndex{bits: make(map[Cell]int, n)} }

// set maps cell c to bit k.
func (ix *cellIndex) set(c Cell, k int) {
	if ix.grid == nil {
		ix.bits[c] = k
		return
	}
	ix.grid[(c.Y-ix.minY)*ix.w+c.X-ix.minX] = int8(k + 1)
}

// bit returns the bit of cell c, and false if c is not a cell of the shape.
func (ix *cellIndex) bit(c Cell) (int, bool) {
	if ix.grid == nil {
		k, ok := ix.bits[c]
		return k, ok
	}
	x, y := c.X-ix.minX, c.Y-ix.minY
	if x < 0 || y < 0 || x >= ix.w || y >= ix.h {
		return 0, false
	}
	k := int(ix.grid[y*ix.w+x]) - 1
	return k, k >= 0
}
