package ubongoduel

import (
	"fmt"
	"strings"
)

// String describes the state in a few lines: options, sheet and faces with their pieces, each player's standing,
// the pending win, and the last receive time. The die's state is not shown.
func (s *State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "side %v, tie window %d ms, catch-up %v, deck %s", s.opts.Side, s.opts.TieWindowMS, s.opts.CatchUp,
		s.deck.Version)
	if s.view {
		fmt.Fprintf(&b, ", view of %d", s.viewer)
	}
	fmt.Fprintf(&b, "\nsheet %d (%s)", s.sheet, s.side().Name)
	for i, f := range s.faces {
		fmt.Fprintf(&b, "; roll %d face %d %v", i+1, f, s.task(f).Pieces)
	}
	if s.leader != 0 {
		fmt.Fprintf(&b, "; leader P%d", s.leader)
	}
	for i, seat := range s.seats {
		fmt.Fprintf(&b, "\nP%d won %d, solved %d", i+1, seat.DuelsWon, seat.Solved)
		if seat.GaveUp {
			b.WriteString(", gave up")
		}
	}
	fmt.Fprintf(&b, "\nlast @%d", s.last)
	if s.pending != 0 {
		fmt.Fprintf(&b, "; P%d pending @%d", s.pending, s.pendingAt)
	}
	if s.Over() {
		fmt.Fprintf(&b, "; over: P%d wins", s.winner)
	}
	b.WriteString("\n")
	return b.String()
}
