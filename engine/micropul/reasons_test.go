package micropul

import (
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"google.golang.org/protobuf/proto"
)

// provoked collects the reasons the table tests provoke, for TestEveryReasonTested.
var provoked enginetest.Provoked

// TestMoveReasons provokes each refusal of Validate and Apply on hand-built positions.
func TestMoveReasons(t *testing.T) {
	base := build{board: plusNorthBoard, hands: [][]int{{0, 1, 46}, {47}}}
	full := build{board: plusNorthBoard, hands: [][]int{{0, 1, 2, 3, 4, 5}, {47}}}
	noSupply := build{opts: Options{Players: 1}, board: almostClosedBoard, hands: [][]int{{6, 7}}}
	stones := build{opts: Options{Rules: Original2004}, board: plusNorthBoard, hands: [][]int{{0}, {47}}, stones: "1@0,0:TL 1@0,0:BL 1@0,-1:BR", toMove: 1}
	over := build{board: "", hands: [][]int{{0}, {47}}}
	view := base.state(t).View(1)
	for _, c := range []struct {
		name   string
		s      *State
		m      Move
		kind   engine.Kind
		reason string
		field  string
	}{
		{"view", view, Move{Player: 1, Action: Pass}, engine.Invalid, ReasonStateIsView, "isView"},
		{"player 0", base.state(t), Move{Action: Pass}, engine.Invalid, ReasonPlayerOutOfRange, "player"},
		{"no action", base.state(t), Move{Player: 1}, engine.Invalid, ReasonMoveEmpty, "micropul"},
		{"tile 48", base.state(t), Move{Player: 1, Action: PlaceTile, Tile: 48}, engine.Invalid, ReasonTileOutOfRange,
			"micropul.placeTile.tile"},
		{"rotation 4", base.state(t), Move{Player: 1, Action: PlaceTile, Rotation: 4}, engine.Invalid,
			ReasonRotationOutOfRange, "micropul.placeTile.rotation"},
		{"x far", base.state(t), Move{Player: 1, Action: PlaceTile, At: Coord{48, 0}}, engine.Invalid,
			ReasonPositionOutOfRange, "micropul.placeTile.x"},
		{"quadrant", base.state(t), Move{Player: 1, Action: PlaceStone, Quadrant: 4}, engine.Invalid,
			ReasonQuadrantOutOfRange, "micropul.placeStone.quadrant"},
		{"not your turn", base.state(t), Move{Player: 2, Action: Pass}, engine.Illegal, ReasonNotYourTurn, ""},
		{"not in hand", base.state(t), Move{Player: 1, Action: PlaceTile, Tile: 47, At: Coord{0, 1}}, engine.Illegal,
			ReasonTileNotInHand, ""},
		{"occupied", base.state(t), Move{Player: 1, Action: PlaceTile, Tile: 0, At: Coord{0, -1}}, engine.Illegal,
			ReasonPositionOccupied, ""},
		{"not connected", base.state(t), Move{Player: 1, Action: PlaceTile, Tile: 0, At: Coord{5, 5}},
			engine.Illegal, ReasonNotConnected, ""},
		{"colour conflict", base.state(t), Move{Player: 1, Action: PlaceTile, Tile: 46, At: Coord{0, 1}},
			engine.Illegal, ReasonColorConflict, ""},
		{"no colour match", base.state(t), Move{Player: 1, Action: PlaceTile, Tile: 0, At: Coord{0, 1}, Rotation: 2},
			engine.Illegal, ReasonNoColorMatch, ""},
		{"hand full", full.state(t), Move{Player: 1, Action: TakeTile}, engine.Illegal, ReasonHandFull, ""},
		{"supply empty", noSupply.state(t), Move{Player: 1, Action: TakeTile}, engine.Illegal, ReasonSupplyEmpty, ""},
		{"no stones", stones.state(t), Move{Player: 1, Action: PlaceStone, At: Coord{0, -1}, Quadrant: TL},
			engine.Illegal, ReasonNoStonesLeft, ""},
		{"no tile", base.state(t), Move{Player: 1, Action: PlaceStone, At: Coord{3, 3}}, engine.Illegal,
			ReasonNoTileAtPosition, ""},
		{"not a micropul", base.state(t), Move{Player: 1, Action: PlaceStone, At: Coord{0, -1}, Quadrant: TL},
			engine.Illegal, ReasonNotAMicropul, ""},
		{"group has stone", build{board: plusNorthBoard, hands: [][]int{{0}, {47}}, stones: "2@0,0:TR",
			toMove: 1}.state(t), Move{Player: 1, Action: PlaceStone, At: Coord{0, -1}, Quadrant: BR}, engine.Illegal,
			ReasonGroupHasStone, ""},
		{"group too small", base.state(t), Move{Player: 1, Action: PlaceStone, At: Coord{0, 0}, Quadrant: BL},
			engine.Illegal, ReasonGroupTooSmall, ""},
		{"pass", base.state(t), Move{Player: 1, Action: Pass}, engine.Illegal, ReasonPassNotAllowed, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			provoked.WantError(t, c.s.Validate(c.m), c.kind, c.reason, c.field)
			_, _, err := c.s.Apply(c.m)
			provoked.WantError(t, err, c.kind, c.reason, c.field)
		})
	}
	s, _ := apply(t, over.state(t), Move{Player: 1, Action: PlaceTile, Tile: 0, At: Coord{0, -1}, Rotation: 3})
	provoked.WantError(t, s.Validate(Move{Player: 2, Action: Pass}), engine.Illegal, ReasonGameOver, "")
}

// TestStateReasons provokes each refusal of FromProto and NewState by changing a valid state's message.
func TestStateReasons(t *testing.T) {
	valid := func() *rulebookv1.MicropulState {
		return build{board: almostClosedBoard, hands: [][]int{{6, 7}, {47}}, stones: "1@0,0:TL"}.state(t).Proto()
	}
	for _, c := range []struct {
		name   string
		change func(m *rulebookv1.MicropulState)
		reason string
		field  string
	}{
		{"rules version", func(m *rulebookv1.MicropulState) { m.RulesVersion = 9 }, ReasonRulesVersionUnsupported, "rulesVersion"},
		{"players 3", func(m *rulebookv1.MicropulState) { m.Options.Players = 3 }, ReasonOptionOutOfRange, "options.players"},
		{"rule set 7", func(m *rulebookv1.MicropulState) { m.Options.RuleSet = 7 }, ReasonOptionOutOfRange, "options.ruleSet"},
		{"one entry", func(m *rulebookv1.MicropulState) { m.Players = m.Players[:1] }, ReasonPlayersMismatch, "players"},
		{"core count", func(m *rulebookv1.MicropulState) { m.CoreCount++ }, ReasonCountMismatch, "coreCount"},
		{"view reveals", func(m *rulebookv1.MicropulState) { m.IsView = true }, ReasonViewRevealsHidden, "core"},
		{"tile 99", func(m *rulebookv1.MicropulState) { m.Core[0] = 99 }, ReasonTileOutOfRange, "core[0]"},
		{"duplicate", func(m *rulebookv1.MicropulState) { m.Core[0] = 6 }, ReasonTileDuplicate, "core[0]"},
		{"unsorted", func(m *rulebookv1.MicropulState) { h := m.Players[0].Hand; h[0], h[1] = h[1], h[0] },
			ReasonHandNotSorted, "players[0].hand"},
		{"hand 7", func(m *rulebookv1.MicropulState) {
			m.Players[1].Hand = append(append([]uint32(nil), m.Core[:6]...), m.Players[1].Hand...)
			m.Core = m.Core[6:]
			m.Players[1].HandCount, m.CoreCount = 7, uint32(len(m.Core))
		}, ReasonHandTooLarge, "players[1].hand"},
		{"core 36", func(m *rulebookv1.MicropulState) {
			s := m.Players[1].Supply
			m.Core = append(m.Core, s[len(s)-1])
			m.Players[1].Supply, m.CoreCount, m.Players[1].SupplyCount = s[:len(s)-1], 36, uint32(len(s)-1)
		}, ReasonCoreTooLarge, "core"},
		{"missing", func(m *rulebookv1.MicropulState) { m.Core = m.Core[1:]; m.CoreCount-- }, ReasonTilesMissing, "core"},
		{"start", func(m *rulebookv1.MicropulState) { m.Board[0].Rotation = 1 }, ReasonStartTileMisplaced, "board[0]"},
		{"rotation 5", func(m *rulebookv1.MicropulState) { m.Board[1].Rotation = 5 }, ReasonRotationOutOfRange, "board[1].rotation"},
		{"not canonical", func(m *rulebookv1.MicropulState) {
			m.Board[1].Tile, m.Board[1].Rotation = 46, 2
			m.Players[1].Supply[4] = 20
		},
			ReasonRotationNotCanonical, "board[1].rotation"},
		{"far", func(m *rulebookv1.MicropulState) { m.Board[1].Y = -50 }, ReasonPositionOutOfRange, "board[1].y"},
		{"same place", func(m *rulebookv1.MicropulState) { m.Board[2].X, m.Board[2].Y = 0, -1 }, ReasonPositionDuplicate, "board[2]"},
		{"disconnected", func(m *rulebookv1.MicropulState) { m.Board[1].Y = -3 }, ReasonBoardDisconnected, "board[1]"},
		{"conflict", func(m *rulebookv1.MicropulState) { m.Board[2].Rotation = 1 }, ReasonBoardColorConflict, "board[2]"},
		{"no match", func(m *rulebookv1.MicropulState) { m.Board[1].Rotation = 0 }, ReasonBoardNoColorMatch, "board[1]"},
		{"stone owner", func(m *rulebookv1.MicropulState) { m.Stones[0].Player = 3 }, ReasonPlayerOutOfRange, "stones[0].player"},
		{"stone quadrant", func(m *rulebookv1.MicropulState) { m.Stones[0].Quadrant = 0 }, ReasonQuadrantOutOfRange, "stones[0].quadrant"},
		{"stone on nothing", func(m *rulebookv1.MicropulState) { m.Stones[0].Y, m.Stones[0].Quadrant = -1, 1 }, ReasonStoneNotOnMicropul, "stones[0]"},
		{"stone twice", func(m *rulebookv1.MicropulState) { m.Stones = append(m.Stones, m.Stones[0]) }, ReasonStoneDuplicate, "stones[1]"},
		{"four stones", func(m *rulebookv1.MicropulState) {
			for _, q := range []rulebookv1.MicropulQuadrant{2, 3, 4} {
				m.Stones = append(m.Stones, &rulebookv1.MicropulStone{Player: 1, X: 0, Y: 0, Quadrant: q})
			}
		}, ReasonStonesExceeded, "stones"},
		{"small group", func(m *rulebookv1.MicropulState) {
			proto.Reset(m)
			proto.Merge(m, build{board: plusNorthBoard, hands: [][]int{{0}, {47}}, stones: "1@0,0:BL"}.position(t).proto(t))
		},
			ReasonStoneOnSmallGroup, "stones[0]"},
		{"drawn without a catalyst", func(m *rulebookv1.MicropulState) {
			proto.Reset(m)
			proto.Merge(m, build{hands: [][]int{{0}, {47}}}.state(t).Proto())
			m.Players[1].Supply, m.Core = append(m.Players[1].Supply, m.Core[0]), m.Core[1:]
			m.Players[1].SupplyCount, m.CoreCount = uint32(len(m.Players[1].Supply)), uint32(len(m.Core))
		}, ReasonDrawsMismatch, "core"},
		{"pending unwon", func(m *rulebookv1.MicropulState) {
			proto.Reset(m)
			proto.Merge(m, build{board: plusNorthBoard + " 42@1,-1/0", hands: [][]int{{0}, {47}}, extra: true}.state(t).Proto())
			m.ExtraTurnsPending = 2 // tile 42 fired the plus catalyst of tile 18: one extra turn won in all
		}, ReasonExtraTurnsOutOfRange, "extraTurnsPending"},
		{"to move", func(m *rulebookv1.MicropulState) { m.ToMove = 0 }, ReasonToMoveInvalid, "toMove"},
		{"extra turns", func(m *rulebookv1.MicropulState) { m.ExtraTurnsPending = 41 }, ReasonExtraTurnsOutOfRange, "extraTurnsPending"},
		{"outcome", func(m *rulebookv1.MicropulState) { m.End, m.ToMove = 1, 0 }, ReasonOutcomeMismatch, "end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := valid()
			c.change(m)
			_, err := FromProto(m)
			provoked.WantError(t, err, engine.Invalid, c.reason, c.field)
		})
	}
	_, err := Spec.Decode(&rulebookv1.GameState{})
	provoked.WantError(t, err, engine.Invalid, ReasonGameMismatch, "state")
}

// TestEveryReasonTested checks that the tables above provoke every reason code of reasons.go, and that the table of
// docs/rules/micropul.md lists exactly those codes.
func TestEveryReasonTested(t *testing.T) {
	TestMoveReasons(t)
	TestStateReasons(t)
	reasons := enginetest.Reasons(t, "reasons.go")
	provoked.Check(t, reasons)
	enginetest.CheckDocumented(t, reasons, "../../docs/rules/micropul.md")
}
