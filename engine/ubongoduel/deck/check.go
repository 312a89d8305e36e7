package deck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rulebook/rulebook/engine/polyomino"
)

// sideSpec is what the rules ask of the sides of one letter.
type sideSpec struct {
	letter           string
	pieces           int
	minCells         int
	maxCells         int
	frames           [][2]int // boxes (width, height) a shape must fit in, drawn landscape
	minRemoved       int      // the fewest cells a box may have beyond the shape's (see Generate)
	maxRemoved       int      // the most cells a box may have beyond the shape's
	sizes            [Sheets]int
	seed             uint64
	maxShapeAttempts int
}

var specs = [2]sideSpec{
	{
		letter: "A", pieces: PiecesA, minCells: 20, maxCells: 24,
		frames:     [][2]int{{6, 5}},
		minRemoved: 2, maxRemoved: 6,
		sizes:            [Sheets]int{20, 21, 21, 22, 22, 22, 23, 23, 24},
		seed:             0x55b0_6a0d_0e1a_0001,
		maxShapeAttempts: 500,
	},
	{
		letter: "B", pieces: PiecesB, minCells: 25, maxCells: 30,
		frames:     [][2]int{{7, 5}, {6, 6}},
		minRemoved: 2, maxRemoved: 7,
		sizes:            [Sheets]int{25, 26, 27, 27, 28, 28, 29, 29, 30},
		seed:             0x55b0_6a0d_0e1a_0002,
		maxShapeAttempts: 500,
	},
}

// Check reports the first way in which d is not a valid deck, or nil: the version set; sides A1..A9 and B1..B9 in
// order; each shape at its top-left at (0, 0) in reading order, of 20 to 24 cells on side A and 25 to 30 on side B,
// connected, hole-free, landscape and within the side's frame (6 x 5 for A; 7 x 5 or 6 x 6 for B); no two shapes
// congruent; 20 tasks a side, with 20 distinct piece sets of 4 (A) or 5 (B) letters in ascending order; each witness
// one placement per piece, in the same order, congruent to the piece (turning over allowed), the placements covering
// the shape exactly once. Check runs no search: that every task is solvable is what the witnesses show.
func (d *Deck) Check() error {
	if d == nil {
		return fmt.Errorf("deck: no deck")
	}
	if d.Version == "" {
		return fmt.Errorf("deck: no version")
	}
	var seen []polyomino.Cells
	for i, sides := range [2][]Side{d.A, d.B} {
		spec := specs[i]
		if len(sides) != Sheets {
			return fmt.Errorf("deck: side %s has %d sheets, want %d", spec.letter, len(sides), Sheets)
		}
		for j, s := range sides {
			if want := fmt.Sprintf("%s%d", spec.letter, j+1); s.Name != want {
				return fmt.Errorf("deck: sheet %d of side %s is named %q, want %q", j+1, spec.letter, s.Name, want)
			}
			if err := checkSide(s, spec); err != nil {
				return fmt.Errorf("deck: side %s: %w", s.Name, err)
			}
			c := canonical(s.Shape)
			for k, o := range seen {
				if slices.Equal(o, c) {
					return fmt.Errorf("deck: side %s: the shape is congruent to that of side %s", s.Name, sideName(k))
				}
			}
			seen = append(seen, c)
		}
	}
	return nil
}

// sideName names side i of A1..A9, B1..B9.
func sideName(i int) string { return fmt.Sprintf("%s%d", specs[i/Sheets].letter, i%Sheets+1) }

func checkSide(s Side, spec sideSpec) error {
	if err := checkShape(s.Shape, spec); err != nil {
		return err
	}
	if len(s.Tasks) != Faces {
		return fmt.Errorf("%d tasks, want %d", len(s.Tasks), Faces)
	}
	sets := make([]string, 0, Faces)
	for i, t := range s.Tasks {
		if err := checkTask(t, s.Shape, spec.pieces); err != nil {
			return fmt.Errorf("task %d: %w", i+1, err)
		}
		key := strings.Join(t.Pieces, "")
		if j := slices.Index(sets, key); j >= 0 {
			return fmt.Errorf("tasks %d and %d have the same pieces %s", j+1, i+1, key)
		}
		sets = append(sets, key)
	}
	return nil
}

// checkShape checks a shape against its side's rules.
func checkShape(shape polyomino.Cells, spec sideSpec) error {
	if n := len(shape); n < spec.minCells || n > spec.maxCells {
		return fmt.Errorf("the shape has %d cells, want %d to %d", n, spec.minCells, spec.maxCells)
	}
	if err := polyomino.CheckShape(shape); err != nil {
		return err
	}
	if !slices.Equal(polyomino.Normalize(shape), shape) {
		return fmt.Errorf("the shape is not at the origin in reading order")
	}
	if !shape.Connected() {
		return fmt.Errorf("the shape is not connected")
	}
	if !holeFree(shape) {
		return fmt.Errorf("the shape has a hole")
	}
	w, h := shape.Bounds()
	if w < h {
		return fmt.Errorf("the shape is %d x %d, taller than wide", w, h)
	}
	if !fits(w, h, spec.frames) {
		return fmt.Errorf("the shape is %d x %d, outside the frame %v", w, h, spec.frames)
	}
	return nil
}

// fits reports whether a w x h box fits one of the frames.
func fits(w, h int, frames [][2]int) bool {
	for _, f := range frames {
		if w <= f[0] && h <= f[1] {
			return true
		}
	}
	return false
}

// checkTask checks a task's pieces and witness against the shape.
func checkTask(t Task, shape polyomino.Cells, pieces int) error {
	if len(t.Pieces) != pieces {
		return fmt.Errorf("%d pieces, want %d", len(t.Pieces), pieces)
	}
	for i, p := range t.Pieces {
		if _, ok := Piece(p); !ok {
			return fmt.Errorf("no piece %q", p)
		}
		if i > 0 && t.Pieces[i-1] >= p {
			return fmt.Errorf("the pieces %v are not in strictly ascending order", t.Pieces)
		}
	}
	if t.Tilings < 1 {
		return fmt.Errorf("%d tilings, want at least 1", t.Tilings)
	}
	if len(t.Witness) != len(t.Pieces) {
		return fmt.Errorf("the witness has %d placements, want %d", len(t.Witness), len(t.Pieces))
	}
	in := make(map[polyomino.Cell]bool, len(shape))
	for _, c := range shape {
		in[c] = true
	}
	covered := make(map[polyomino.Cell]string, len(shape))
	for i, pl := range t.Witness {
		if pl.Piece != t.Pieces[i] {
			return fmt.Errorf("placement %d is of piece %q, want %q", i+1, pl.Piece, t.Pieces[i])
		}
		piece, _ := Piece(pl.Piece)
		if !polyomino.Congruent(piece.Cells, pl.Cells, true) {
			return fmt.Errorf("the placement of %s %v is not congruent to the piece", pl.Piece, pl.Cells)
		}
		for _, c := range pl.Cells {
			if !in[c] {
				return fmt.Errorf("%s covers %v, outside the shape", pl.Piece, c)
			}
			if o, ok := covered[c]; ok {
				return fmt.Errorf("%s and %s both cover %v", o, pl.Piece, c)
			}
			covered[c] = pl.Piece
		}
	}
	if len(covered) != len(shape) {
		return fmt.Errorf("the witness covers %d of the shape's %d cells", len(covered), len(shape))
	}
	return nil
}

// holeFree reports whether every cell outside c, within its bounding box, reaches the outside of the box through
// cells outside c sharing an edge.
func holeFree(c polyomino.Cells) bool {
	if len(c) == 0 {
		return true
	}
	n := polyomino.Normalize(c)
	w, h := n.Bounds()
	// The box grows by one cell on every side, so that the outside is one connected region from (0, 0).
	in := make([][]bool, h+2)
	for y := range in {
		in[y] = make([]bool, w+2)
	}
	for _, x := range n {
		in[x.Y+1][x.X+1] = true
	}
	seen := make([][]bool, h+2)
	for y := range seen {
		seen[y] = make([]bool, w+2)
	}
	stack := []polyomino.Cell{{X: 0, Y: 0}}
	seen[0][0] = true
	reached := 1
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range [4]polyomino.Cell{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}} {
			q := polyomino.Cell{X: p.X + d.X, Y: p.Y + d.Y}
			if q.X < 0 || q.Y < 0 || q.X >= w+2 || q.Y >= h+2 || in[q.Y][q.X] || seen[q.Y][q.X] {
				continue
			}
			seen[q.Y][q.X] = true
			reached++
			stack = append(stack, q)
		}
	}
	return reached == (w+2)*(h+2)-len(n)
}

// canonical returns the least of the orientations of c, turning over allowed: congruent cell sets have the same.
func canonical(c polyomino.Cells) polyomino.Cells {
	return slices.MinFunc(polyomino.Orientations(c, true), func(a, b polyomino.Cells) int {
		return slices.CompareFunc(a, b, readingOrder)
	})
}
