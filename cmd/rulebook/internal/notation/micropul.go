package notation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Bounds of Micropul moves: tile ids, coordinates from the start tile, and rotations.
const (
	micropulMaxTile  = 47
	micropulMaxCoord = 47
	micropulMaxTurns = 3
)

// quadrantNames are the names of the quadrants clockwise from the top-left, as Format writes them (index 1 to 4, the
// enum's values), and their compass aliases.
var (
	quadrantNames   = [...]string{"", "tl", "tr", "br", "bl"}
	quadrantAliases = [...]string{"", "nw", "ne", "se", "sw"}
)

// QuadrantName returns the name of a quadrant of a Micropul tile, as the notation writes it ("tl" to "bl"), or "?"
// for none.
func QuadrantName(q rulebookv1.MicropulQuadrant) string {
	if q < 1 || int(q) >= len(quadrantNames) {
		return "?"
	}
	return quadrantNames[q]
}

// parseMicropul reads a Micropul action.
func parseMicropul(text string) (*rulebookv1.MicropulMove, error) {
	words := strings.Fields(strings.NewReplacer(",", " , ", "(", " ", ")", " ").Replace(text))
	switch {
	case len(words) == 0:
	case len(words) == 1 && words[0] == "take":
		take := &rulebookv1.MicropulMove_TakeTile{TakeTile: &rulebookv1.MicropulTakeTile{}}
		return &rulebookv1.MicropulMove{Action: take}, nil
	case len(words) == 1 && words[0] == "pass":
		return &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_Pass{Pass: &rulebookv1.MicropulPass{}}}, nil
	case words[0] == "stone":
		x, y, rest, err := parseMicropulPosition(words[1:])
		if err != nil {
			return nil, err
		}
		if len(rest) != 1 {
			return nil, errors.New("a stone takes a position and a quadrant, such as stone 1,-1 tr")
		}
		q, err := parseQuadrant(rest[0])
		if err != nil {
			return nil, err
		}
		return &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_PlaceStone{
			PlaceStone: &rulebookv1.MicropulPlaceStone{X: x, Y: y, Quadrant: q}}}, nil
	case strings.HasPrefix(words[0], "t"):
		tile, err := parseBounded(words[0][1:], "a tile", micropulMaxTile)
		if err != nil {
			return nil, err
		}
		x, y, rest, err := parseMicropulPosition(words[1:])
		if err != nil {
			return nil, err
		}
		rotation := 0
		switch {
		case len(rest) == 1 && strings.HasPrefix(rest[0], "r"):
			if rotation, err = parseBounded(rest[0][1:], "a rotation", micropulMaxTurns); err != nil {
				return nil, err
			}
		case len(rest) != 0:
			return nil, errors.New("a tile takes a position and a rotation, such as t12 1,-1 r1")
		}
		return &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_PlaceTile{PlaceTile: &rulebookv1.MicropulPlaceTile{
			Tile: uint32(tile), X: x, Y: y, Rotation: uint32(rotation)}}}, nil
	}
	return nil, fmt.Errorf("%q is not an action: t12 1,-1 r1, stone 1,-1 tr, take or pass", text)
}

// parseMicropulPosition reads a position "x , y" at the start of words (split at the comma) and returns the words
// after it.
func parseMicropulPosition(words []string) (x, y int32, rest []string, err error) {
	if len(words) < 3 || words[1] != "," {
		return 0, 0, nil, errors.New("a position is x,y from the start tile, such as 1,-1")
	}
	coords := [2]int32{}
	for i, w := range []string{words[0], words[2]} {
		n, err := strconv.Atoi(w)
		if err != nil || len(w) > 3 || n < -micropulMaxCoord || n > micropulMaxCoord {
			return 0, 0, nil, fmt.Errorf("%q is not a coordinate from -%d to %d", w, micropulMaxCoord, micropulMaxCoord)
		}
		coords[i] = int32(n)
	}
	return coords[0], coords[1], words[3:], nil
}

// parseQuadrant reads a quadrant's name or its compass alias.
func parseQuadrant(word string) (rulebookv1.MicropulQuadrant, error) {
	for q := 1; q < len(quadrantNames); q++ {
		if word == quadrantNames[q] || word == quadrantAliases[q] {
			return rulebookv1.MicropulQuadrant(q), nil
		}
	}
	return 0, fmt.Errorf("%q is not a quadrant: tl, tr, br or bl (or nw, ne, se, sw)", word)
}

// parseBounded reads a number from 0 to limit, which the error calls what.
func parseBounded(text, what string, limit int) (int, error) {
	n, err := strconv.Atoi(text)
	if err != nil || len(text) > 2 || text[0] < '0' || text[0] > '9' || n > limit {
		return 0, fmt.Errorf("%q is not %s from 0 to %d", text, what, limit)
	}
	return n, nil
}

// formatMicropul writes a Micropul action.
func formatMicropul(m *rulebookv1.MicropulMove) (string, error) {
	position := func(x, y int32) (string, error) {
		if x < -micropulMaxCoord || x > micropulMaxCoord || y < -micropulMaxCoord || y > micropulMaxCoord {
			return "", fmt.Errorf("position %d,%d is off every Micropul board", x, y)
		}
		return fmt.Sprintf("%d,%d", x, y), nil
	}
	switch a := m.GetAction().(type) {
	case *rulebookv1.MicropulMove_PlaceTile:
		t := a.PlaceTile
		if t.GetTile() > micropulMaxTile || t.GetRotation() > micropulMaxTurns {
			return "", fmt.Errorf("tile %d turned %d times is not a Micropul tile", t.GetTile(), t.GetRotation())
		}
		at, err := position(t.GetX(), t.GetY())
		return fmt.Sprintf("t%d %s r%d", t.GetTile(), at, t.GetRotation()), err
	case *rulebookv1.MicropulMove_PlaceStone:
		s := a.PlaceStone
		name := QuadrantName(s.GetQuadrant())
		if name == "?" {
			return "", errors.New("a stone in no quadrant")
		}
		at, err := position(s.GetX(), s.GetY())
		return "stone " + at + " " + name, err
	case *rulebookv1.MicropulMove_TakeTile:
		return "take", nil
	case *rulebookv1.MicropulMove_Pass:
		return "pass", nil
	}
	return "", errors.New("a Micropul move with no action")
}
