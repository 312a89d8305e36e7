package micropul

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// fortressBoard surrounds the start tile with 8 tiles so that no micropul faces an empty position: every outer
// quadrant is a catalyst or empty. No tile can be placed anywhere, the white group (8 micropuls) and the black group
// (8 micropuls) are both closed, and they are the only groups.
const fortressBoard = "20@0,-1/2 2@-1,0/1 3@1,0/3 21@0,1/0 0@-1,-1/2 12@1,-1/3 13@-1,1/1 1@1,1/0"

// fortressOpenBoard is the fortress without its north-west corner: the white micropuls next to (-1,-1) face an empty
// position, so the white group is open, though every other neighbouring position of its micropuls is filled.
const fortressOpenBoard = "20@0,-1/2 2@-1,0/1 3@1,0/3 21@0,1/0 12@1,-1/3 13@-1,1/1 1@1,1/0"

// unreachable returns the state of b without NewState's checks: for the corners of the rules (a core of one tile, a
// fortress of tiles that no draw explains, an extra turn pending that no plus catalyst won) that no short game
// reaches, reached here through positions that NewState refuses as unreachable (DRAWS_MISMATCH,
// EXTRA_TURNS_OUT_OF_RANGE). Only the index of the board is built.
func (b build) unreachable(t testing.TB) *State {
	t.Helper()
	p := b.position(t)
	s := &State{opts: p.Options, board: p.Board, stones: p.Stones, core: p.Core, coreCount: len(p.Core),
		toMove: p.ToMove, extraTurn: p.ExtraTurn, pending: p.ExtraTurnsPending, seats: make([]Seat, len(p.Hands))}
	for i := range p.Hands {
		s.seats[i] = Seat{Hand: p.Hands[i], HandCount: len(p.Hands[i]), Supply: p.Supplies[i],
			SupplyCount: len(p.Supplies[i])}
	}
	if _, err := s.checkBoard(); err != nil {
		t.Fatalf("board %q: %v", b.board, err)
	}
	return s
}

// TestPlacementRules checks touch, same-colour match, black/white contact on every side (big micropuls included)
// and catalysts touching anything.
func TestPlacementRules(t *testing.T) {
	for _, c := range []struct {
		name   string
		board  string
		tile   int
		at     Coord
		rot    int
		reason string // "" for legal
	}{
		{"single W turned to touch the start's W", "", 0, Coord{0, -1}, 3, ""},
		{"single W facing empty quadrants", "", 0, Coord{0, -1}, 0, ReasonNoColorMatch},
		{"only a diagonal neighbour", "", 46, Coord{1, -1}, 0, ReasonNotConnected},
		{"two away", "", 46, Coord{0, -2}, 0, ReasonNotConnected},
		{"B on W", "", 1, Coord{0, -1}, 3, ReasonColorConflict},
		{"big W north", "", 36, Coord{0, -1}, 0, ""},
		{"big B north", "", 37, Coord{0, -1}, 0, ReasonColorConflict},
		{"big W south", "", 36, Coord{0, 1}, 0, ReasonColorConflict},
		{"big B south", "", 37, Coord{0, 1}, 0, ""},
		{"big W east: TL matches, BL touches B", "", 36, Coord{1, 0}, 0, ReasonColorConflict},
		{"big W west: TR matches, BR touches B", "", 42, Coord{-1, 0}, 0, ReasonColorConflict},
		{"big B east", "", 43, Coord{1, 0}, 0, ReasonColorConflict},
		// Old big W at (0,-1): a black micropul may touch none of its sides.
		{"B on an old big's north side", "42@0,-1/0", 1, Coord{0, -2}, 3, ReasonColorConflict},
		{"B on an old big's east side", "42@0,-1/0", 1, Coord{1, -1}, 0, ReasonColorConflict},
		{"B on an old big's west side", "42@0,-1/0", 1, Coord{-1, -1}, 1, ReasonColorConflict},
		{"W on an old big's north side", "42@0,-1/0", 0, Coord{0, -2}, 2, ""},
		{"W on an old big's east side (BL)", "42@0,-1/0", 0, Coord{1, -1}, 3, ""},
		{"W on an old big's west side (TR)", "42@0,-1/0", 0, Coord{-1, -1}, 1, ""},
		// At (-1,-1) next to 46 at (0,-1) (east) and 35 at (-1,0) (south: TL B, TR W).
		{"big W: match east, conflict south", "46@0,-1/0 35@-1,0/0", 36, Coord{-1, -1}, 0, ReasonColorConflict},
		{"match east, catalyst on B south", "46@0,-1/0 35@-1,0/0", 14, Coord{-1, -1}, 1, ""},
		{"conflict on the second pair of the matching edge", "46@0,-1/0 35@-1,0/0", 28, Coord{-1, -1}, 0,
			ReasonColorConflict},
		{"B on B south, W on W east", "46@0,-1/0 35@-1,0/0", 28, Coord{-1, -1}, 1, ""},
		{"catalysts and empties only against micropuls", "", 13, Coord{0, -1}, 0, ReasonNoColorMatch},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := build{board: c.board, hands: [][]int{{c.tile}, {47}}}.state(t)
			if c.tile == 47 {
				s = build{board: c.board, hands: [][]int{{c.tile}, {46}}}.state(t)
			}
			m := Move{Player: 1, Action: PlaceTile, Tile: c.tile, At: c.at, Rotation: c.rot}
			err := s.Validate(m)
			legal := slices.Contains(s.Legal(1), m)
			if c.reason == "" {
				if err != nil || !legal {
					t.Errorf("%v: %v (listed %v), want legal", m, err, legal)
				}
				return
			}
			if legal {
				t.Errorf("%v listed as legal", m)
			}
			enginetest.WantError(t, err, engine.Illegal, c.reason, "")
		})
	}
}

// TestActivationCases checks which catalysts fire: both directions, big micropul centres on every side, catalysts
// next to catalysts or empties never, 2 drawing two.
func TestActivationCases(t *testing.T) {
	for _, c := range []struct {
		name   string
		board  string
		tile   int
		at     Coord
		rot    int
		events []string
	}{
		{"new catalyst next to an old catalyst, match elsewhere", plusNorthBoard, 33, Coord{1, -1}, 1,
			[]string{"P1 placed 33 r1 at (1,-1)"}},
		{"old plus touching a new micropul", plusNorthBoard, 46, Coord{1, -1}, 0,
			[]string{"P1 placed 46 r0 at (1,-1)", "catalyst + at (0,-1) TR: extra turn", "P1 won 1 extra turns"}},
		{"new 2 on the start's W draws two", "", 20, Coord{0, -1}, 3,
			[]string{"P1 placed 20 r3 at (0,-1)", "catalyst 2 at (0,-1) BR: draw 2", "P1 drew 2 [0 1], 33 left"}},
		{"new 1 on an old B (catalyst touches any colour)", "46@0,-1/0 35@-1,0/0", 14, Coord{-1, -1}, 1,
			[]string{"P1 placed 14 r1 at (-1,-1)", "catalyst 1 at (-1,-1) BL: draw 1", "P1 drew 1 [0], 34 left"}},
		{"old big centre, new W on its north side", "42@0,-1/0", 0, Coord{0, -2}, 2,
			[]string{"P1 placed 0 r2 at (0,-2)", "catalyst 1 at (0,-1) centre: draw 1", "P1 drew 1 [1], 34 left"}},
		{"old big centre, new W on its east side (TL)", "42@0,-1/0", 0, Coord{1, -1}, 0,
			[]string{"P1 placed 0 r0 at (1,-1)", "catalyst 1 at (0,-1) centre: draw 1", "P1 drew 1 [1], 34 left"}},
		{"old big centre, new W on its east side (BL)", "42@0,-1/0", 0, Coord{1, -1}, 3,
			[]string{"P1 placed 0 r3 at (1,-1)", "catalyst 1 at (0,-1) centre: draw 1", "P1 drew 1 [1], 34 left"}},
		{"old big centre, new W on its west side", "42@0,-1/0", 0, Coord{-1, -1}, 1,
			[]string{"P1 placed 0 r1 at (-1,-1)", "catalyst 1 at (0,-1) centre: draw 1", "P1 drew 1 [1], 34 left"}},
		{"old big centre and the new 1 on it both fire", "42@0,-1/0", 12, Coord{1, -1}, 0,
			[]string{"P1 placed 12 r0 at (1,-1)", "catalyst 1 at (0,-1) centre: draw 1", "P1 drew 1 [0], 34 left",
				"catalyst 1 at (1,-1) BL: draw 1", "P1 drew 1 [1], 33 left"}},
		{"old big centre next to a new catalyst only, match elsewhere", "42@0,-1/0 28@-1,0/0", 18, Coord{-1, -1}, 3,
			[]string{"P1 placed 18 r3 at (-1,-1)", "catalyst + at (-1,-1) BR: extra turn", "P1 won 1 extra turns"}},
		{"new big next to an old big: both centres fire", "36@0,-1/0", 42, Coord{1, -1}, 0,
			[]string{"P1 placed 42 r0 at (1,-1)", "catalyst + at (0,-1) centre: extra turn",
				"catalyst 1 at (1,-1) centre: draw 1", "P1 drew 1 [0], 34 left", "P1 won 1 extra turns"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			hand := []int{c.tile, 47}
			s := build{board: c.board, hands: [][]int{hand, {45}}}.state(t)
			_, events := apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: c.tile, At: c.at, Rotation: c.rot})
			if got := enginetest.Strings(events); !slices.Equal(got, c.events) {
				t.Errorf("events\n %q\nwant\n %q", got, c.events)
			}
		})
	}
}

// TestShortCore checks draws larger than the core: a 2 with one tile left takes it and ends the game, and a plus
// catalyst resolved before the last draw gives no extra turn; extra turns pending from before are lost too.
func TestShortCore(t *testing.T) {
	s := build{hands: [][]int{{20}, {47}}, coreSize: 1}.unreachable(t)
	next, events := apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: 20, At: Coord{0, -1}, Rotation: 3})
	want := []string{"P1 placed 20 r3 at (0,-1)", "catalyst 2 at (0,-1) BR: draw 2", "P1 drew 1 [0], 0 left",
		"game over (core empty): winners [2]"}
	if got := enginetest.Strings(events); !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
	if next.End() != CoreEmpty || next.Seat(1).SupplyCount != 1 {
		t.Errorf("end %v, supply %d", next.End(), next.Seat(1).SupplyCount)
	}
	// In an extra turn with one more pending: the pending turn is lost.
	s = build{board: "0@-1,0/1", hands: [][]int{{20, 36}, {47}}, coreSize: 1, extra: true, pending: 1}.unreachable(t)
	next, _ = apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: 20, At: Coord{0, -1}, Rotation: 3})
	if next.End() != CoreEmpty || next.ExtraTurnsPending() != 0 || next.ExtraTurn() || next.ToMove() != 0 {
		t.Errorf("end %v pending %d extra %v toMove %d", next.End(), next.ExtraTurnsPending(), next.ExtraTurn(),
			next.ToMove())
	}
}

// TestLastHandTile checks that placing the last hand tile loses only when no draw refills the supply.
func TestLastHandTile(t *testing.T) {
	s := build{hands: [][]int{{20}, {47}}}.state(t)
	next, events := apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: 20, At: Coord{0, -1}, Rotation: 3})
	if next.Over() || next.Loser() != 0 || next.ToMove() != 2 {
		t.Errorf("placing the last hand tile with a draw: over %v loser %d, events %q", next.Over(), next.Loser(),
			enginetest.Strings(events))
	}
	// A plus catalyst alone does not save the player: the extra turn is lost with the game.
	s = build{board: plusNorthBoard, hands: [][]int{{46}, {47}}}.state(t)
	next, events = apply(t, s, Move{Player: 1, Action: PlaceTile, Tile: 46, At: Coord{1, -1}})
	if next.End() != OutOfTiles || next.Loser() != 1 || next.ExtraTurnsPending() != 0 {
		t.Errorf("last tile with a plus: end %v loser %d, events %q", next.End(), next.Loser(), enginetest.Strings(events))
	}
	if w := next.Score().Winners; !slices.Equal(w, []engine.Player{2}) {
		t.Errorf("winners %v, want [2]", w)
	}
}

// TestForcedPassAndBlocked uses the fortress, where no tile can be placed and both groups carry a stone.
func TestForcedPassAndBlocked(t *testing.T) {
	hand1, hand2 := []int{4, 5, 6, 7, 8, 9}, []int{10, 11, 14, 15, 16, 17}
	s := build{board: fortressBoard, hands: [][]int{hand1, hand2}, stones: "1@0,0:TL 2@0,0:BR"}.unreachable(t)
	if legal := s.Legal(1); !slices.Equal(legal, []Move{{Player: 1, Action: Pass}}) {
		t.Fatalf("legal %v, want only a pass", legal)
	}
	next, events := apply(t, s, Move{Player: 1, Action: Pass})
	want := []string{"P1 passed (forced)", "game over (blocked): no winner"}
	if got := enginetest.Strings(events); !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
	sc := next.Score()
	if next.End() != Blocked || sc.Players[0].Total != 14 || sc.Players[1].Total != 14 || sc.Winners != nil {
		t.Errorf("end %v, score %+v", next.End(), sc)
	}
	// Player 2 can take a tile from the supply: the game goes on.
	s = build{board: fortressBoard, hands: [][]int{hand1, hand2[:5]}, supplies: [][]int{nil, {17}},
		stones: "1@0,0:TL 2@0,0:BR"}.unreachable(t)
	next, _ = apply(t, s, Move{Player: 1, Action: Pass})
	if next.Over() || next.ToMove() != 2 {
		t.Errorf("after a forced pass with player 2 able to take: over %v, to move %d", next.Over(), next.ToMove())
	}
	if err := next.Validate(Move{Player: 2, Action: Pass}); err == nil {
		t.Errorf("player 2 may pass with an action available")
	}
	// Under ORIGINAL_2004, a forced pass in an extra turn is allowed too.
	o := build{opts: Options{Rules: Original2004}, board: fortressBoard, hands: [][]int{hand1, hand2},
		stones: "1@0,0:TL 2@0,0:BR", extra: true}.unreachable(t)
	if err := o.Validate(Move{Player: 1, Action: Pass}); err != nil {
		t.Errorf("ORIGINAL_2004 forced pass in an extra turn: %v", err)
	}
}

// TestClosure checks when groups are closed.
func TestClosure(t *testing.T) {
	s := build{board: fortressBoard, hands: [][]int{{4}, {5}}}.state(t)
	gs, _ := s.groups()
	if len(gs) != 2 || !gs[0].closed || !gs[1].closed || gs[0].micropuls != 8 || gs[1].micropuls != 8 {
		t.Errorf("fortress groups %+v, want two closed groups of 8", gs)
	}
	s = build{board: fortressOpenBoard, hands: [][]int{{4}, {5}}}.state(t)
	gs, of := s.groups()
	white, black := gs[of[0]], gs[of[2]]
	if white.closed || !black.closed {
		t.Errorf("fortress without its NW corner: white closed %v (want open), black closed %v (want closed)",
			white.closed, black.closed)
	}
	// A big micropul in a group: the start tile's whites and big W north, open until all four sides are filled.
	s = build{board: "36@0,-1/0", hands: [][]int{{4}, {5}}}.state(t)
	gs, of = s.groups()
	if g := gs[of[4]]; g.closed || g.micropuls != 3 || g.tiles != 2 {
		t.Errorf("big W north of the start: %+v, want open, 3 micropuls on 2 tiles", g)
	}
}

// TestClosureRaw checks closure on boards that bypass placement checks: a micropul with one outer side filled and
// the other empty leaves its group open, and a big micropul needs all four sides filled.
func TestClosureRaw(t *testing.T) {
	raw := func(board []Placed) *State {
		return &State{board: board, index: indexOf(board)}
	}
	// Big W (36) at (0,0) with blank-facing neighbours: 27 B.B. turned so no micropul faces the big is not needed;
	// closure only asks for filled positions.
	around := []Coord{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}
	for missing := -1; missing < 4; missing++ {
		board := []Placed{{Tile: 36}}
		for k, c := range around {
			if k != missing {
				board = append(board, Placed{Tile: 1 + 2*k, At: c})
			}
		}
		gs, of := raw(board).groups()
		if g := gs[of[0]]; g.closed != (missing < 0) || g.micropuls != 1 || g.tiles != 1 {
			t.Errorf("big micropul with side %d empty: %+v", missing, g)
		}
	}
}

// TestStonesAndScoring checks stones on closed groups, three per player, and scoring.
func TestStonesAndScoring(t *testing.T) {
	s := build{board: fortressBoard, hands: [][]int{{4, 5}, {6}}, supplies: [][]int{{7}, nil}}.state(t)
	if err := s.Validate(Move{Player: 1, Action: PlaceStone, At: Coord{-1, -1}, Quadrant: BR}); err != nil {
		t.Errorf("stone on a closed group: %v", err)
	}
	s, _ = apply(t, s, Move{Player: 1, Action: PlaceStone, At: Coord{-1, -1}, Quadrant: BR})
	sc := s.Score()
	// P1: white group 8 + 2 hand + 2 x 1 supply; P2: 1 hand + the rest of the tiles in supply.
	if p := sc.Players[0]; p.Groups != 8 || p.Hand != 2 || p.Supply != 2 || p.Total != 12 {
		t.Errorf("player 1 %+v", p)
	}
	enginetest.WantError(t, s.Validate(Move{Player: 2, Action: PlaceStone, At: Coord{0, 0}, Quadrant: TR}), engine.Illegal,
		ReasonGroupHasStone, "")
}

// TestViewRefusals checks that a view is refused by Legal, Validate and Apply, and that a view of a view for another
// viewer reveals nothing and decodes.
func TestViewRefusals(t *testing.T) {
	s := newGame(t, DefaultOptions(), 5)
	v := s.View(1)
	if got := v.Legal(1); got != nil {
		t.Errorf("Legal on a view: %v", got)
	}
	m := s.Legal(1)[0]
	enginetest.WantError(t, v.Validate(m), engine.Invalid, ReasonStateIsView, "isView")
	_, _, err := v.Apply(m)
	enginetest.WantError(t, err, engine.Invalid, ReasonStateIsView, "isView")
	for _, viewer := range []engine.Player{0, 2} {
		w := v.View(viewer)
		if len(w.Seat(1).Hand) > 0 || len(w.Seat(2).Hand) > 0 {
			t.Errorf("view for %d of player 1's view shows a hand", viewer)
		}
		if _, err := FromProto(w.Proto()); err != nil {
			t.Errorf("view for %d of player 1's view does not decode: %v", viewer, err)
		}
	}
}

// TestStateOutcomeChecks checks received states whose end, loser or extra turns cannot follow from play.
func TestStateOutcomeChecks(t *testing.T) {
	for _, c := range []struct {
		name   string
		edit   func(p *Position)
		reason string
		field  string
	}{
		{"out of tiles without a loser", func(p *Position) { p.End, p.ToMove = OutOfTiles, 0 }, ReasonOutcomeMismatch,
			"loser"},
		{"out of tiles with a loser who is no player", func(p *Position) { p.End, p.ToMove, p.Loser = OutOfTiles, 0, 9 },
			ReasonOutcomeMismatch, "loser"},
		{"out of tiles with a loser who holds tiles", func(p *Position) { p.End, p.ToMove, p.Loser = OutOfTiles, 0, 1 },
			ReasonOutcomeMismatch, "loser"},
		{"extra turns pending outside an extra turn", func(p *Position) { p.ExtraTurnsPending = 1 },
			ReasonExtraTurnsOutOfRange, "extraTurnsPending"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := build{board: plusNorthBoard, hands: [][]int{{0}, {47}}}.position(t)
			c.edit(&p)
			_, err := NewState(p)
			enginetest.WantError(t, err, engine.Invalid, c.reason, c.field)
			m := p.proto(t)
			m.End, m.Loser = rulebookv1.MicropulEnd(p.End), int32(p.Loser)
			m.ExtraTurn, m.ExtraTurnsPending = p.ExtraTurn, uint32(p.ExtraTurnsPending)
			_, err = FromProto(m)
			enginetest.WantError(t, err, engine.Invalid, c.reason, c.field)
		})
	}
}

// TestHostileProto checks that FromProto refuses oversized or out-of-range messages with a typed error, before
// allocating for them.
func TestHostileProto(t *testing.T) {
	valid := func() *rulebookv1.MicropulState { return newGame(t, DefaultOptions(), 1).Proto() }
	huge := func(n int) []*rulebookv1.MicropulPlacedTile {
		out := make([]*rulebookv1.MicropulPlacedTile, n)
		for i := range out {
			out[i] = &rulebookv1.MicropulPlacedTile{Tile: uint32(i), X: int32(i), Y: -int32(i)}
		}
		return out
	}
	for _, c := range []struct {
		name   string
		edit   func(m *rulebookv1.MicropulState)
		reason string
	}{
		{"100,000 board entries", func(m *rulebookv1.MicropulState) { m.Board = huge(100_000) }, ReasonTilesMissing},
		{"100,000 core ids", func(m *rulebookv1.MicropulState) { m.Core = make([]uint32, 100_000) },
			ReasonTilesMissing},
		{"100,000 hand ids", func(m *rulebookv1.MicropulState) { m.Players[0].Hand = make([]uint32, 100_000) },
			ReasonTilesMissing},
		{"100,000 stones", func(m *rulebookv1.MicropulState) {
			m.Stones = make([]*rulebookv1.MicropulStone, 100_000)
		}, ReasonStonesExceeded},
		{"100,000 players", func(m *rulebookv1.MicropulState) {
			m.Players = make([]*rulebookv1.MicropulPlayer, 100_000)
		}, ReasonPlayersMismatch},
		{"x at int32 min", func(m *rulebookv1.MicropulState) {
			m.Board = append(m.Board, &rulebookv1.MicropulPlacedTile{Tile: m.Core[0], X: -1 << 31})
			m.Core, m.CoreCount = m.Core[1:], m.CoreCount-1
		}, ReasonPositionOutOfRange},
		{"y at int32 max", func(m *rulebookv1.MicropulState) {
			m.Board = append(m.Board, &rulebookv1.MicropulPlacedTile{Tile: m.Core[0], Y: 1<<31 - 1})
			m.Core, m.CoreCount = m.Core[1:], m.CoreCount-1
		}, ReasonPositionOutOfRange},
		{"tile id at uint32 max", func(m *rulebookv1.MicropulState) { m.Core[0] = 1<<32 - 1 }, ReasonTileOutOfRange},
		{"rotation at uint32 max", func(m *rulebookv1.MicropulState) {
			m.Board = append(m.Board, &rulebookv1.MicropulPlacedTile{Tile: m.Core[0], Y: -1, Rotation: 1<<32 - 1})
			m.Core, m.CoreCount = m.Core[1:], m.CoreCount-1
		}, ReasonRotationOutOfRange},
		{"core count at uint32 max", func(m *rulebookv1.MicropulState) { m.CoreCount = 1<<32 - 1 },
			ReasonCountMismatch},
		{"extra turns at uint32 max", func(m *rulebookv1.MicropulState) { m.ExtraTurnsPending = 1<<32 - 1 },
			ReasonExtraTurnsOutOfRange},
		{"view: core count at uint32 max", func(m *rulebookv1.MicropulState) {
			m.IsView, m.Core, m.CoreCount = true, nil, 1<<32-1
			m.Players[0].Hand, m.Players[1].Hand = nil, nil
		}, ReasonCoreTooLarge},
		{"view: hand count at uint32 max", func(m *rulebookv1.MicropulState) {
			m.IsView, m.Core = true, nil
			m.Players[0].Hand, m.Players[1].Hand, m.Players[1].HandCount = nil, nil, 1<<32-1
		}, ReasonHandTooLarge},
		{"view: supply counts at uint32 max", func(m *rulebookv1.MicropulState) {
			m.IsView, m.Core = true, nil
			m.Players[0].Hand, m.Players[1].Hand = nil, nil
			m.Players[0].SupplyCount, m.Players[1].SupplyCount = 1<<32-1, 1<<32-1
		}, ReasonTilesMissing},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := valid()
			c.edit(m)
			_, err := FromProto(m)
			enginetest.WantError(t, err, engine.Invalid, c.reason, "-")
		})
	}
}

// TestForcedPassWithExtraTurnPending checks that a forced pass in an extra turn with another one pending does not
// block the game while the other player still has an action: the mover passes again, then the other player plays.
// (The fortress's placements fired no plus catalyst, so the pending turn is one no play wins: the position is
// unreachable, and so are the states after it.)
func TestForcedPassWithExtraTurnPending(t *testing.T) {
	for _, rules := range []RuleSet{DefaultRules, Original2004} {
		s := build{opts: Options{Rules: rules}, board: fortressBoard,
			hands: [][]int{{4, 5, 6, 7, 8, 9}, {10, 11, 14, 15, 16}}, supplies: [][]int{nil, {17}},
			stones: "1@0,0:TL 2@0,0:BR", extra: true, pending: 1}.unreachable(t)
		next, events := apply(t, s, Move{Player: 1, Action: Pass})
		if next.Over() || next.ToMove() != 1 || !next.ExtraTurn() {
			t.Fatalf("%v: after the first forced pass: %q, over %v, to move %d", rules, enginetest.Strings(events),
				next.Over(), next.ToMove())
		}
		next, _ = apply(t, next, Move{Player: 1, Action: Pass})
		if next.Over() || next.ToMove() != 2 || next.ExtraTurn() {
			t.Errorf("%v: after the second forced pass: over %v, to move %d", rules, next.Over(), next.ToMove())
		}
	}
}

// TestEveryRotationOfASymmetricTile places each symmetric tile at each of its four rotations, where the placement is
// legal: Validate and Apply accept every rotation, the board and TilePlaced record the canonical one, Legal lists the
// placement once (at the canonical rotation), and the Definition's Receive answers the canonical one. An
// asymmetric tile keeps its rotation.
func TestEveryRotationOfASymmetricTile(t *testing.T) {
	north, south, east, west := Coord{0, -1}, Coord{0, 1}, Coord{1, 0}, Coord{-1, 0}
	for _, c := range []struct {
		tile, rot int
		at        Coord
		recorded  int
	}{
		{26, 0, north, 0}, {26, 1, north, 1}, {26, 2, north, 0}, {26, 3, north, 1}, // W.W.: a half turn
		{27, 0, south, 0}, {27, 1, south, 1}, {27, 2, south, 0}, {27, 3, south, 1}, // B.B.
		{34, 0, east, 0}, {34, 1, west, 1}, {34, 2, east, 0}, {34, 3, west, 1}, // WBWB
		{35, 0, west, 0}, {35, 1, east, 1}, {35, 2, west, 0}, {35, 3, east, 1}, // BWBW
		{36, 0, north, 0}, {36, 1, north, 0}, {36, 2, north, 0}, {36, 3, north, 0}, // big W, centre +: a quarter turn
		{37, 0, south, 0}, {37, 1, south, 0}, {37, 2, south, 0}, {37, 3, south, 0}, // big B, centre +
		{42, 0, north, 0}, {42, 1, north, 0}, {42, 2, north, 0}, {42, 3, north, 0}, // big W, centre 1
		{43, 0, south, 0}, {43, 1, south, 0}, {43, 2, south, 0}, {43, 3, south, 0}, // big B, centre 1
		{46, 0, north, 0}, {46, 1, north, 0}, {46, 2, north, 0}, {46, 3, north, 0}, // WWWW
		{47, 0, south, 0}, {47, 1, south, 0}, {47, 2, south, 0}, {47, 3, south, 0}, // BBBB
		{0, 3, north, 3}, {12, 2, north, 2}, // asymmetric: every rotation is its own
	} {
		t.Run(fmt.Sprintf("%d r%d", c.tile, c.rot), func(t *testing.T) {
			other, looks := 1, 1 // looks: the tile's distinct rotations, 0 to looks-1
			switch c.tile {
			case 26, 27, 34, 35:
				looks = 2
			case 0, 12:
				looks = 4
			}
			s := build{hands: [][]int{{c.tile}, {other}}}.state(t)
			m := Move{Player: 1, Action: PlaceTile, Tile: c.tile, At: c.at, Rotation: c.rot}
			want := Placed{Tile: c.tile, At: c.at, Rotation: c.recorded}
			if got := m.Canonical().Rotation; got != c.recorded {
				t.Errorf("Canonical: rotation %d, want %d", got, c.recorded)
			}
			if err := s.Validate(m); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			next, events := apply(t, s, m)
			if got, _ := next.TileAt(c.at); got != want {
				t.Errorf("board holds %+v, want %+v", got, want)
			}
			if got := events[0]; got != (TilePlaced{Player: 1, Tile: want}) {
				t.Errorf("first event %v, want the tile placed at rotation %d", got, c.recorded)
			}
			var listed []int
			for _, l := range s.Legal(1) {
				if l.Action == PlaceTile && l.At == c.at {
					listed = append(listed, l.Rotation)
				}
			}
			if !slices.Contains(listed, c.recorded) || slices.ContainsFunc(listed, func(r int) bool { return r >= looks }) {
				t.Errorf("Legal lists rotations %v at %v, want %d among them and none from %d up", listed, c.at,
					c.recorded, looks)
			}
			sent := m.Proto()
			sent.GetMicropul().GetPlaceTile().Rotation = uint32(c.rot) // Proto writes the canonical rotation
			before := proto.Clone(sent)
			got := definition{}.Receive(nil, sent, time.Time{})
			if r := got.GetMicropul().GetPlaceTile().GetRotation(); r != uint32(c.recorded) {
				t.Errorf("Receive: rotation %d, want %d", r, c.recorded)
			}
			if !proto.Equal(sent, before) {
				t.Errorf("Receive changed its argument to %v", sent)
			}
			if !proto.Equal(m.Proto(), got) {
				t.Errorf("Receive gives %v, Proto %v", got, m.Proto())
			}
		})
	}
}

// TestScoreGroupOrder checks that Score names each group by its first micropul by row, column and quadrant, and
// orders the groups so, where the order of placement differs: a black group reaching a row above the white one, and
// a micropul placed after the start tile to its left.
func TestScoreGroupOrder(t *testing.T) {
	for _, c := range []struct {
		name, board, stones string
		want                []Stone // each group's first micropul, in order
	}{
		{"black reaches the row above", "29@1,0/2 1@1,-1/2", "1@0,0:TL 2@0,0:BL",
			[]Stone{{At: Coord{1, -1}, Quadrant: BR}, {At: Coord{0, 0}, Quadrant: TL}}},
		{"white reaches the column to the left", "0@-1,0/1", "1@0,0:TR",
			[]Stone{{At: Coord{-1, 0}, Quadrant: TR}}},
		{"white's first is its own tile's TL", "46@0,-1/0", "1@0,0:TR",
			[]Stone{{At: Coord{0, -1}, Quadrant: TL}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := build{board: c.board, hands: [][]int{{2}, {3}}, stones: c.stones}.state(t)
			sc := s.Score()
			var got []Stone
			for _, g := range sc.Groups {
				got = append(got, g.First)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("groups named by %v, want %v", got, c.want)
			}
			for i, g := range sc.Proto().GetMicropul().GetGroups() {
				w := c.want[i]
				if g.GetX() != int32(w.At.X) || g.GetY() != int32(w.At.Y) || g.GetQuadrant() != quadrantProto(w.Quadrant) {
					t.Errorf("proto group %d names (%d,%d) %v, want %v %v", i, g.GetX(), g.GetY(), g.GetQuadrant(),
						w.At, w.Quadrant)
				}
			}
		})
	}
}

// TestCoreEmptiedBeforeTheLastPlacement plays seeded games until one ends with the core empty, then lays one more
// tile of a hand legally on its board: the placements before that tile drew the whole core, so the game ended before
// it, and the state is refused.
func TestCoreEmptiedBeforeTheLastPlacement(t *testing.T) {
	for seed := uint64(1); seed < 50; seed++ {
		s := newGame(t, DefaultOptions(), seed)
		rng := rand.New(rand.NewPCG(seed, 1))
		for !s.Over() {
			legal := s.Legal(s.ToMove())
			s, _ = apply(t, s, legal[rng.IntN(len(legal))])
		}
		if s.End() != CoreEmpty {
			continue
		}
		for p := engine.Player(1); p <= 2; p++ {
			more := s.placements(p, true)
			if len(more) == 0 {
				continue
			}
			m := s.Proto()
			pl := m.Players[p-1]
			k := slices.Index(pl.Hand, uint32(more[0].Tile))
			pl.Hand, pl.HandCount = slices.Delete(pl.Hand, k, k+1), pl.HandCount-1
			m.Board = append(m.Board, Placed{Tile: more[0].Tile, At: more[0].At, Rotation: more[0].Rotation}.proto())
			_, err := FromProto(m)
			enginetest.WantError(t, err, engine.Invalid, ReasonDrawsMismatch, "core")
			return
		}
	}
	t.Fatal("no seeded game ended with the core empty and a tile of a hand to place")
}
