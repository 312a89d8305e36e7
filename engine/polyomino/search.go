package polyomino

import (
	"context"
	"math/bits"
	"sync/atomic"
)

// checkEvery is how many nodes a search explores between two looks at its context and the node limit: a power of
// two, small enough that a deadline stops a search within about a millisecond.
const checkEvery = 1 << 12

// control is what the goroutines of one call share: the context, the node limit and the nodes spent so far, and the
// first error, which stops every goroutine.
type control struct {
	ctx      context.Context
	limit    int64
	nodes    atomic.Int64
	err      atomic.Pointer[error]
	explored *int64 // receives nodes once the call is done, if not nil
}

// newControl returns the control of a call under ctx with opts.
func newControl(ctx context.Context, opts Options) *control {
	return &control{ctx: ctx, limit: opts.NodeLimit, explored: opts.Explored}
}

// fail records err as the call's error unless one is already recorded.
func (c *control) fail(err error) { c.err.CompareAndSwap(nil, &err) }

// failed returns the recorded error, or nil.
func (c *control) failed() error {
	if p := c.err.Load(); p != nil {
		return *p
	}
	return nil
}

// finish returns the call's error once every goroutine is done: the recorded one, or NODE_LIMIT_REACHED if the nodes
// spent exceed the limit (a search that ran to its end before a check noticed). It reports the nodes explored.
func (c *control) finish() error {
	if c.explored != nil {
		*c.explored = c.nodes.Load()
	}
	if err := c.failed(); err != nil {
		return err
	}
	if c.limit > 0 && c.nodes.Load() > c.limit {
		return nodeLimitError(c.limit)
	}
	return nil
}

// nodeLimitError returns the NODE_LIMIT_REACHED error for limit.
func nodeLimitError(limit int64) error {
	return errorf(ReasonNodeLimitReached, "the search needs more than the node limit of %d", limit)
}

// search is one goroutine's depth-first search on a board. The hot loop touches only its fields and the board's
// slices, and allocates nothing.
type search struct {
	b *board
	c *control
	// allowed is the mask of pieces the search may place.
	allowed uint64
	// nodes counts the pieces placed since the last flush to c.nodes.
	nodes int64
	// stopped is set once the search must end: an error, or (for find) a tiling found.
	stopped bool
	// solutions counts the tilings found by count, each as weight tilings (see board.roots).
	solutions, weight int64
	// collect, if not nil, makes count append the partial tilings one piece deeper to it instead of searching them
	// (see expand).
	collect *[]root
	// placed and piece are the current partial tiling of find: placed[d] is the mask of the d-th piece placed, piece[d]
	// its index; depth is the number of pieces of the tiling found.
	depth  int
	placed [MaxPieces]uint64
	piece  [MaxPieces]int
	// fits is choose's scratch: at depth d, fits[d*len(b.fit.mask)+o] are the bits where orientation o still fits.
	fits []uint64
}

// newSearch returns a search on b under c that may place the pieces in allowed.
func newSearch(b *board, c *control, allowed uint64) *search {
	s := &search{b: b, c: c, allowed: allowed}
	if b.fit != nil {
		s.fits = make([]uint64, chooseDepth*len(b.fit.mask))
	}
	return s
}

// flush adds the local node count to the shared one and checks the context and the node limit; it sets stopped and
// returns true if the search must end.
func (s *search) flush() bool {
	total := s.c.nodes.Add(s.nodes)
	s.nodes = 0
	switch {
	case s.c.failed() != nil:
	case s.c.ctx.Err() != nil:
		s.c.fail(s.c.ctx.Err())
	case s.c.limit > 0 && total > s.c.limit:
		s.c.fail(nodeLimitError(s.c.limit))
	default:
		return false
	}
	s.stopped = true
	return true
}

// settle adds the local node count to the shared one, at the end of a search.
func (s *search) settle() {
	s.c.nodes.Add(s.nodes)
	s.nodes = 0
}

// count adds to s.solutions the tilings that complete board with pieces not in used; pockets are board's (see
// board.frontier). While fewer than chooseDepth pieces are placed on a board with a fitTable, choose branches instead.
// Otherwise count covers a pocket if there is one, else the first empty cell: a pocket is an empty cell with one
// empty neighbour, which few placements fit, and covering it first cuts the dead ends it would leave behind. Any cell
// will do for counting, as long as every placement covering it is tried once. The first empty cell is covered
// through its anchored placements (those covering it have it as their first cell), another pocket through the
// placements covering it and its empty neighbour.
func (s *search) count(board, used, pockets uint64) {
	if board == s.b.full {
		s.solutions += s.weight
		return
	}
	if s.b.fit != nil {
		if d := bits.OnesCount64(used); d < chooseDepth {
			s.choose(board, used, d)
			return
		}
	}
	i := bits.TrailingZeros64(^board)
	if c := bits.TrailingZeros64(pockets); pockets != 0 && c != i {
		base := (c*s.b.pieces)<<2 | s.b.neighbourDirection(board, c)
		for rem := s.allowed &^ used; rem != 0; rem &= rem - 1 {
			p := bits.TrailingZeros64(rem)
			k := base + p<<2
			for _, m := range s.b.pocketMasks[s.b.pocketStart[k]:s.b.pocketStart[k+1]] {
				if m&board == 0 && s.countWith(board|m, used|1<<p) {
					return
				}
			}
		}
		return
	}
	pat := int(board>>(i+1)) & (1<<window - 1)
	base := i * s.b.pieces
	for rem := s.allowed &^ used; rem != 0; rem &= rem - 1 {
		p := bits.TrailingZeros64(rem)
		j := base + p
		list := &s.b.anchored[j]
		for sel := s.b.fitting[j<<window|pat]; sel != 0; sel &= sel - 1 {
			// The index is below maxOrientations, a power of two: the mask only spares the bounds check.
			m := list[bits.TrailingZeros8(sel)&(maxOrientations-1)]
			if m&board != 0 {
				continue
			}
			// countWith written out: a call per node costs the rectangles, which take this path only, some 10 %.
			s.nodes++
			if s.nodes&(checkEvery-1) == 0 && s.flush() {
				return
			}
			dead, pockets := s.b.frontier(board | m)
			switch {
			case dead:
				continue
			case s.collect != nil && board|m != s.b.full:
				*s.collect = append(*s.collect, root{task{board | m, used | 1<<p, pockets}, s.weight})
				continue
			}
			s.count(board|m, used|1<<p, pockets)
			if s.stopped {
				return
			}
		}
	}
}

// countWith counts the node of a piece just placed on a pocket, making board with the pieces in used, and then the
// tilings that complete board unless it is a dead end; with s.collect set, it appends board to it instead. It
// returns whether the search must end. count's loop on the first empty cell does the same in line.
func (s *search) countWith(board, used uint64) bool {
	s.nodes++
	if s.nodes&(checkEvery-1) == 0 && s.flush() {
		return true
	}
	dead, pockets := s.b.frontier(board)
	switch {
	case dead:
		return false
	case s.collect != nil && board != s.b.full:
		*s.collect = append(*s.collect, root{task{board, used, pockets}, s.weight})
		return false
	}
	s.count(board, used, pockets)
	return s.stopped
}

// find looks for the first tiling, in search order, that completes board with pieces not in used, d pieces being
// placed already; it sets stopped and leaves the tiling in placed and piece when it finds one, and returns whether
// it did.
func (s *search) find(board, used uint64, d int) bool {
	if board == s.b.full {
		s.stopped, s.depth = true, d
		return true
	}
	i := bits.TrailingZeros64(^board)
	pat := int(board>>(i+1)) & (1<<window - 1)
	base := i * s.b.pieces
	for rem := s.allowed &^ used; rem != 0; rem &= rem - 1 {
		p := bits.TrailingZeros64(rem)
		j := base + p
		list := &s.b.anchored[j]
		for sel := s.b.fitting[j<<window|pat]; sel != 0; sel &= sel - 1 {
			m := list[bits.TrailingZeros8(sel)&(maxOrientations-1)]
			if m&board != 0 {
				continue
			}
			// countWith written out: a call per node costs the rectangles, which take this path only, some 10 %.
			s.nodes++
			if s.nodes&(checkEvery-1) == 0 && s.flush() {
				return false
			}
			if dead, _ := s.b.frontier(board | m); dead {
				continue
			}
			s.placed[d], s.piece[d] = m, p
			if s.find(board|m, used|1<<p, d+1) {
				return true
			}
			if s.stopped {
				return false
			}
		}
	}
	return false
}

// solution returns the tiling find found as a Solution over the board's pieces.
func (s *search) solution() Solution {
	out := make(Solution, s.b.pieces)
	for k := range s.depth {
		out[s.piece[k]] = s.b.cellsOf(s.placed[k])
	}
	return out
}
