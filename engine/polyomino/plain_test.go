package polyomino

import (
	"fmt"
	"slices"
	"sort"
)

// This file is an independent reference for the solver, written as simply as possible and sharing no code with it:
// cells in maps, orientations by repeated quarter turns and string keys, and a recursive search that covers the first
// free cell with every cell of every orientation of every unused piece. It is slow and obviously right.

// plainKey returns a string that is the same for two cell lists exactly when they hold the same cells.
func plainKey(cells []Cell) string {
	s := make([]string, len(cells))
	for i, c := range cells {
		s[i] = fmt.Sprintf("%d,%d", c.X, c.Y)
	}
	sort.Strings(s)
	return fmt.Sprint(s)
}

// plainShift moves cells so that the smallest x and the smallest y are 0.
func plainShift(cells []Cell) []Cell {
	mx, my := 1<<30, 1<<30
	for _, c := range cells {
		if c.X < mx {
			mx = c.X
		}
		if c.Y < my {
			my = c.Y
		}
	}
	out := []Cell{}
	for _, c := range cells {
		out = append(out, Cell{c.X - mx, c.Y - my})
	}
	return out
}

// plainOrients returns the distinct orientations of piece: four quarter turns, of the piece and, if mirror, of its
// mirror image too.
func plainOrients(piece []Cell, mirror bool) [][]Cell {
	seen := map[string]bool{}
	var out [][]Cell
	starts := [][]Cell{piece}
	if mirror {
		var flipped []Cell
		for _, c := range piece {
			flipped = append(flipped, Cell{c.X, -c.Y})
		}
		starts = append(starts, flipped)
	}
	for _, cur := range starts {
		for range 4 {
			var turned []Cell
			for _, c := range cur {
				turned = append(turned, Cell{c.Y, -c.X})
			}
			cur = plainShift(turned)
			if k := plainKey(cur); !seen[k] {
				seen[k] = true
				out = append(out, cur)
			}
		}
	}
	return out
}

// plainCount counts the tilings of shape by all the pieces, each used once; stopAt > 0 stops counting there.
func plainCount(shape []Cell, pieces [][]Cell, mirror bool, stopAt int) int {
	area := 0
	for _, p := range pieces {
		area += len(p)
	}
	if area != len(shape) {
		return 0
	}
	order := slices.Clone(shape)
	sort.Slice(order, func(i, j int) bool {
		if order[i].Y != order[j].Y {
			return order[i].Y < order[j].Y
		}
		return order[i].X < order[j].X
	})
	free := map[Cell]bool{}
	for _, c := range shape {
		free[c] = true
	}
	orients := make([][][]Cell, len(pieces))
	for i, p := range pieces {
		orients[i] = plainOrients(p, mirror)
	}
	used := make([]bool, len(pieces))
	count := 0
	var rec func()
	rec = func() {
		if stopAt > 0 && count >= stopAt {
			return
		}
		var target Cell
		found := false
		for _, c := range order {
			if free[c] {
				target, found = c, true
				break
			}
		}
		if !found {
			count++
			return
		}
		for i := range pieces {
			if used[i] {
				continue
			}
			for _, o := range orients[i] {
				for _, anchor := range o {
					var cells []Cell
					ok := true
					for _, c := range o {
						x := Cell{c.X - anchor.X + target.X, c.Y - anchor.Y + target.Y}
						if !free[x] {
							ok = false
							break
						}
						cells = append(cells, x)
					}
					if !ok {
						continue
					}
					for _, x := range cells {
						free[x] = false
					}
					used[i] = true
					rec()
					used[i] = false
					for _, x := range cells {
						free[x] = true
					}
				}
			}
		}
	}
	rec()
	return count
}

// plainPieces returns the cells of each piece of s.
func plainPieces(s Set) [][]Cell {
	var out [][]Cell
	for _, p := range s.Pieces {
		out = append(out, p.Cells)
	}
	return out
}

// plainSubsets returns the k-subsets of the pieces of s that tile shape, in lexicographic order.
func plainSubsets(shape []Cell, s Set, k int) [][]int {
	var out [][]int
	var rec func(from int, chosen []int)
	rec = func(from int, chosen []int) {
		if len(chosen) == k {
			var pieces [][]Cell
			for _, i := range chosen {
				pieces = append(pieces, s.Pieces[i].Cells)
			}
			if plainCount(shape, pieces, s.Mirror, 1) > 0 {
				out = append(out, slices.Clone(chosen))
			}
			return
		}
		for i := from; i < len(s.Pieces); i++ {
			rec(i+1, append(chosen, i))
		}
	}
	rec(0, nil)
	return out
}
