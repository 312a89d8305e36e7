// Package board draws the games of rulebook as text for a terminal: the Exploze grid with each owner's stones, the
// Micropul tiles, stones, hand and counts, the Kipicot stacks, pawns and fishing squares, and the Ubongo Duel shape
// and pieces. Squares are labelled as the move notation (engine.Square) names them. With colour, players, tokens
// and micropuls are told apart by ANSI colours too; without it the text alone tells them. Draw chooses each game's
// drawing, in one switch: TestDraw fails for a hosted game (engine/hosted) that has none.
package board

import (
	"fmt"
	"strings"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Style is how a board is drawn.
type Style struct {
	// Color draws with ANSI colour escapes, for a terminal that shows them.
	Color bool
}

// Draw returns the game in state, as seat sees it (0 for a spectator), as lines of text ending in a newline: the
// board, then what each player holds and who is to move.
func Draw(state *rulebookv1.GameState, seat int32, style Style) string {
	var b strings.Builder
	p := &pen{b: &b, color: style.Color}
	switch g := state.GetGame().(type) {
	case *rulebookv1.GameState_Exploze:
		drawExploze(p, g.Exploze)
	case *rulebookv1.GameState_Kipicot:
		drawKipicot(p, g.Kipicot)
	case *rulebookv1.GameState_Micropul:
		drawMicropul(p, g.Micropul)
	case *rulebookv1.GameState_UbongoDuel:
		drawUbongoDuel(p, g.UbongoDuel, seat)
	default:
		b.WriteString("(no game to draw)\n")
	}
	return b.String()
}

// ANSI colours of the players, from player 1: red, blue, green, yellow, magenta, cyan, bright red, bright blue.
var playerColors = [...]string{"31", "34", "32", "33", "35", "36", "91", "94"}

// Colours of things other than players.
const (
	colorRed    = "31"
	colorYellow = "33"
	colorDim    = "2"
	colorBold   = "1"
)

// pen writes text, in colour when asked to.
type pen struct {
	b     *strings.Builder
	color bool
}

// printf writes formatted text.
func (p *pen) printf(format string, args ...any) { fmt.Fprintf(p.b, format, args...) }

// paint writes text in the colour code (an SGR parameter such as "31"), or plainly without colour.
func (p *pen) paint(code, text string) {
	if p.color && code != "" {
		p.printf("\x1b[%sm%s\x1b[0m", code, text)
		return
	}
	p.b.WriteString(text)
}

// playerColor returns the colour of player (from 1), or "" for nobody.
func playerColor(player int32) string {
	if player < 1 || int(player) > len(playerColors) {
		return ""
	}
	return playerColors[player-1]
}

// player writes "player N" in the player's colour.
func (p *pen) player(n int32) {
	p.paint(playerColor(n), fmt.Sprintf("player %d", n))
}

// columnHeader writes the letters of cols columns, each width characters wide, after indent spaces.
func (p *pen) columnHeader(indent, cols, width int, name func(int) string) {
	p.printf("%s", strings.Repeat(" ", indent))
	for c := range cols {
		p.printf("%-*s", width, name(c))
	}
	p.printf("\n")
}

// toMoveLine writes who is to move, or that the game is over.
func (p *pen) toMoveLine(toMove int32) {
	if toMove == 0 {
		p.printf("The game is over.\n")
		return
	}
	p.player(toMove)
	p.printf(" to move.\n")
}
