package polyomino

import (
	"context"
	"sync"
	"sync/atomic"
)

// Solution is a tiling: Solution[i] is the cells, in reading order, that piece i of the set covers, or nil if the
// tiling does not use piece i.
type Solution []Cells

// allPieces returns the mask of the first n pieces.
func allPieces(n int) uint64 { return ^uint64(0) >> (64 - n) }

// checkArea returns AREA_MISMATCH unless the pieces of set cover exactly as many cells as shape.
func checkArea(shape Cells, set Set) error {
	if a := set.Area(); a != len(shape) {
		return errorf(ReasonAreaMismatch, "the pieces of %q cover %d cells but the shape has %d", set.Name, a, len(shape))
	}
	return nil
}

// Count returns the number of tilings of shape by the pieces of set, each piece used exactly once in any of its
// orientations (Set.Mirror allows reflections). Every tiling counts, symmetric images included. The pieces' total area
// must equal the shape's, or Count returns AREA_MISMATCH; shape and set must pass CheckShape and Set.Check.
//
// Count spreads the search over opts.Workers goroutines; the count and the nodes it needs do not depend on them. It
// returns ctx.Err() if ctx is done before the search ends, and NODE_LIMIT_REACHED if the search needs more than
// opts.NodeLimit nodes.
func Count(ctx context.Context, shape Cells, set Set, opts Options) (int, error) {
	b, err := newBoard(shape, set)
	if err != nil {
		return 0, err
	}
	if err := checkArea(shape, set); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	b.addPockets()
	c := newControl(ctx, opts)
	s := newSearch(b, c, allPieces(b.pieces))
	roots := b.roots()
	workers := opts.workers()
	if workers > 1 {
		roots = s.expand(roots, 16*workers)
	}
	var next atomic.Int64
	var total atomic.Int64
	total.Add(s.solutions)
	var wg sync.WaitGroup
	for range min(workers, len(roots)) {
		wg.Go(func() {
			s := newSearch(b, c, s.allowed)
			for !s.stopped {
				k := next.Add(1) - 1
				if k >= int64(len(roots)) {
					break
				}
				s.weight = roots[k].weight
				s.count(roots[k].board, roots[k].used, roots[k].pockets)
			}
			s.settle()
			total.Add(s.solutions)
		})
	}
	wg.Wait()
	s.settle()
	if err := c.finish(); err != nil {
		return 0, err
	}
	return int(total.Load()), nil
}

// task is a partial tiling for a worker to complete: the cells covered, the pieces used, and the pockets of the
// cells covered (see board.frontier).
type task struct{ board, used, pockets uint64 }

// expand returns the partial tilings the search reaches from roots after one, two or three more pieces, going one
// piece deeper while there are fewer than target of them, each with the weight of its root. It counts their nodes and
// the tilings completed on the way as count does, for it is count, collecting instead of going deeper.
func (s *search) expand(roots []root, target int) []root {
	for depth := 0; depth < 3 && len(roots) > 0 && len(roots) < target && !s.stopped; depth++ {
		var deeper []root
		s.collect = &deeper
		for _, r := range roots {
			if s.stopped {
				break
			}
			s.weight = r.weight
			s.count(r.board, r.used, r.pockets)
		}
		s.collect = nil
		roots = deeper
	}
	return roots
}

// Find returns a tiling of shape by the pieces of set, each used exactly once, and true; or nil and false if there is
// none. Its requirements and errors are Count's. The tiling is the first the search meets, the same on every call; Find
// searches on the calling goroutine whatever opts.Workers says.
func Find(ctx context.Context, shape Cells, set Set, opts Options) (Solution, bool, error) {
	b, err := newBoard(shape, set)
	if err != nil {
		return nil, false, err
	}
	if err := checkArea(shape, set); err != nil {
		return nil, false, err
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	c := newControl(ctx, opts)
	s := newSearch(b, c, allPieces(b.pieces))
	found := s.find(b.walls, 0, 0)
	s.settle()
	if err := c.finish(); err != nil {
		return nil, false, err
	}
	if !found {
		return nil, false, nil
	}
	return s.solution(), true, nil
}
