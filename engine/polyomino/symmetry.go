package polyomino

import "slices"

// symmetries returns the bit permutations of the board whose cells are cells, with index mapping each cell of shape
// to its bit, that the symmetries of shape induce: the transforms (rotations, and reflections if mirror) under which
// shape is a translation of itself. perm[k] is the bit that bit k goes to; bits of walls stay put. The identity is
// first.
func symmetries(shape Cells, mirror bool, cells Cells, index *cellIndex) [][]int {
	n := 4
	if mirror {
		n = 8
	}
	minX := slices.MinFunc(shape, compareColumns).X
	minY := slices.MinFunc(shape, compareReading).Y
	w, h := shape.Bounds()
	img := make(Cells, len(shape))
	var out [][]int
	for t := range n {
		// The odd transforms swap the axes (see transforms): they map no shape wider than tall onto itself.
		if t%2 == 1 && w != h {
			continue
		}
		for i, c := range shape {
			img[i] = transforms[t](c)
		}
		// The image moved back onto the shape's bounding rectangle is the shape exactly when it has no cell outside
		// (it has as many cells, all distinct).
		dx := minX - slices.MinFunc(img, compareColumns).X
		dy := minY - slices.MinFunc(img, compareReading).Y
		perm := make([]int, len(cells))
		for k := range perm {
			perm[k] = k
		}
		onto := true
		for i, c := range shape {
			from, _ := index.bit(c)
			to, in := index.bit(Cell{img[i].X + dx, img[i].Y + dy})
			if !in {
				onto = false
				break
			}
			perm[from] = to
		}
		if onto {
			out = append(out, perm)
		}
	}
	return out
}

// permute returns mask m with each bit k moved to perm[k].
func permute(m uint64, perm []int) uint64 {
	var out uint64
	for k, to := range perm {
		if m&(1<<k) != 0 {
			out |= 1 << to
		}
	}
	return out
}

// root is a starting point of Count's search: a partial tiling and the number of tilings each of its completions
// stands for.
type root struct {
	task
	weight int64
}

// roots returns the partial tilings Count searches from. When the shape has symmetries (see symmetries), they
// permute the tilings, and the tilings with piece q at placement P are as many as those with q at any image of P; so
// Count places q only at one placement of each orbit (the smallest mask) and weights its completions by the orbit's
// size. q is the piece with the fewest placements, the first if several. Without symmetry, when Count covers pockets
// first (see board.pockets), it places q first too, at each of its placements (orbits of one): a piece placed inside
// the shape breaks its scan lines, which leaves pockets early. Otherwise the root is the empty board.
func (b *board) roots() []root {
	if len(b.symmetries) < 2 && b.pockets == 0 {
		_, pockets := b.frontier(b.walls)
		return []root{{task: task{board: b.walls, pockets: pockets}, weight: 1}}
	}
	q := 0
	for p, ms := range b.placements {
		if len(ms) < len(b.placements[q]) {
			q = p
		}
	}
	var out []root
	for _, m := range b.placements[q] {
		orbit := []uint64{}
		smallest := true
		for _, perm := range b.symmetries {
			g := permute(m, perm)
			if g < m {
				smallest = false
				break
			}
			if !slices.Contains(orbit, g) {
				orbit = append(orbit, g)
			}
		}
		if smallest {
			_, pockets := b.frontier(b.walls | m)
			out = append(out, root{task: task{board: b.walls | m, used: 1 << q, pockets: pockets}, weight: int64(len(orbit))})
		}
	}
	return out
}
