package kipicot

import (
	"fmt"
	"strings"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Event is one thing that happened during a move: a TokenPlaced, TokenStacked, TokenMoved, PawnPlaced,
// FishingChoice, Fished or GameOver. Apply returns them in the order they happened, so that a client can animate
// the move without comparing boards. Skipping the optional move reports nothing.
type Event interface {
	// String describes the event in one line.
	String() string
	// proto returns the event as its protobuf message.
	proto() *rulebookv1.KipicotEvent
}

// TokenPlaced is a token of Color taken from the supply and put on the empty Square.
type TokenPlaced struct {
	Player engine.Player
	Square Coord
	Color  Color
}

// TokenStacked is a token of Color taken from the supply and put on the single token of colour Under on Square.
type TokenStacked struct {
	Player engine.Player
	Square Coord
	Color  Color
	Under  Color
}

// TokenMoved is a token of Color moving from From to To: a single token, or a stack's top. When the whole stack
// moved (Options.WholeStackMoves), Under is the colour of its bottom token, else NoColor.
type TokenMoved struct {
	Player   engine.Player
	From, To Coord
	Color    Color
	Under    Color
}

// PawnPlaced is Player's pawn jumping to To, from From when FromBoard (else from off the board).
type PawnPlaced struct {
	Player    engine.Player
	From, To  Coord
	FromBoard bool
}

// FishingChoice is the turn stopping for Player to choose one of several fishing squares, named by their top-left
// squares in row-major order.
type FishingChoice struct {
	Player  engine.Player
	Corners []Coord
}

// Fished is Player taking the fishing square with top-left square Corner: the tokens of the squares Taken (row-major
// order; all four but one under the opponent's pawn), Caught by colour.
type Fished struct {
	Player engine.Player
	Corner Coord
	Taken  []Coord
	Caught Catch
}

// GameOver is the end of the game: Winner caught the most tokens, or Draw when both caught as many.
type GameOver struct {
	Winner engine.Player
	Draw   bool
}

// String describes the event, such as "A placed red at (2,3)".
func (e TokenPlaced) String() string {
	return fmt.Sprintf("%s placed %s at %v", playerName(e.Player), e.Color, e.Square)
}

// String describes the event, such as "A stacked red on yellow at (2,3)".
func (e TokenStacked) String() string {
	return fmt.Sprintf("%s stacked %s on %s at %v", playerName(e.Player), e.Color, e.Under, e.Square)
}

// String describes the event, such as "A moved red (2,3)-(2,4)" or "A moved red on yellow (2,3)-(0,3)".
func (e TokenMoved) String() string {
	what := e.Color.String()
	if e.Under != NoColor {
		what += " on " + e.Under.String()
	}
	return fmt.Sprintf("%s moved %s %v-%v", playerName(e.Player), what, e.From, e.To)
}

// String describes the event, such as "A pawn (0,0)-(1,1)" or "B pawn off-(2,2)".
func (e PawnPlaced) String() string {
	from := "off"
	if e.FromBoard {
		from = e.From.String()
	}
	return fmt.Sprintf("%s pawn %s-%v", playerName(e.Player), from, e.To)
}

// String describes the event, such as "A chooses a fishing square: (0,0) (1,0)".
func (e FishingChoice) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s chooses a fishing square:", playerName(e.Player))
	for _, c := range e.Corners {
		b.WriteString(" " + c.String())
	}
	return b.String()
}

// String describes the event, such as "A fished at (0,0): took (0,0) (0,1) (1,1), 2 red 3 yellow".
func (e Fished) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s fished at %v: took", playerName(e.Player), e.Corner)
	for _, c := range e.Taken {
		b.WriteString(" " + c.String())
	}
	fmt.Fprintf(&b, ", %d red %d yellow", e.Caught.Red, e.Caught.Yellow)
	return b.String()
}

// String describes the end of the game, such as "game over: A wins" or "game over: draw".
func (e GameOver) String() string {
	if e.Draw {
		return "game over: draw"
	}
	return "game over: " + playerName(e.Winner) + " wins"
}
