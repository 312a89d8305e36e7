package micropul

import (
	"fmt"
	"strings"
)

// String describes the state in a few lines: options, the board in placement order ("id@x,y/r"), the stones, each
// player's hand and counts, the core count, and whose turn it is (or how the game ended).
func (s *State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "players %d, rules %v", s.opts.Players, s.opts.Rules)
	if s.view {
		fmt.Fprintf(&b, ", view of %d", s.viewer)
	}
	b.WriteString("\nboard:")
	for _, p := range s.board {
		fmt.Fprintf(&b, " %d@%d,%d/%d", p.Tile, p.At.X, p.At.Y, p.Rotation)
	}
	b.WriteString("\nstones:")
	for _, st := range s.stones {
		fmt.Fprintf(&b, " %d@%d,%d:%v", st.Player, st.At.X, st.At.Y, st.Quadrant)
	}
	for i, seat := range s.seats {
		fmt.Fprintf(&b, "\nP%d hand %v (%d), supply %d", i+1, seat.Hand, seat.HandCount, seat.SupplyCount)
	}
	fmt.Fprintf(&b, "\ncore %d; ", s.coreCount)
	if s.Over() {
		fmt.Fprintf(&b, "over: %v", s.end)
		if s.loser != 0 {
			fmt.Fprintf(&b, ", P%d lost", s.loser)
		}
	} else {
		fmt.Fprintf(&b, "P%d to move", s.toMove)
		if s.extraTurn {
			fmt.Fprintf(&b, " (extra turn, %d more pending)", s.pending)
		}
	}
	b.WriteString("\n")
	return b.String()
}
