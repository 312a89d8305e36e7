// Package notation is the short text in which a person types the moves of rulebook's games at a terminal, and in
// which rulebook play shows them: "c3" for an Exploze stone, "t12 1,-1 r1" for a Micropul tile, "b2-b3" for a
// Kipicot token, "A a1 b1 b2 b3; B c1 c2" for an Ubongo Duel solution. Parse reads a move of a game for a player;
// Format writes one back, so that every move Format accepts parses to the same move. Help describes each game's
// notation; docs/notation.md has the same text with examples.
//
// Squares of a grid are named as on a chess board, but counted from the top-left: a column letter (a for the first,
// z for the 26th, then aa, ab...) and a row number from 1 at the top, as rulebook play draws the board. Words are
// read without regard to case; spaces around punctuation do not matter.
package notation

import (
	"errors"
	"fmt"
	"strings"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// The identifiers of the games that have a notation, as in requests.
const (
	Exploze    = "exploze"
	Kipicot    = "kipicot"
	Micropul   = "micropul"
	UbongoDuel = "ubongo-duel"
)

// maxText bounds the text Parse reads: the longest move of any game (an Ubongo Duel solution of 21 pieces) is far
// shorter.
const maxText = 1024

// Parse reads text, a move of game in its notation, as a Move of player. It checks the notation and the bounds
// every board of the game has (a column beyond the largest Exploze board, a rotation above 3); the server checks
// the move against the position.
func Parse(game string, player int32, text string) (*rulebookv1.Move, error) {
	if len(text) > maxText {
		return nil, fmt.Errorf("a move is at most %d characters", maxText)
	}
	text = strings.ToLower(strings.TrimSpace(text))
	if text == "" {
		return nil, errors.New("no move")
	}
	parse, ok := parsers[game]
	if !ok {
		return nil, fmt.Errorf("no notation for game %q", game)
	}
	m := &rulebookv1.Move{Player: player}
	if err := parse(text, m); err != nil {
		return nil, err
	}
	return m, nil
}

// parsers read a move of each game into a Move's game.
var parsers = map[string]func(text string, m *rulebookv1.Move) error{
	Exploze: func(text string, m *rulebookv1.Move) error {
		em, err := parseExploze(text)
		m.Game = &rulebookv1.Move_Exploze{Exploze: em}
		return err
	},
	Kipicot: func(text string, m *rulebookv1.Move) error {
		km, err := parseKipicot(text)
		m.Game = &rulebookv1.Move_Kipicot{Kipicot: km}
		return err
	},
	Micropul: func(text string, m *rulebookv1.Move) error {
		mm, err := parseMicropul(text)
		m.Game = &rulebookv1.Move_Micropul{Micropul: mm}
		return err
	},
	UbongoDuel: func(text string, m *rulebookv1.Move) error {
		um, err := parseUbongoDuel(text)
		m.Game = &rulebookv1.Move_UbongoDuel{UbongoDuel: um}
		return err
	},
}

// Format returns move in the notation of its game, without the player, who is the one to move. It fails for a move
// that holds no game, or none the notation can write (such as a Kipicot turn of no step).
func Format(move *rulebookv1.Move) (string, error) {
	switch g := move.GetGame().(type) {
	case *rulebookv1.Move_Exploze:
		return formatExploze(g.Exploze)
	case *rulebookv1.Move_Kipicot:
		return formatKipicot(g.Kipicot)
	case *rulebookv1.Move_Micropul:
		return formatMicropul(g.Micropul)
	case *rulebookv1.Move_UbongoDuel:
		return formatUbongoDuel(g.UbongoDuel)
	}
	return "", errors.New("the move holds no game's move")
}

// Help returns the notation of game for people, a few lines each ending in a newline, or "" for a game without one.
func Help(game string) string {
	return helps[game]
}

// helps is the text of Help, by game.
var helps = map[string]string{
	Exploze: `A move is the square that gets your stone: its column letter and row number, such as c3 (column c, row 3;
a1 is the top-left square).
`,
	Kipicot: `A move is one step of the turn, or several separated by ";" (a whole turn, such as "skip; r c3; pawn c3"):
  skip          pass up the optional token move of step 1
  b2-b3         move the token (or a stack's top) on b2 to the empty square b3
  r c3, y c3    place a red (r, red) or yellow (y, yellow) token from the supply on c3
  pawn c3       put your pawn on the tokens of c3
  fish b2       take the fishing square whose top-left square is b2
A turn of one step ends in ";" ("skip;"). Squares are a1 (top-left) to e5.
`,
	Micropul: `A move is one action; positions are x,y from the start tile at 0,0 (x to the right, y downwards):
  t12 1,-1 r1     place tile 12 of your hand at 1,-1, turned 1 quarter turn clockwise (r0 to r3; r0 if left out)
  stone 1,-1 tr   put a stone on the micropul in quadrant tr of the tile at 1,-1 (tl, tr, br, bl; or nw, ne, se, sw)
  take            move the last tile of your supply into your hand
  pass            pass the turn
`,
	UbongoDuel: `A move is a solution, each piece of the task with the squares it covers, pieces separated by ";", such as
"A a1 b1 b2; B c1 c2 c3 d3" (a1 is the top-left square of the shape's grid); or:
  giveup        give up the duel (both giving up rolls it again)
  close         close the tie window of a pending win once it has passed
`,
}
