package micropul

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rulebook/rulebook/engine"
)

// NotationHelp describes the move notation of ParseMove for people, in lines that each end in a newline.
const NotationHelp = `A move is one action; positions are x,y from the start tile at 0,0 (x to the right, y downwards):
  t12 1,-1 r1     place tile 12 of your hand at 1,-1, turned 1 quarter turn clockwise (r0 to r3; r0 if left out)
  stone 1,-1 tr   put a stone on the micropul in quadrant tr of the tile at 1,-1 (tl, tr, br, bl; or nw, ne, se, sw)
  take            move the last tile of your supply into your hand
  pass            pass the turn
`

// maxCoord bounds the coordinates the notation reads: the 48 tiles reach no farther from the start tile.
const maxCoord = NumTiles - 1

// quadrantAliases are the compass names of the quadrants, which ParseMove reads too.
var quadrantAliases = [...]string{"nw", "ne", "se", "sw"}

// ParseMove reads text, a move of player p in the notation of docs/notation.md: "t12 1,-1 r1" (tile 12 of the hand
// at 1,-1 turned one quarter turn clockwise; r0 when left out), "stone 1,-1 tr" (a stone on the micropul in
// quadrant tr, or ne, of the tile at 1,-1), "take" or "pass". Positions are x,y from the start tile, x to the right
// and y downwards. It checks the notation and the bounds of every board; Validate checks the move.
func ParseMove(p engine.Player, text string) (Move, error) {
	text, err := engine.MoveText(text)
	if err != nil {
		return Move{}, err
	}
	words := strings.Fields(strings.NewReplacer(",", " , ", "(", " ", ")", " ").Replace(text))
	switch {
	case len(words) == 0:
	case len(words) == 1 && words[0] == "take":
		return Move{Player: p, Action: TakeTile}, nil
	case len(words) == 1 && words[0] == "pass":
		return Move{Player: p, Action: Pass}, nil
	case words[0] == "stone":
		at, rest, err := parsePosition(words[1:])
		if err != nil {
			return Move{}, err
		}
		if len(rest) != 1 {
			return Move{}, errors.New("a stone takes a position and a quadrant, such as stone 1,-1 tr")
		}
		for q := TL; q <= BL; q++ {
			if rest[0] == strings.ToLower(q.String()) || rest[0] == quadrantAliases[q] {
				return Move{Player: p, Action: PlaceStone, At: at, Quadrant: q}, nil
			}
		}
		return Move{}, fmt.Errorf("%q is not a quadrant: tl, tr, br or bl (or nw, ne, se, sw)", rest[0])
	case strings.HasPrefix(words[0], "t"):
		tile, err := parseBounded(words[0][1:], "a tile", NumTiles-1)
		if err != nil {
			return Move{}, err
		}
		at, rest, err := parsePosition(words[1:])
		if err != nil {
			return Move{}, err
		}
		rotation := 0
		switch {
		case len(rest) == 1 && strings.HasPrefix(rest[0], "r"):
			if rotation, err = parseBounded(rest[0][1:], "a rotation", 3); err != nil {
				return Move{}, err
			}
		case len(rest) != 0:
			return Move{}, errors.New("a tile takes a position and a rotation, such as t12 1,-1 r1")
		}
		return Move{Player: p, Action: PlaceTile, Tile: tile, At: at, Rotation: rotation}, nil
	}
	return Move{}, fmt.Errorf("%q is not an action: t12 1,-1 r1, stone 1,-1 tr, take or pass", text)
}

// parsePosition reads a position "x , y" at the start of words (split at the comma) and returns the words after it.
func parsePosition(words []string) (Coord, []string, error) {
	if len(words) < 3 || words[1] != "," {
		return Coord{}, nil, errors.New("a position is x,y from the start tile, such as 1,-1")
	}
	var xy [2]int
	for i, w := range []string{words[0], words[2]} {
		n, err := strconv.Atoi(w)
		if err != nil || len(w) > 3 || n < -maxCoord || n > maxCoord {
			return Coord{}, nil, fmt.Errorf("%q is not a coordinate from -%d to %d", w, maxCoord, maxCoord)
		}
		xy[i] = n
	}
	return Coord{X: xy[0], Y: xy[1]}, words[3:], nil
}

// parseBounded reads a number from 0 to limit, which the error calls what.
func parseBounded(text, what string, limit int) (int, error) {
	n, err := strconv.Atoi(text)
	if err != nil || len(text) > 2 || text[0] < '0' || text[0] > '9' || n > limit {
		return 0, fmt.Errorf("%q is not %s from 0 to %d", text, what, limit)
	}
	return n, nil
}

// Notation returns m in the notation of ParseMove, without its player, such as "t12 1,-1 r1" or "stone 1,-1 tr"; a
// move of no action is "no action".
func (m Move) Notation() string {
	switch m.Action {
	case PlaceTile:
		return fmt.Sprintf("t%d %d,%d r%d", m.Tile, m.At.X, m.At.Y, m.Rotation)
	case TakeTile:
		return "take"
	case PlaceStone:
		return fmt.Sprintf("stone %d,%d %s", m.At.X, m.At.Y, strings.ToLower(m.Quadrant.String()))
	case Pass:
		return "pass"
	}
	return "no action"
}

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
