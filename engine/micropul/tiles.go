package micropul

import "strconv"

// Symbol is what a quadrant of a tile holds.
type Symbol uint8

// The symbols of the quadrants.
const (
	// Empty is a quadrant with nothing on it.
	Empty Symbol = iota
	// White and Black are micropuls.
	White
	Black
	// One and Two are the dot catalysts: draw one or two tiles from the core into the supply.
	One
	Two
	// Plus is the plus catalyst: another turn.
	Plus
)

// IsMicropul reports whether the symbol is a micropul (White or Black).
func (y Symbol) IsMicropul() bool { return y == White || y == Black }

// IsCatalyst reports whether the symbol is a catalyst (One, Two or Plus).
func (y Symbol) IsCatalyst() bool { return y >= One }

// String returns the symbol as in the rules' tile table: W, B, 1, 2, + or '.'.
func (y Symbol) String() string { return string(".WB12+"[y]) }

// Quadrant names a quadrant of a tile as it lies on the board, clockwise from the top-left.
type Quadrant uint8

// The quadrants, clockwise.
const (
	TL Quadrant = iota
	TR
	BR
	BL
)

// String returns the quadrant's short name, such as "TL".
func (q Quadrant) String() string {
	if q > BL {
		return "Q" + strconv.Itoa(int(q))
	}
	return [...]string{"TL", "TR", "BR", "BL"}[q]
}

// NumTiles is the number of tiles of the game; tile ids are 0 to NumTiles-1.
const NumTiles = 48

// StartTile is the tile that starts the game at (0, 0) in its printed orientation.
const StartTile = 40

// Tile is one of the 48 tiles in its printed orientation.
type Tile struct {
	// ID is the tile's position on the original tile sheet, 0 to 47.
	ID int
	// Quads holds the quadrants TL, TR, BR, BL. A big micropul has its colour in all four.
	Quads [4]Symbol
	// Big tells a big micropul tile, whose Centre catalyst touches all 8 external quadrant sides.
	Big    bool
	Centre Symbol
}

// tileTable is the rules' table: each tile's quadrants clockwise TL TR BR BL, or "*" and colour and centre catalyst
// for a big micropul.
var tileTable = [NumTiles]string{
	"W...", "B...", "WB.+", "BW.+", "+WBW", "+BWB",
	"W.1.", "B.1.", "WB1.", "BW1.", "1WBW", "1BWB",
	"W..1", "B..1", "WW1.", "BB1.", "WWW1", "BBB1",
	"W1.+", "B1.+", "WW.2", "BB.2", "WWB2", "BBW2",
	"W11.", "B11.", "W.W.", "B.B.", "WWBW", "BBWB",
	"W21.", "B21.", "W.B1", "B.W1", "WBWB", "BWBW",
	"*W+", "*B+", "W+W1", "B+B1", "WWBB", "BBWW",
	"*W1", "*B1", "W1B1", "B1W1", "WWWW", "BBBB",
}

// tiles holds the 48 tiles, by id.
var tiles = func() [NumTiles]Tile {
	symbol := map[byte]Symbol{'.': Empty, 'W': White, 'B': Black, '1': One, '2': Two, '+': Plus}
	var out [NumTiles]Tile
	for id, row := range tileTable {
		t := Tile{ID: id}
		if row[0] == '*' {
			c := symbol[row[1]]
			t.Quads, t.Big, t.Centre = [4]Symbol{c, c, c, c}, true, symbol[row[2]]
		} else {
			for q := range 4 {
				t.Quads[q] = symbol[row[q]]
			}
		}
		out[id] = t
	}
	return out
}()

// TileByID returns the tile with the given id; ok is false outside 0..47.
func TileByID(id int) (t Tile, ok bool) {
	if id < 0 || id >= NumTiles {
		return Tile{}, false
	}
	return tiles[id], true
}

// String returns the tile as in the rules' table, such as "WB.+" or "BIG W centre +".
func (t Tile) String() string {
	if t.Big {
		return "BIG " + t.Quads[0].String() + " centre " + t.Centre.String()
	}
	return t.Quads[0].String() + t.Quads[1].String() + t.Quads[2].String() + t.Quads[3].String()
}

// Rotated returns the quadrants of the tile turned r clockwise quarter turns: what was at TL moves to TR.
func (t Tile) Rotated(r int) [4]Symbol {
	var out [4]Symbol
	for q := range 4 {
		out[(q+r)&3] = t.Quads[q]
	}
	return out
}

// Canonical reports whether rotation r is the smallest of the rotations that give the tile the same look (so the one
// the game records): every rotation of a tile with no symmetry, 0 and 1 for a tile with a half-turn symmetry
// (such as 26 W.W.), and 0 alone for a tile that looks the same at every quarter turn (46, 47 and the big micropuls).
func (t Tile) Canonical(r int) bool {
	if r < 0 || r > 3 {
		return false
	}
	q := t.Rotated(r)
	for k := range r {
		if t.Rotated(k) == q {
			return false
		}
	}
	return true
}

// orientations holds the quadrants of each tile at each rotation.
var orientations = func() (o [NumTiles][4][4]Symbol) {
	for id := range tiles {
		for r := range 4 {
			o[id][r] = tiles[id].Rotated(r)
		}
	}
	return o
}()
