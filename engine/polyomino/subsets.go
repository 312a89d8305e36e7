package polyomino

import (
	"context"
	"slices"
	"sync"
)

// Tiling is a subset of a piece set that tiles a shape, with a witness.
type Tiling struct {
	// Pieces are the indexes of the subset's pieces in the set, in increasing order.
	Pieces []int
	// Solution is a tiling by exactly those pieces, indexed like the whole set (nil for the pieces left out): the
	// tiling Find returns for set.Subset(Pieces...), re-indexed.
	Solution Solution
}

// TilingSubsets returns every subset of k pieces of set that tiles shape, each once, in lexicographic order of their
// piece indexes, each with a witness tiling. Subsets whose area differs from the shape's are skipped without a search;
// two congruent pieces of set are still two pieces, so subsets that differ only by them are listed apart. k must be
// from 1 to len(set.Pieces), else SUBSET_SIZE_OUT_OF_RANGE; shape and set must pass CheckShape and Set.Check.
//
// The subsets are searched on opts.Workers goroutines; the result does not depend on them. opts.NodeLimit caps the
// nodes of all the subsets' searches together. ctx is checked between subsets and during each search.
func TilingSubsets(ctx context.Context, shape Cells, set Set, k int, opts Options) ([]Tiling, error) {
	b, err := newBoard(shape, set)
	if err != nil {
		return nil, err
	}
	if k < 1 || k > b.pieces {
		return nil, errorf(ReasonSubsetSizeOutOfRange, "the subset size %d is outside 1..%d, the pieces of %q", k, b.pieces, set.Name)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := newControl(ctx, opts)
	subsets := combinations(b.sizes, k, len(shape))
	var mu sync.Mutex
	next := 0
	found := make([]*Tiling, 0)
	var wg sync.WaitGroup
	for range opts.workers() {
		wg.Go(func() {
			s := &search{b: b, c: c}
			var mine []*Tiling
			for {
				mu.Lock()
				if c.failed() != nil || next >= len(subsets) {
					mu.Unlock()
					break
				}
				used := subsets[next]
				next++
				mu.Unlock()
				if err := ctx.Err(); err != nil {
					c.fail(err)
					break
				}
				s.allowed, s.stopped = used, false
				if s.find(b.walls, 0, 0) {
					t := &Tiling{Solution: s.solution()}
					for p := range b.pieces {
						if used&(1<<p) != 0 {
							t.Pieces = append(t.Pieces, p)
						}
					}
					mine = append(mine, t)
				}
				if s.stopped && c.failed() != nil {
					break
				}
			}
			s.settle()
			mu.Lock()
			found = append(found, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if err := c.finish(); err != nil {
		return nil, err
	}
	slices.SortFunc(found, func(a, b *Tiling) int { return slices.Compare(a.Pieces, b.Pieces) })
	out := make([]Tiling, len(found))
	for i, t := range found {
		out[i] = *t
	}
	return out, nil
}

// combinations returns the masks of the k-subsets of the pieces whose sizes add up to area, in lexicographic order of
// their piece indexes.
func combinations(sizes []int, k, area int) []uint64 {
	var out []uint64
	var walk func(from, left, area int, used uint64)
	walk = func(from, left, area int, used uint64) {
		if left == 0 {
			if area == 0 {
				out = append(out, used)
			}
			return
		}
		for p := from; p <= len(sizes)-left; p++ {
			if sizes[p] <= area {
				walk(p+1, left-1, area-sizes[p], used|1<<p)
			}
		}
	}
	walk(0, k, area, 0)
	return out
}
