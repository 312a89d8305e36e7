package micropul

// index finds the tiles of a board by position: a cell for each position of a rectangle, row by row, holding the
// board index of the tile there plus 1, or 0 for none. A position outside the rectangle holds no tile. A state never
// changes its index once built, so copies of a state share it; Apply builds a new one.
type index struct {
	origin        Coord // the rectangle's top-left position
	width, height int
	cells         []int8 // a board holds at most NumTiles tiles: each index plus 1 fits
}

// emptyIndex returns an index with no tile whose rectangle spans the positions of board that are within range: a
// board being checked may hold others, which are refused before they are indexed.
func emptyIndex(board []Placed) index {
	lo, hi := Coord{MaxCoord + 1, MaxCoord + 1}, Coord{-MaxCoord - 1, -MaxCoord - 1}
	for _, p := range board {
		if p.At.inRange() {
			lo = Coord{min(lo.X, p.At.X), min(lo.Y, p.At.Y)}
			hi = Coord{max(hi.X, p.At.X), max(hi.Y, p.At.Y)}
		}
	}
	if lo.X > hi.X {
		return index{}
	}
	width, height := hi.X-lo.X+1, hi.Y-lo.Y+1
	return index{origin: lo, width: width, height: height, cells: make([]int8, width*height)}
}

// indexOf returns the index of board, whose positions are all within range and distinct.
func indexOf(board []Placed) index {
	x := emptyIndex(board)
	for i, p := range board {
		x.set(p.At, i)
	}
	return x
}

// cell returns the position of c in cells, or -1 outside the rectangle.
func (x index) cell(c Coord) int {
	dx, dy := c.X-x.origin.X, c.Y-x.origin.Y
	if dx < 0 || dx >= x.width || dy < 0 || dy >= x.height {
		return -1
	}
	return dy*x.width + dx
}

// at returns the board index of the tile at c, if any.
func (x index) at(c Coord) (int, bool) {
	k := x.cell(c)
	if k < 0 || x.cells[k] == 0 {
		return 0, false
	}
	return int(x.cells[k]) - 1, true
}

// has reports whether a tile lies at c.
func (x index) has(c Coord) bool {
	_, ok := x.at(c)
	return ok
}

// set records the tile of board index i at c, a position within the rectangle; only the builder of an index calls
// it.
func (x index) set(c Coord, i int) { x.cells[x.cell(c)] = int8(i + 1) }
