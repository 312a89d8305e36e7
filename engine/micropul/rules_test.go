package micropul

import (
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
)

// Boards used by the rule tests (see helpers_test.go for the notation).
const (
	// twoOnes: the tiles around (1,-1) where a catalyst of the new tile touches two micropuls.
	twoOnesBoard = "46@0,-1/0 26@1,0/0"
	// twoCatalysts: a micropul placed at (1,-1) BL will touch the 1 of (0,-1) BR and the 1 of (1,0) TL.
	twoCatalystsBoard = "16@0,-1/3 11@1,0/0"
	// almostClosed: the white group of the start tile lacks only (1,-1) to be closed.
	almostClosedBoard = "20@0,-1/2 1@-1,0/2 13@1,0/3 0@-1,-1/2"
	// plusNorth: tile 18 north of the start, with a + in its TR quadrant.
	plusNorthBoard = "18@0,-1/2"
)

// TestCatalysts checks catalyst activation: once per catalyst however many micropuls it touches, once per catalyst
// on one micropul, the big micropul's centre, draws into the supply and extra turns.
func TestCatalysts(t *testing.T) {
	for _, c := range []struct {
		name   string
		board  string
		tile   int
		at     Coord
		rot    int
		opts   Options
		events []string
		supply int
	}{
		{"one catalyst touching two micropuls fires once", twoOnesBoard, 12, Coord{1, -1}, 0, Options{},
			[]string{"P1 placed 12 r0 at (1,-1)", "catalyst 1 at (1,-1) BL: draw 1", "P1 drew 1 [0], 34 left"}, 1},
		{"two catalysts touching one micropul both fire", twoCatalystsBoard, 14, Coord{1, -1}, 3, Options{},
			[]string{"P1 placed 14 r3 at (1,-1)", "catalyst 1 at (0,-1) BR: draw 1", "P1 drew 1 [0], 34 left",
				"catalyst 1 at (1,0) TL: draw 1", "P1 drew 1 [1], 33 left"}, 2},
		{"big micropul's centre touching two micropuls fires once", "", 42, Coord{0, -1}, 0, Options{},
			[]string{"P1 placed 42 r0 at (0,-1)", "catalyst 1 at (0,-1) centre: draw 1", "P1 drew 1 [0], 34 left"}, 1},
		{"two pluses: two extra turns (default)", plusNorthBoard, 36, Coord{1, -1}, 0, Options{},
			[]string{"P1 placed 36 r0 at (1,-1)", "catalyst + at (0,-1) TR: extra turn",
				"catalyst + at (1,-1) centre: extra turn", "P1 won 2 extra turns"}, 0},
		{"two pluses: one extra turn (ORIGINAL_2004)", plusNorthBoard, 36, Coord{1, -1}, 0,
			Options{Rules: Original2004},
			[]string{"P1 placed 36 r0 at (1,-1)", "catalyst + at (0,-1) TR: extra turn",
				"catalyst + at (1,-1) centre: extra turn", "P1 won 1 extra turns"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := build{opts: c.opts, board: c.board, hands: [][]int{{c.tile, 47}, {45}}}.state(t)
			next, events := apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: c.tile, At: c.at, Rotation: c.rot})
			if got := enginetest.Strings(events); !slices.Equal(got, c.events) {
				t.Errorf("events %q, want %q", got, c.events)
			}
			if got := next.Seat(1).SupplyCount; got != c.supply {
				t.Errorf("supply %d, want %d", got, c.supply)
			}
		})
	}
}

// TestExtraTurns checks that extra turns keep the mover and are counted down, and that both rule sets pass (or not)
// in an extra turn.
func TestExtraTurns(t *testing.T) {
	s := build{board: plusNorthBoard, hands: [][]int{{0, 36}, {47}}}.state(t)
	s, _ = apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: 36, At: Coord{1, -1}})
	if s.ToMove() != 1 || !s.ExtraTurn() || s.ExtraTurnsPending() != 1 {
		t.Fatalf("after two pluses: to move %d, extra %v, pending %d; want 1, true, 1", s.ToMove(), s.ExtraTurn(),
			s.ExtraTurnsPending())
	}
	s, events := apply(t, s, Move{Player: 1, Action: Pass})
	if got := enginetest.Strings(events); !slices.Equal(got, []string{"P1 passed"}) || s.ToMove() != 1 ||
		s.ExtraTurnsPending() != 0 {
		t.Errorf("pass in an extra turn: %q, to move %d, pending %d", got, s.ToMove(), s.ExtraTurnsPending())
	}
	s, _ = apply(t, s, Move{Player: 1, Action: Pass})
	if s.ToMove() != 2 || s.ExtraTurn() {
		t.Errorf("after the last extra turn: to move %d, extra %v; want 2, false", s.ToMove(), s.ExtraTurn())
	}
	o := build{opts: Options{Rules: Original2004}, board: plusNorthBoard, hands: [][]int{{0, 36}, {47}}}.state(t)
	o, _ = apply(t, o, Move{Player: 1, Action: PlaceTile, Tile: 36, At: Coord{1, -1}})
	enginetest.WantError(t, o.Validate(Move{Player: 1, Action: Pass}), engine.Illegal, ReasonPassNotAllowed, "")
}

// TestStoneRuleSets checks where a stone may go under each rule set.
func TestStoneRuleSets(t *testing.T) {
	m := Move{Player: 1, Action: PlaceStone, At: Coord{}, Quadrant: TL}
	d := build{hands: [][]int{{0}, {1}}}.state(t)
	enginetest.WantError(t, d.Validate(m), engine.Illegal, ReasonGroupTooSmall, "")
	o := build{opts: Options{Rules: Original2004}, hands: [][]int{{0}, {1}}}.state(t)
	if err := o.Validate(m); err != nil {
		t.Errorf("ORIGINAL_2004, stone on a one-tile group: %v", err)
	}
	two := build{board: plusNorthBoard, hands: [][]int{{0}, {1}}}.state(t)
	next, _ := apply(t, two, m)
	if got := next.StonesLeft(1); got != 2 {
		t.Errorf("stones left %d, want 2", got)
	}
}

// TestClosedGroup checks that a placement closes a group and that its one stone then scores a point per micropul.
func TestClosedGroup(t *testing.T) {
	s := build{board: almostClosedBoard, hands: [][]int{{6}, {47}}, stones: "1@0,0:TL"}.state(t)
	if g := s.Score().Groups; len(g) != 1 || g[0].Closed || g[0].Points != 0 || g[0].Micropuls != 5 {
		t.Fatalf("before: groups %+v, want one open group of 5", g)
	}
	next, _ := apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: 6, At: Coord{1, -1}, Rotation: 3})
	sc := next.Score()
	if g := sc.Groups; len(g) != 1 || !g[0].Closed || g[0].Points != 6 || g[0].Owner != 1 || g[0].Tiles != 4 {
		t.Errorf("after: groups %+v, want one closed group of 6 micropuls on 4 tiles owned by 1", g)
	}
	if p := sc.Players[0]; p.Groups != 6 || p.Hand != 0 || p.Total != 6+2*p.Supply/2 {
		t.Errorf("player 1 score %+v", p)
	}
}

// TestTwoStonesScoreNothing checks that a closed group carrying two stones (a merged group) scores 0.
func TestTwoStonesScoreNothing(t *testing.T) {
	s := build{board: almostClosedBoard + " 6@1,-1/3", hands: [][]int{{5}, {47}},
		stones: "1@0,0:TL 2@1,-1:BL"}.state(t)
	sc := s.Score()
	if g := sc.Groups; len(g) != 1 || !g[0].Closed || g[0].Points != 0 || len(g[0].Stones) != 2 {
		t.Errorf("groups %+v, want one closed group with two stones and no points", g)
	}
	if sc.Players[0].Groups != 0 || sc.Players[1].Groups != 0 {
		t.Errorf("group points %d and %d, want 0", sc.Players[0].Groups, sc.Players[1].Groups)
	}
}

// TestMergedGroupScoresNothing places a tile that joins two white groups, each claimed by a different player, into
// one group carrying both stones, which scores nothing.
func TestMergedGroupScoresNothing(t *testing.T) {
	// Tile 26 at (0,-1), turned once, has a white micropul at BL (joined to the start tile's whites) and an isolated
	// one at TR; tile 0 at (1,0) extends the start tile's whites. Tile 46 at (1,-1) touches both.
	s := build{opts: Options{Rules: Original2004}, board: "26@0,-1/1 0@1,0/0", hands: [][]int{{46}, {47}},
		stones: "1@0,0:TL 2@0,-1:TR"}.state(t)
	before := s.Score().Groups
	if len(before) != 2 || len(before[0].Stones) != 1 || len(before[1].Stones) != 1 {
		t.Fatalf("groups before %+v, want two groups with a stone each", before)
	}
	next, _ := apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: 46, At: Coord{1, -1}})
	after := next.Score()
	if g := after.Groups; len(g) != 1 || len(g[0].Stones) != 2 || g[0].Points != 0 {
		t.Errorf("groups after %+v, want one group carrying both stones, worth nothing", g)
	}
	if after.Players[0].Groups != 0 || after.Players[1].Groups != 0 {
		t.Errorf("group points %d and %d, want 0", after.Players[0].Groups, after.Players[1].Groups)
	}
}

// TestCoreEmptyEndsGame checks that drawing the last core tile ends the game at once, pending extra turns lost.
func TestCoreEmptyEndsGame(t *testing.T) {
	s := build{board: plusNorthBoard, hands: [][]int{{42}, {47}}, coreSize: 1}.unreachable(t)
	next, events := apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: 42, At: Coord{1, -1}})
	want := []string{"P1 placed 42 r0 at (1,-1)", "catalyst + at (0,-1) TR: extra turn",
		"catalyst 1 at (1,-1) centre: draw 1", "P1 drew 1 [0], 0 left", "game over (core empty): winners [2]"}
	if got := enginetest.Strings(events); !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
	if !next.Over() || next.End() != CoreEmpty || next.ToMove() != 0 || next.ExtraTurnsPending() != 0 {
		t.Errorf("over %v end %v to move %d pending %d", next.Over(), next.End(), next.ToMove(), next.ExtraTurnsPending())
	}
}

// TestOutOfTiles checks that a player left with no tile in hand or supply loses at once.
func TestOutOfTiles(t *testing.T) {
	s := build{hands: [][]int{{0}, {47}}}.state(t)
	next, events := apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: 0, At: Coord{0, -1}, Rotation: 3})
	want := []string{"P1 placed 0 r3 at (0,-1)", "P1 is out of tiles and loses", "game over (out of tiles): winners [2]"}
	if got := enginetest.Strings(events); !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
	if next.Loser() != 1 || !next.Score().Players[0].Lost {
		t.Errorf("loser %d, want 1", next.Loser())
	}
}

// TestTakeOnly checks a player whose only action is taking a tile from the supply (no hand, no group of two
// tiles), and that the supply's last tile is the one taken.
func TestTakeOnly(t *testing.T) {
	s := build{opts: Options{Players: 1}, hands: [][]int{{}}, supplies: [][]int{{5}}}.state(t)
	if legal := s.Legal(1); len(legal) != 1 || legal[0].Action != TakeTile {
		t.Errorf("legal %v, want only take", legal)
	}
	next, events := apply(t, s, Move{Player: 1, Action: TakeTile})
	if got := enginetest.Strings(events); !slices.Equal(got, []string{"P1 took 47 from the supply"}) ||
		!slices.Equal(next.Seat(1).Hand, []int{47}) {
		t.Errorf("events %q, hand %v", got, next.Seat(1).Hand)
	}
}

// TestSolo checks a seeded solo game to its end and its band.
func TestSolo(t *testing.T) {
	s := playout(t, Options{Players: 1}, 3)
	sc := s.Score()
	if !sc.Over || sc.Band != BandOf(sc.Players[0].Total) || sc.Band == NoBand {
		t.Errorf("score %+v", sc)
	}
	for _, c := range []struct {
		points int
		band   SoloBand
	}{{0, Novice}, {29, Novice}, {30, Beginner}, {59, Beginner}, {60, Normal}, {74, Normal}, {75, Advanced},
		{89, Advanced}, {90, Expert}, {100, Expert}, {101, Master}} {
		if got := BandOf(c.points); got != c.band {
			t.Errorf("BandOf(%d) = %v, want %v", c.points, got, c.band)
		}
	}
}

// playout plays a seeded game with the first legal move of a simple order (placements first) and returns its end.
func playout(t testing.TB, opts Options, seed uint64) *State {
	t.Helper()
	s := newGame(t, opts, seed)
	for ply := 0; !s.Over(); ply++ {
		legal := s.Legal(s.ToMove())
		if len(legal) == 0 || ply > maxPlies {
			t.Fatalf("ply %d: no legal move in a game that goes on\n%v", ply, s)
		}
		s, _ = apply(t, s, legal[(ply*7919)%len(legal)])
	}
	return s
}
