package exploze

import (
	"fmt"
	"strings"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Event is one thing that happened during a move: a StonePlaced, a Wave, an Eliminated or a GameOver. Apply returns
// them in the order they happened, so that a client can animate the move without comparing boards.
type Event interface {
	// String describes the event in one line.
	String() string
	// proto returns the event as its protobuf message.
	proto() *rulebookv1.ExplozeEvent
}

// StonePlaced is the mover's stone arriving on Cell, which then holds Stones stones (before any explosion).
type StonePlaced struct {
	Player engine.Player
	Cell   Coord
	Stones int
}

// Wave is one wave of a chain reaction: the cells that exploded together, and the cells whose stones were captured,
// both in row-major order.
type Wave struct {
	// Index numbers the waves of a move from 1.
	Index    int
	Exploded []Coord
	Captured []Capture
}

// Capture is a cell whose Stones stones, FromPlayer's until then, became the mover's in a wave. Stones is the count
// before the wave's stones arrived.
type Capture struct {
	Cell       Coord
	FromPlayer engine.Player
	Stones     int
}

// Eliminated is Player losing their last stone in wave Wave of the move, and so leaving the game.
type Eliminated struct {
	Player engine.Player
	Wave   int
}

// GameOver is the end of the game: Winner is the last player with stones.
type GameOver struct {
	Winner engine.Player
}

// String describes the event, such as "A placed at (0,0): 2 stones".
func (e StonePlaced) String() string {
	return fmt.Sprintf("%s placed at %v: %d stones", playerName(e.Player), e.Cell, e.Stones)
}

// String describes the wave, such as "wave 1: exploded (0,0); captured (0,1) 2 from B".
func (e Wave) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "wave %d: exploded", e.Index)
	for _, c := range e.Exploded {
		b.WriteString(" " + c.String())
	}
	if len(e.Captured) > 0 {
		b.WriteString("; captured")
		for i, c := range e.Captured {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %v %d from %s", c.Cell, c.Stones, playerName(c.FromPlayer))
		}
	}
	return b.String()
}

// String describes the elimination, such as "B eliminated after wave 3".
func (e Eliminated) String() string {
	return fmt.Sprintf("%s eliminated after wave %d", playerName(e.Player), e.Wave)
}

// String describes the end of the game, such as "game over: A wins".
func (e GameOver) String() string {
	return "game over: " + playerName(e.Winner) + " wins"
}
