package polyomino

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// MaxCoord bounds the coordinates of every cell the package accepts, so that no transformation overflows.
const MaxCoord = 1 << 20

// Cell is a square of the grid: X is the column and Y the row, counted from the top-left.
type Cell struct{ X, Y int }

// String writes c as "(x,y)".
func (c Cell) String() string { return fmt.Sprintf("(%d,%d)", c.X, c.Y) }

// Cells is a list of cells: a shape, a piece, or the part of a shape a piece covers.
type Cells []Cell

// String writes the cells in their order as "(x,y)(x,y)...", the form of the rule books.
func (c Cells) String() string {
	var b strings.Builder
	for _, x := range c {
		b.WriteString(x.String())
	}
	return b.String()
}

// compareReading orders cells in reading order: by row, then by column.
func compareReading(a, b Cell) int {
	if c := cmp.Compare(a.Y, b.Y); c != 0 {
		return c
	}
	return cmp.Compare(a.X, b.X)
}

// compareColumns orders cells column by column: by column, then by row.
func compareColumns(a, b Cell) int {
	if c := cmp.Compare(a.X, b.X); c != 0 {
		return c
	}
	return cmp.Compare(a.Y, b.Y)
}

// Sorted returns a copy of c in reading order.
func (c Cells) Sorted() Cells {
	out := slices.Clone(c)
	slices.SortFunc(out, compareReading)
	return out
}

// Normalize returns c translated so that its smallest column and smallest row are 0, in reading order. Two cell sets
// are translations of each other exactly when their normal forms are equal. Normalize of no cells is empty.
func Normalize(c Cells) Cells {
	out := slices.Clone(c)
	if out == nil {
		out = Cells{}
	}
	normalizeInPlace(out)
	return out
}

// normalizeInPlace makes c its normal form (see Normalize) in place.
func normalizeInPlace(c Cells) {
	if len(c) == 0 {
		return
	}
	minX, minY := c[0].X, c[0].Y
	for _, x := range c[1:] {
		minX, minY = min(minX, x.X), min(minY, x.Y)
	}
	for i := range c {
		c[i].X -= minX
		c[i].Y -= minY
	}
	slices.SortFunc(c, compareReading)
}

// Bounds returns the width and height of the smallest rectangle around c (0, 0 for no cells).
func (c Cells) Bounds() (w, h int) {
	if len(c) == 0 {
		return 0, 0
	}
	minX, minY, maxX, maxY := c[0].X, c[0].Y, c[0].X, c[0].Y
	for _, x := range c[1:] {
		minX, minY = min(minX, x.X), min(minY, x.Y)
		maxX, maxY = max(maxX, x.X), max(maxY, x.Y)
	}
	return maxX - minX + 1, maxY - minY + 1
}

// Connected reports whether c is one piece: every cell reaches every other through cells sharing an edge. No cells
// are not connected.
func (c Cells) Connected() bool {
	if len(c) == 0 {
		return false
	}
	// The distinct cells in reading order; a cell's neighbours are found by binary search.
	in := slices.Compact(c.Sorted())
	seen := make([]bool, len(in))
	seen[0] = true
	reached := 1
	stack := []int{0}
	for len(stack) > 0 {
		x := in[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		for _, n := range [4]Cell{{x.X + 1, x.Y}, {x.X - 1, x.Y}, {x.X, x.Y + 1}, {x.X, x.Y - 1}} {
			if k, ok := slices.BinarySearchFunc(in, n, compareReading); ok && !seen[k] {
				seen[k] = true
				reached++
				stack = append(stack, k)
			}
		}
	}
	return reached == len(in)
}

// Rect returns the w x h rectangle with its top-left cell at the origin, in reading order.
func Rect(w, h int) Cells {
	out := make(Cells, 0, max(w*h, 0))
	for y := range h {
		for x := range w {
			out = append(out, Cell{x, y})
		}
	}
	return out
}

// ParseGrid reads cells drawn as text: rows separated by line breaks or "|", '#' (or 'X', 'x', 'O', 'o') for a cell
// and '.' or ' ' for none. Blank rows at the start and the end are dropped; the first character of the first row left
// is (0,0). It returns the cells in reading order.
func ParseGrid(s string) (Cells, error) {
	rows := strings.Split(strings.ReplaceAll(strings.ReplaceAll(s, "\r", ""), "|", "\n"), "\n")
	for len(rows) > 0 && strings.TrimSpace(rows[0]) == "" {
		rows = rows[1:]
	}
	for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1]
	}
	var out Cells
	for y, row := range rows {
		for x, r := range []rune(row) {
			switch r {
			case '#', 'X', 'x', 'O', 'o':
				out = append(out, Cell{x, y})
			case '.', ' ':
			default:
				return nil, fmt.Errorf("polyomino: grid row %d has %q at column %d; want '#' or '.'", y, r, x)
			}
		}
	}
	return out, nil
}

// Grid draws c as rows of '#' and '.' joined by "\n", within c's bounding rectangle: the inverse of ParseGrid for
// normalised cells.
func (c Cells) Grid() string {
	if len(c) == 0 {
		return ""
	}
	n := Normalize(c)
	w, h := n.Bounds()
	rows := make([][]byte, h)
	for y := range rows {
		rows[y] = []byte(strings.Repeat(".", w))
	}
	for _, x := range n {
		rows[x.Y][x.X] = '#'
	}
	var b strings.Builder
	for y, r := range rows {
		if y > 0 {
			b.WriteByte('\n')
		}
		b.Write(r)
	}
	return b.String()
}

// checkCells returns an *Error if c has a coordinate out of range or a duplicate cell; what names c in the message
// ("the shape", "piece F").
func checkCells(c Cells, what string) error {
	seen := make(map[Cell]bool, len(c))
	for _, x := range c {
		if x.X < -MaxCoord || x.X > MaxCoord || x.Y < -MaxCoord || x.Y > MaxCoord {
			return errorf(ReasonCoordinateOutOfRange, "%s has cell %v outside -%d..%d", what, x, MaxCoord, MaxCoord)
		}
		if seen[x] {
			return errorf(ReasonDuplicateCell, "%s lists cell %v twice", what, x)
		}
		seen[x] = true
	}
	return nil
}
