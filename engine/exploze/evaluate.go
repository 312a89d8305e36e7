package exploze

import (
	"math"

	"github.com/rulebook/rulebook/engine"
)

// The terms of the positional worth of a player's cell (see State.worth), in stones.
const (
	// unthreatenedCorner and unthreatenedEdge are what a corner and an edge cell are worth beyond their stones when
	// no opponent's loaded cell is next to them: they explode with fewer stones.
	unthreatenedCorner, unthreatenedEdge = 3, 2
	// unthreatenedLoaded is what a loaded cell (one stone short of exploding) is worth when no opponent's loaded cell
	// is next to it: a threat of its own.
	unthreatenedLoaded = 2
	// linkedLoaded is what a loaded cell is worth when one of its neighbours is a loaded cell of the same player:
	// the two explode in one chain.
	linkedLoaded = 2
	// threatBase less a cell's critical number is what a cell loses for each opponent's loaded cell next to it, which
	// can take it at once: a corner, which costs its owner the least to refill, loses the most.
	threatBase = 5
)

// worth writes into w what each player's position on s is worth (player p's at w[p-1]), summed over the player's
// cells: each cell's stones; minus, for each neighbour that is an opponent's loaded cell, threatBase less the cell's
// critical number; when no such neighbour threatens it, unthreatenedCorner or unthreatenedEdge for a corner or an
// edge, and unthreatenedLoaded if it is loaded; and linkedLoaded for a loaded cell next to another of its player's.
func (s *State) worth(w []float64) {
	for i := range w {
		w[i] = 0
	}
	var buf [4]int
	for i, c := range s.cells {
		if c.Owner == engine.NoPlayer {
			continue
		}
		k := s.critical(i)
		loaded := c.Stones == k-1
		v := float64(c.Stones)
		threatened, linked := false, false
		for _, j := range s.neighbours(i, &buf) {
			n := s.cells[j]
			if n.Owner == engine.NoPlayer || n.Stones != s.critical(j)-1 {
				continue
			}
			if n.Owner != c.Owner {
				v -= float64(threatBase - k)
				threatened = true
			} else if loaded {
				linked = true
			}
		}
		if !threatened {
			switch k {
			case 2:
				v += unthreatenedCorner
			case 3:
				v += unthreatenedEdge
			}
			if loaded {
				v += unthreatenedLoaded
			}
		}
		if linked {
			v += linkedLoaded
		}
		w[c.Owner-1] += v
	}
}

// worthScale is the margin of worth that marginOf rates about 0.73.
const worthScale = 8

// rivalWorth is what each opponent still in the game counts against seat in marginOf, so that putting one out is
// worth as much to seat as a few cells.
const rivalWorth = 10

// marginOf returns seat's expected reward of s, a state that goes on, from w, the players' worth on it: a logistic
// curve of seat's margin, its worth less the best worth of an opponent still in the game (0 if none is) and
// rivalWorth for each of them; 1/2 for a margin of 0.
func (s *State) marginOf(seat engine.Player, w []float64) float64 {
	best, left := math.Inf(-1), 0
	for p := engine.Player(1); int(p) <= len(w); p++ {
		if p != seat && !s.Eliminated(p) {
			best = max(best, w[p-1])
			left++
		}
	}
	if left == 0 {
		best = 0
	}
	return 1 / (1 + math.Exp(-(w[seat-1]-best-float64(rivalWorth*left))/worthScale))
}
