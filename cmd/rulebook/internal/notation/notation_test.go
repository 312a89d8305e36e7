package notation

import (
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
	"github.com/rulebook/rulebook/engine/ubongoduel"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestParse reads moves of every game, and refuses text that is no move, with the error a person sees.
func TestParse(t *testing.T) {
	tests := []struct {
		game, text string
		want       string // the move of player 2 in protobuf JSON, or the error's text
		err        bool
	}{
		{Exploze, "a1", `{"player":2,"exploze":{}}`, false},
		{Exploze, " C3 ", `{"player":2,"exploze":{"row":2,"col":2}}`, false},
		{Exploze, "af32", `{"player":2,"exploze":{"row":31,"col":31}}`, false},
		{Exploze, "z1", `{"player":2,"exploze":{"col":25}}`, false},
		{Exploze, "ag1", `square ag1 is off every board of the game (at most af32)`, true},
		{Exploze, "a33", `square a33 is off every board of the game (at most af32)`, true},
		{Exploze, "a0", `"a0" is not a square: a column letter and a row number, such as c3`, true},
		{Exploze, "3c", `"3c" is not a square: a column letter and a row number, such as c3`, true},
		{Exploze, "", `no move`, true},
		{Exploze, "c3 d4", `"c3 d4" is not a square: a column letter and a row number, such as c3`, true},
		{Kipicot, "skip", `{"player":2,"kipicot":{"skip":{}}}`, false},
		{Kipicot, "b2-b3", `{"player":2,"kipicot":{"moveToken":{"from":{"row":1,"col":1},"to":{"row":2,"col":1}}}}`, false},
		{Kipicot, "b2 - b3", `{"player":2,"kipicot":{"moveToken":{"from":{"row":1,"col":1},"to":{"row":2,"col":1}}}}`, false},
		{Kipicot, "r c3", `{"player":2,"kipicot":{"place":{"color":"KIPICOT_COLOR_RED","to":{"row":2,"col":2}}}}`, false},
		{Kipicot, "Yellow e5", `{"player":2,"kipicot":{"place":{"color":"KIPICOT_COLOR_YELLOW","to":{"row":4,"col":4}}}}`, false},
		{Kipicot, "pawn a1", `{"player":2,"kipicot":{"pawn":{"to":{}}}}`, false},
		{Kipicot, "fish d4", `{"player":2,"kipicot":{"fish":{"corner":{"row":3,"col":3}}}}`, false},
		{Kipicot, "skip;", `{"player":2,"kipicot":{"turn":{"steps":[{"skip":{}}]}}}`, false},
		{Kipicot, "skip; y a1; p a1", `{"player":2,"kipicot":{"turn":{"steps":[{"skip":{}},` +
			`{"place":{"color":"KIPICOT_COLOR_YELLOW","to":{}}},{"pawn":{"to":{}}}]}}}`, false},
		{Kipicot, "f6", `"f6" is not a step: skip, b2-b3, r c3, y c3, pawn c3 or fish b2`, true},
		{Kipicot, "r f1", `square f1 is off every board of the game (at most e5)`, true},
		{Kipicot, "pawn", `"pawn" takes one square, such as pawn c3`, true},
		{Kipicot, "skip now", `"skip" takes nothing after it`, true},
		{Kipicot, "skip;;", `step 2: an empty step`, true},
		{Kipicot, "skip; skip; skip; skip; skip", `a turn has at most 4 steps`, true},
		{Micropul, "t12 1,-1 r1", `{"player":2,"micropul":{"placeTile":{"tile":12,"x":1,"y":-1,"rotation":1}}}`, false},
		{Micropul, "T3 (0, 1)", `{"player":2,"micropul":{"placeTile":{"tile":3,"y":1}}}`, false},
		{Micropul, "stone -2,0 nw", `{"player":2,"micropul":{"placeStone":{"x":-2,"quadrant":"MICROPUL_QUADRANT_TOP_LEFT"}}}`, false},
		{Micropul, "stone 0,0 br", `{"player":2,"micropul":{"placeStone":{"quadrant":"MICROPUL_QUADRANT_BOTTOM_RIGHT"}}}`, false},
		{Micropul, "take", `{"player":2,"micropul":{"takeTile":{}}}`, false},
		{Micropul, "pass", `{"player":2,"micropul":{"pass":{}}}`, false},
		{Micropul, "t48 0,1", `"48" is not a tile from 0 to 47`, true},
		{Micropul, "t 0,1", `"" is not a tile from 0 to 47`, true},
		{Micropul, "t1 0,1 r4", `"4" is not a rotation from 0 to 3`, true},
		{Micropul, "t1 0 1", `a position is x,y from the start tile, such as 1,-1`, true},
		{Micropul, "t1 0,48", `"48" is not a coordinate from -47 to 47`, true},
		{Micropul, "stone 0,0", `a stone takes a position and a quadrant, such as stone 1,-1 tr`, true},
		{Micropul, "stone 0,0 up", `"up" is not a quadrant: tl, tr, br or bl (or nw, ne, se, sw)`, true},
		{Micropul, "(", `"(" is not an action: t12 1,-1 r1, stone 1,-1 tr, take or pass`, true},
		{UbongoDuel, "giveup", `{"player":2,"ubongoDuel":{"giveUp":{}}}`, false},
		{UbongoDuel, "give  up", `{"player":2,"ubongoDuel":{"giveUp":{}}}`, false},
		{UbongoDuel, "close", `{"player":2,"ubongoDuel":{"closeDuel":{}}}`, false},
		{UbongoDuel, "A a1 b1; b c2,c3", `{"player":2,"ubongoDuel":{"submit":{"placements":[{"piece":"A","cells":[{},{"x":1}]},` +
			`{"piece":"B","cells":[{"x":2,"y":1},{"x":2,"y":2}]}]}}}`, false},
		{UbongoDuel, "A", `"a" is not a piece's placement: its letter (A to U) and the squares it covers, such as A a1 b1 b2, or giveup or close`, true},
		{UbongoDuel, "V a1", `"v a1" is not a piece's placement: its letter (A to U) and the squares it covers, such as A a1 b1 b2, or giveup or close`, true},
		{UbongoDuel, "A a1 a2 a3 a4 a5 a6 a7", `piece A covers 7 squares: no piece has more than 6`, true},
		{"chess", "e4", `no notation for game "chess"`, true},
		{Exploze, strings.Repeat("a", maxText+1), `a move is at most 1024 characters`, true},
	}
	for _, tt := range tests {
		t.Run(tt.game+" "+tt.text, func(t *testing.T) {
			m, err := Parse(tt.game, 2, tt.text)
			if tt.err {
				if err == nil || err.Error() != tt.want {
					t.Fatalf("Parse = %v, %v; want the error %q", m, err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			want := &rulebookv1.Move{}
			if err := protojson.Unmarshal([]byte(tt.want), want); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(m, want) {
				t.Fatalf("Parse = %v, want %v", m, want)
			}
			checkRoundTrip(t, tt.game, m)
		})
	}
}

// TestFormat writes moves of every game, and refuses those the notation cannot write.
func TestFormat(t *testing.T) {
	tests := []struct {
		move string // a Move in protobuf JSON
		want string
		err  bool
	}{
		{`{"exploze":{"row":2,"col":27}}`, "ab3", false},
		{`{"exploze":{"row":32}}`, "the move's square is off every Exploze board", true},
		{`{"kipicot":{"turn":{"steps":[{"skip":{}},{"moveToken":{"from":{},"to":{"col":1}}}]}}}`, "skip; a1-b1", false},
		{`{"kipicot":{"turn":{}}}`, "a turn of 0 steps, not 1 to 4", true},
		{`{"kipicot":{"place":{"to":{}}}}`, "a placement of a token that is neither red nor yellow", true},
		{`{"kipicot":{"pawn":{"to":{"row":5}}}}`, "square (5,0) is off the board", true},
		{`{"kipicot":{}}`, "a step that says nothing", true},
		{`{"micropul":{"placeTile":{"tile":7,"x":-3,"y":2,"rotation":3}}}`, "t7 -3,2 r3", false},
		{`{"micropul":{"placeStone":{"x":1,"y":1,"quadrant":"MICROPUL_QUADRANT_BOTTOM_LEFT"}}}`, "stone 1,1 bl", false},
		{`{"micropul":{"placeStone":{"x":1,"y":1}}}`, "a stone in no quadrant", true},
		{`{"micropul":{"placeTile":{"tile":1,"x":48}}}`, "position 48,0 is off every Micropul board", true},
		{`{"micropul":{}}`, "a Micropul move with no action", true},
		{`{"ubongoDuel":{"receivedAt":"5","giveUp":{}}}`, "giveup", false},
		{`{"ubongoDuel":{"submit":{"placements":[{"piece":"U","cells":[{"x":3,"y":0}]}]}}}`, "U d1", false},
		{`{"ubongoDuel":{"submit":{}}}`, "a solution of 0 pieces, not 1 to 21", true},
		{`{"ubongoDuel":{"submit":{"placements":[{"piece":"Z","cells":[{}]}]}}}`, `piece "Z" is not a letter A to U`, true},
		{`{"ubongoDuel":{}}`, "an Ubongo Duel move with no action", true},
		{`{"player":1}`, "the move holds no game's move", true},
	}
	for _, tt := range tests {
		t.Run(tt.move, func(t *testing.T) {
			m := &rulebookv1.Move{}
			if err := protojson.Unmarshal([]byte(tt.move), m); err != nil {
				t.Fatal(err)
			}
			got, err := Format(m)
			switch {
			case tt.err && (err == nil || err.Error() != tt.want):
				t.Fatalf("Format = %q, %v; want the error %q", got, err, tt.want)
			case !tt.err && (err != nil || got != tt.want):
				t.Fatalf("Format = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestSquare names squares and reads them back, across the columns that take two letters.
func TestSquare(t *testing.T) {
	for _, tt := range []struct {
		col, row int
		want     string
	}{{0, 0, "a1"}, {25, 9, "z10"}, {26, 0, "aa1"}, {51, 0, "az1"}, {52, 63, "ba64"}, {-1, 0, "[-1,0]"}} {
		if got := Square(tt.col, tt.row); got != tt.want {
			t.Errorf("Square(%d, %d) = %q, want %q", tt.col, tt.row, got, tt.want)
		}
	}
	for col := range 64 {
		for row := range 64 {
			c, r, err := parseSquare(Square(col, row), 64)
			if err != nil || c != col || r != row {
				t.Fatalf("parseSquare(%q) = %d, %d, %v", Square(col, row), c, r, err)
			}
		}
	}
}

// TestLegalMovesRoundTrip plays seeded random games of every game with its engine and checks that every legal move
// of every position formats to a notation that parses back to the same move.
func TestLegalMovesRoundTrip(t *testing.T) {
	games := []struct {
		id      string
		game    engine.Game
		options *rulebookv1.GameOptions
	}{
		{Exploze, exploze.Game{}, &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{
			Exploze: &rulebookv1.ExplozeOptions{Rows: 5, Cols: 5, Players: 3}}}},
		{Kipicot, kipicot.Game{}, nil},
		{Micropul, micropul.Game{}, nil},
		{UbongoDuel, ubongoduel.Game{}, nil},
	}
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	for _, g := range games {
		t.Run(g.id, func(t *testing.T) {
			checked := 0
			for seed := range uint64(seeds) {
				state, err := g.game.New(g.options, seed)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(seed, 1))
				for range 400 { // bounded: every game here ends sooner, or its legal moves are all checked by then
					legal, err := state.Legal(engine.NoPlayer)
					if err != nil {
						t.Fatal(err)
					}
					if len(legal) == 0 {
						break
					}
					for _, m := range legal {
						checkRoundTrip(t, g.id, m)
						checked++
					}
					if state, _, err = state.Apply(legal[rng.IntN(len(legal))]); err != nil {
						t.Fatal(err)
					}
				}
			}
			if checked == 0 {
				t.Fatal("no legal move checked")
			}
		})
	}
}

// checkRoundTrip checks that move formats to a notation that parses back to move, for the same player. An Ubongo
// Duel move comes back without its receive time, which the service stamps.
func checkRoundTrip(t *testing.T, game string, move *rulebookv1.Move) {
	t.Helper()
	text, err := Format(move)
	if err != nil {
		t.Fatalf("Format(%v): %v", move, err)
	}
	back, err := Parse(game, move.GetPlayer(), text)
	if err != nil {
		t.Fatalf("Parse(%q), the notation of %v: %v", text, move, err)
	}
	want := move
	if u := move.GetUbongoDuel(); u != nil && u.GetReceivedAt() != 0 {
		want = proto.Clone(move).(*rulebookv1.Move)
		want.GetUbongoDuel().ReceivedAt = 0
	}
	if !proto.Equal(back, want) {
		t.Fatalf("%v formats to %q, which parses to %v", move, text, back)
	}
}

// FuzzParse checks that Parse never panics, and that every move it reads formats to a notation that parses back to
// the same move.
func FuzzParse(f *testing.F) {
	for _, seed := range []struct{ game, text string }{
		{Exploze, "c3"}, {Exploze, "af32"}, {Kipicot, "skip; r c3; pawn c3"}, {Kipicot, "b2-b3"}, {Kipicot, "fish a1;"},
		{Micropul, "t12 1,-1 r1"}, {Micropul, "stone (0,0) nw"}, {Micropul, "take"}, {UbongoDuel, "A a1 b1; B c1"},
		{UbongoDuel, "giveup"},
	} {
		f.Add(seed.game, seed.text)
	}
	f.Fuzz(func(t *testing.T, game, text string) {
		m, err := Parse(game, 1, text)
		if err != nil {
			return
		}
		checkRoundTrip(t, game, m)
	})
}
