package ubongoduel

import (
	"fmt"
	"strings"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/polyomino"
)

// NotationHelp describes the move notation of ParseMove for people, in lines that each end in a newline.
const NotationHelp = `A move is a solution, each piece of the task with the squares it covers, pieces separated by ";", such as
"A a1 b1 b2; B c1 c2 c3 d3" (a1 is the top-left square of the shape's grid); or:
  giveup        give up the duel (both giving up rolls it again)
  close         close the tie window of a pending win once it has passed
`

// ParseMove reads text, a move of player p in the notation of docs/notation.md: "giveup", "close", or a solution,
// each piece's letter with the squares it covers (named from a1 at the top-left of the shape's grid), pieces
// separated by ";", such as "A a1 b1 b2; B c1 c2 c3 d3". The move's receive time is left 0: the service stamps it.
// ParseMove checks the notation; Validate checks the move.
func ParseMove(p engine.Player, text string) (Move, error) {
	text, err := engine.MoveText(text)
	if err != nil {
		return Move{}, err
	}
	switch strings.Join(strings.Fields(text), " ") {
	case "giveup", "give up":
		return Move{Player: p, Action: GiveUp}, nil
	case "close":
		return Move{Player: p, Action: CloseDuel}, nil
	}
	parts := strings.Split(text, ";")
	if strings.TrimSpace(parts[len(parts)-1]) == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > MaxPlacements {
		return Move{}, fmt.Errorf("a solution places at most %d pieces", MaxPlacements)
	}
	m := Move{Player: p, Action: Submit}
	for _, part := range parts {
		words := strings.Fields(strings.ReplaceAll(part, ",", " "))
		if len(words) < 2 || len(words[0]) != 1 || pieces[strings.ToUpper(words[0])].Name == "" {
			return Move{}, fmt.Errorf("%q is not a piece's placement: its letter (A to U) and the squares it covers, "+
				"such as A a1 b1 b2, or giveup or close", strings.TrimSpace(part))
		}
		pl := Placement{Piece: strings.ToUpper(words[0])}
		for _, w := range words[1:] {
			col, row, err := engine.ParseSquare(w, MaxCells) // a shape of MaxCells cells spans no more columns or rows
			if err != nil {
				return Move{}, err
			}
			pl.Cells = append(pl.Cells, polyomino.Cell{X: col, Y: row})
		}
		m.Placements = append(m.Placements, pl)
	}
	return m, nil
}

// Notation returns m in the notation of ParseMove, without its player and its receive time, such as
// "A a1 b1 c1; B d1 d2" or "giveup"; a move of no action is "no action".
func (m Move) Notation() string {
	switch m.Action {
	case GiveUp:
		return "giveup"
	case CloseDuel:
		return "close"
	case Submit:
		texts := make([]string, len(m.Placements))
		for i, pl := range m.Placements {
			words := []string{pl.Piece}
			for _, c := range pl.Cells {
				words = append(words, engine.Square(c.X, c.Y))
			}
			texts[i] = strings.Join(words, " ")
		}
		return strings.Join(texts, "; ")
	}
	return "no action"
}

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
