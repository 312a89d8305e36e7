package micropul

import (
	"fmt"
	"strings"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Event is one thing that happened during a move: a TilePlaced, CatalystActivated, TilesDrawn, ExtraTurnGranted,
// TileTaken, StonePlaced, Passed, PlayerOutOfTiles or GameOver. Apply returns them in the order they happened, in
// full (with the ids of drawn and taken tiles); ViewEvents gives what one viewer may see of them.
type Event interface {
	// String describes the event in one line.
	String() string
	// proto returns the event as its protobuf message.
	proto() *rulebookv1.MicropulEvent
}

// TilePlaced is Player placing Tile.
type TilePlaced struct {
	Player engine.Player
	Tile   Placed
}

// CatalystActivated is a catalyst fired by Player's placement: on the tile at At, in Quadrant or (Centre) in the
// centre of a big micropul. Draw is the tiles it asks to draw (1 or 2), ExtraTurn tells a plus catalyst.
type CatalystActivated struct {
	Player    engine.Player
	At        Coord
	Quadrant  Quadrant
	Centre    bool
	Catalyst  Symbol
	Draw      int
	ExtraTurn bool
}

// TilesDrawn is Count tiles drawn from the core into Player's supply: Tiles, in draw order, unless Hidden (a view of
// the event). CoreLeft is the tiles left in the core.
type TilesDrawn struct {
	Player   engine.Player
	Count    int
	Tiles    []int
	Hidden   bool
	CoreLeft int
}

// ExtraTurnGranted is Player winning Turns extra turns with a placement.
type ExtraTurnGranted struct {
	Player engine.Player
	Turns  int
}

// TileTaken is Player moving Tile from the supply into the hand; Hidden (Tile then 0) in a view for anyone else.
type TileTaken struct {
	Player engine.Player
	Tile   int
	Hidden bool
}

// StonePlaced is a stone put on a micropul.
type StonePlaced struct {
	Stone Stone
}

// Passed is Player passing; Forced when Player had no other legal action (shown only to Player in a view of the
// event: in an extra turn it tells whether their hand held a tile that could be placed).
type Passed struct {
	Player engine.Player
	Forced bool
}

// PlayerOutOfTiles is Player left with no tile in hand or supply after their action, who loses at once.
type PlayerOutOfTiles struct {
	Player engine.Player
}

// GameOver is the end of the game, with its winners (none for a draw, or a solo game lost).
type GameOver struct {
	End     End
	Winners []engine.Player
}

// String describes the event, such as "P1 placed 12 r1 at (0,-1)".
func (e TilePlaced) String() string {
	return fmt.Sprintf("P%d placed %d r%d at %v", e.Player, e.Tile.Tile, e.Tile.Rotation, e.Tile.At)
}

// String describes the event, such as "catalyst 1 at (0,-1) BR: draw 1".
func (e CatalystActivated) String() string {
	where := e.Quadrant.String()
	if e.Centre {
		where = "centre"
	}
	what := fmt.Sprintf("draw %d", e.Draw)
	if e.ExtraTurn {
		what = "extra turn"
	}
	return fmt.Sprintf("catalyst %v at %v %s: %s", e.Catalyst, e.At, where, what)
}

// String describes the event, such as "P1 drew 2 [5 17], 30 left" or "P1 drew 2 (hidden), 30 left".
func (e TilesDrawn) String() string {
	what := "(hidden)"
	if !e.Hidden {
		what = fmt.Sprint(e.Tiles)
	}
	return fmt.Sprintf("P%d drew %d %s, %d left", e.Player, e.Count, what, e.CoreLeft)
}

// String describes the event, such as "P1 won 2 extra turns".
func (e ExtraTurnGranted) String() string {
	return fmt.Sprintf("P%d won %d extra turns", e.Player, e.Turns)
}

// String describes the event, such as "P2 took 31 from the supply".
func (e TileTaken) String() string {
	if e.Hidden {
		return fmt.Sprintf("P%d took a tile from the supply", e.Player)
	}
	return fmt.Sprintf("P%d took %d from the supply", e.Player, e.Tile)
}

// String describes the event, such as "P1 put a stone on (1,0) TR".
func (e StonePlaced) String() string {
	return fmt.Sprintf("P%d put a stone on %v %v", e.Stone.Player, e.Stone.At, e.Stone.Quadrant)
}

// String describes the event, such as "P2 passed (forced)".
func (e Passed) String() string {
	if e.Forced {
		return fmt.Sprintf("P%d passed (forced)", e.Player)
	}
	return fmt.Sprintf("P%d passed", e.Player)
}

// String describes the event, such as "P2 is out of tiles and loses".
func (e PlayerOutOfTiles) String() string {
	return fmt.Sprintf("P%d is out of tiles and loses", e.Player)
}

// String describes the event, such as "game over (core empty): winners [1]".
func (e GameOver) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "game over (%v): ", e.End)
	if len(e.Winners) == 0 {
		b.WriteString("no winner")
	} else {
		fmt.Fprintf(&b, "winners %v", e.Winners)
	}
	return b.String()
}

// ViewEvents returns what viewer (engine.NoPlayer for a spectator) may see of events: drawn tiles as a count only,
// the tile taken from a supply only for its owner, and whether a pass was forced only for the passer (Forced is
// false for anyone else). The events are not changed.
func ViewEvents(events []Event, viewer engine.Player) []Event {
	out := make([]Event, len(events))
	for i, e := range events {
		out[i] = viewEvent(e, viewer)
	}
	return out
}

// viewEvent returns what viewer may see of e, by ViewEvents' rules.
func viewEvent(e Event, viewer engine.Player) Event {
	switch e := e.(type) {
	case TilesDrawn:
		e.Tiles, e.Hidden = nil, true
		return e
	case TileTaken:
		if e.Player != viewer {
			e.Tile, e.Hidden = 0, true
		}
		return e
	case Passed:
		if e.Player != viewer {
			e.Forced = false
		}
		return e
	}
	return e
}
