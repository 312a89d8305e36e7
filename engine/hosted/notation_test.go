package hosted

import (
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestParse reads moves of every game in its notation, and refuses text that is no move, with the error a person
// sees.
func TestParse(t *testing.T) {
	tests := []struct {
		game, text string
		want       string // the move of player 2 in protobuf JSON, or the error's text
		err        bool
	}{
		{"exploze", "a1", `{"player":2,"exploze":{}}`, false},
		{"exploze", " C3 ", `{"player":2,"exploze":{"row":2,"col":2}}`, false},
		{"exploze", "af32", `{"player":2,"exploze":{"row":31,"col":31}}`, false},
		{"exploze", "z1", `{"player":2,"exploze":{"col":25}}`, false},
		{"exploze", "ag1", `square ag1 is off every board of the game (at most af32)`, true},
		{"exploze", "a33", `square a33 is off every board of the game (at most af32)`, true},
		{"exploze", "a0", `"a0" is not a square: a column letter and a row number, such as c3`, true},
		{"exploze", "3c", `"3c" is not a square: a column letter and a row number, such as c3`, true},
		{"exploze", "", `no move`, true},
		{"exploze", "c3 d4", `"c3 d4" is not a square: a column letter and a row number, such as c3`, true},
		{"kipicot", "skip", `{"player":2,"kipicot":{"skip":{}}}`, false},
		{"kipicot", "b2-b3", `{"player":2,"kipicot":{"moveToken":{"from":{"row":1,"col":1},"to":{"row":2,"col":1}}}}`, false},
		{"kipicot", "b2 - b3", `{"player":2,"kipicot":{"moveToken":{"from":{"row":1,"col":1},"to":{"row":2,"col":1}}}}`, false},
		{"kipicot", "r c3", `{"player":2,"kipicot":{"place":{"color":"KIPICOT_COLOR_RED","to":{"row":2,"col":2}}}}`, false},
		{"kipicot", "Yellow e5", `{"player":2,"kipicot":{"place":{"color":"KIPICOT_COLOR_YELLOW","to":{"row":4,"col":4}}}}`, false},
		{"kipicot", "pawn a1", `{"player":2,"kipicot":{"pawn":{"to":{}}}}`, false},
		{"kipicot", "fish d4", `{"player":2,"kipicot":{"fish":{"corner":{"row":3,"col":3}}}}`, false},
		{"kipicot", "skip;", `{"player":2,"kipicot":{"turn":{"steps":[{"skip":{}}]}}}`, false},
		{"kipicot", "skip; y a1; p a1", `{"player":2,"kipicot":{"turn":{"steps":[{"skip":{}},` +
			`{"place":{"color":"KIPICOT_COLOR_YELLOW","to":{}}},{"pawn":{"to":{}}}]}}}`, false},
		{"kipicot", "f6", `"f6" is not a step: skip, b2-b3, r c3, y c3, pawn c3 or fish b2`, true},
		{"kipicot", "r f1", `square f1 is off every board of the game (at most e5)`, true},
		{"kipicot", "pawn", `"pawn" takes one square, such as pawn c3`, true},
		{"kipicot", "skip now", `"skip" takes nothing after it`, true},
		{"kipicot", "skip;;", `step 2: an empty step`, true},
		{"kipicot", "skip; skip; skip; skip; skip", `a turn has at most 4 steps`, true},
		{"micropul", "t12 1,-1 r1", `{"player":2,"micropul":{"placeTile":{"tile":12,"x":1,"y":-1,"rotation":1}}}`, false},
		{"micropul", "T3 (0, 1)", `{"player":2,"micropul":{"placeTile":{"tile":3,"y":1}}}`, false},
		{"micropul", "stone -2,0 nw", `{"player":2,"micropul":{"placeStone":{"x":-2,"quadrant":"MICROPUL_QUADRANT_TOP_LEFT"}}}`, false},
		{"micropul", "stone 0,0 br", `{"player":2,"micropul":{"placeStone":{"quadrant":"MICROPUL_QUADRANT_BOTTOM_RIGHT"}}}`, false},
		{"micropul", "take", `{"player":2,"micropul":{"takeTile":{}}}`, false},
		{"micropul", "pass", `{"player":2,"micropul":{"pass":{}}}`, false},
		{"micropul", "t48 0,1", `"48" is not a tile from 0 to 47`, true},
		{"micropul", "t 0,1", `"" is not a tile from 0 to 47`, true},
		{"micropul", "t1 0,1 r4", `"4" is not a rotation from 0 to 3`, true},
		{"micropul", "t1 0 1", `a position is x,y from the start tile, such as 1,-1`, true},
		{"micropul", "t1 0,48", `"48" is not a coordinate from -47 to 47`, true},
		{"micropul", "stone 0,0", `a stone takes a position and a quadrant, such as stone 1,-1 tr`, true},
		{"micropul", "stone 0,0 up", `"up" is not a quadrant: tl, tr, br or bl (or nw, ne, se, sw)`, true},
		{"micropul", "(", `"(" is not an action: t12 1,-1 r1, stone 1,-1 tr, take or pass`, true},
		{"ubongo-duel", "giveup", `{"player":2,"ubongoDuel":{"giveUp":{}}}`, false},
		{"ubongo-duel", "give  up", `{"player":2,"ubongoDuel":{"giveUp":{}}}`, false},
		{"ubongo-duel", "close", `{"player":2,"ubongoDuel":{"closeDuel":{}}}`, false},
		{"ubongo-duel", "A a1 b1; b c2,c3", `{"player":2,"ubongoDuel":{"submit":{"placements":[{"piece":"A","cells":[{},{"x":1}]},` +
			`{"piece":"B","cells":[{"x":2,"y":1},{"x":2,"y":2}]}]}}}`, false},
		{"ubongo-duel", "A", `"a" is not a piece's placement: its letter (A to U) and the squares it covers, such as A a1 b1 b2, or giveup or close`, true},
		{"ubongo-duel", "V a1", `"v a1" is not a piece's placement: its letter (A to U) and the squares it covers, such as A a1 b1 b2, or giveup or close`, true},
		{"exploze", strings.Repeat("a", engine.MaxMoveText+1), `a move is at most 1024 characters`, true},
	}
	for _, tt := range tests {
		t.Run(tt.game+" "+tt.text, func(t *testing.T) {
			m, err := parse(t, tt.game, 2, tt.text)
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

// TestFormat writes moves of every game in its notation: those the notation can name, and the others it writes
// anyway, which ParseMove refuses; a move of another game is the engine's GAME_MISMATCH.
func TestFormat(t *testing.T) {
	tests := []struct {
		game, move string // a Move in protobuf JSON
		want       string
	}{
		{"exploze", `{"exploze":{"row":2,"col":27}}`, "ab3"},
		{"exploze", `{"exploze":{"row":-1}}`, "[0,-1]"},
		{"kipicot", `{"kipicot":{"turn":{"steps":[{"skip":{}},{"moveToken":{"from":{},"to":{"col":1}}}]}}}`, "skip; a1-b1"},
		{"kipicot", `{"kipicot":{"turn":{"steps":[{"fish":{"corner":{"row":3,"col":3}}}]}}}`, "fish d4;"},
		{"kipicot", `{"kipicot":{"place":{"color":"KIPICOT_COLOR_YELLOW","to":{"row":4}}}}`, "y a5"},
		{"kipicot", `{"kipicot":{}}`, "no step"},
		{"micropul", `{"micropul":{"placeTile":{"tile":7,"x":-3,"y":2,"rotation":3}}}`, "t7 -3,2 r3"},
		{"micropul", `{"micropul":{"placeStone":{"x":1,"y":1,"quadrant":"MICROPUL_QUADRANT_BOTTOM_LEFT"}}}`, "stone 1,1 bl"},
		{"micropul", `{"micropul":{}}`, "no action"},
		{"ubongo-duel", `{"ubongoDuel":{"receivedAt":"5","giveUp":{}}}`, "giveup"},
		{"ubongo-duel", `{"ubongoDuel":{"submit":{"placements":[{"piece":"U","cells":[{"x":3,"y":0}]}]}}}`, "U d1"},
		{"ubongo-duel", `{"ubongoDuel":{}}`, "no action"},
		{"exploze", `{"kipicot":{"skip":{}}}`, "GAME_MISMATCH"},
	}
	for _, tt := range tests {
		t.Run(tt.move, func(t *testing.T) {
			m := &rulebookv1.Move{}
			if err := protojson.Unmarshal([]byte(tt.move), m); err != nil {
				t.Fatal(err)
			}
			got, err := notationOf(t, tt.game).Format(m)
			if e, ok := engine.AsError(err); ok {
				got = e.Reason
			}
			if got != tt.want {
				t.Fatalf("Format = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestLegalMovesRoundTrip plays seeded random games of every hosted game and checks that every legal move of every
// position formats to a notation that parses back to the same move: it fails for a hosted game without a notation.
func TestLegalMovesRoundTrip(t *testing.T) {
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	for _, g := range Games() {
		id := g.Info().GetId()
		t.Run(id, func(t *testing.T) {
			checked := 0
			for seed := range uint64(seeds) {
				state, err := g.New(nil, seed)
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
						checkRoundTrip(t, id, m)
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
	n := notationOf(t, game)
	text, err := n.Format(move)
	if err != nil {
		t.Fatalf("Format(%v): %v", move, err)
	}
	back, err := n.Parse(move.GetPlayer(), text)
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

// FuzzParse checks that no game's notation panics on any text, and that every move one reads formats to a notation
// that parses back to the same move.
func FuzzParse(f *testing.F) {
	for _, seed := range []struct{ game, text string }{
		{"exploze", "c3"}, {"exploze", "af32"}, {"kipicot", "skip; r c3; pawn c3"}, {"kipicot", "b2-b3"}, {"kipicot", "fish a1;"},
		{"micropul", "t12 1,-1 r1"}, {"micropul", "stone (0,0) nw"}, {"micropul", "take"}, {"ubongo-duel", "A a1 b1; B c1"},
		{"ubongo-duel", "giveup"},
	} {
		f.Add(seed.game, seed.text)
	}
	f.Fuzz(func(t *testing.T, game, text string) {
		n, ok := NotationOf(game)
		if !ok {
			return
		}
		if m, err := n.Parse(1, text); err == nil {
			checkRoundTrip(t, game, m)
		}
	})
}

// notationOf returns the notation of the hosted game id.
func notationOf(t *testing.T, id string) Notation {
	t.Helper()
	n, ok := NotationOf(id)
	if !ok {
		t.Fatalf("no notation of %q", id)
	}
	return n
}

// parse reads text, a move of player in the notation of game.
func parse(t *testing.T, game string, player int32, text string) (*rulebookv1.Move, error) {
	t.Helper()
	return notationOf(t, game).Parse(player, text)
}
