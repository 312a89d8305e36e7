package polyomino

import "slices"

// transforms are the eight symmetries of the square grid: the four rotations (a quarter turn maps (x, y) to (-y, x))
// and then the four reflections (the mirror (x, y) -> (-x, y) followed by each rotation).
var transforms = [8]func(Cell) Cell{
	func(c Cell) Cell { return Cell{c.X, c.Y} },
	func(c Cell) Cell { return Cell{-c.Y, c.X} },
	func(c Cell) Cell { return Cell{-c.X, -c.Y} },
	func(c Cell) Cell { return Cell{c.Y, -c.X} },
	func(c Cell) Cell { return Cell{-c.X, c.Y} },
	func(c Cell) Cell { return Cell{-c.Y, -c.X} },
	func(c Cell) Cell { return Cell{c.X, -c.Y} },
	func(c Cell) Cell { return Cell{c.Y, c.X} },
}

// maxOrientations is the most fixed orientations a polyomino has: one per symmetry of the grid.
const maxOrientations = len(transforms)

// image returns Normalize of c under transform t.
func image(c Cells, t int) Cells {
	out := make(Cells, len(c))
	for i, x := range c {
		out[i] = transforms[t](x)
	}
	normalizeInPlace(out)
	return out
}

// Orientations returns the distinct fixed orientations of c: the normal forms of its images under the four
// rotations, and under the four reflections too when mirror is set. The first is Normalize(c); the others follow in
// a fixed order (quarter turns anticlockwise on screen, then the mirror image and its turns). A free polyomino has 1,
// 2, 4 or 8 of them with mirror, and 1, 2 or 4 without.
func Orientations(c Cells, mirror bool) []Cells {
	n := 4
	if mirror {
		n = 8
	}
	var out []Cells
	for t := range n {
		img := image(c, t)
		if !slices.ContainsFunc(out, func(o Cells) bool { return slices.Equal(o, img) }) {
			out = append(out, img)
		}
	}
	return out
}

// Congruent reports whether b is an image of a under a rotation, or under a rotation or a reflection when mirror is
// set, followed by a translation: whether cells b could be covered by a piece whose definition is a. Both are compared
// as lists, so a cell listed twice counts twice (and a placement that lists a cell twice never matches a piece that
// does not). Two empty lists are congruent.
func Congruent(a, b Cells, mirror bool) bool {
	if len(a) != len(b) {
		return false
	}
	nb := Normalize(b)
	n := 4
	if mirror {
		n = 8
	}
	for t := range n {
		if slices.Equal(image(a, t), nb) {
			return true
		}
	}
	return false
}
