package kipicot

import (
	"math"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestProtoRoundTrip checks that FromProto(Proto()) gives back the state, through wire bytes too.
func TestProtoRoundTrip(t *testing.T) {
	variant := Options{WholeStackMoves: true, PawnMayStay: true, AntiStallRounds: 0, EndThreshold: 19}
	for _, s := range []*State{
		newGame(t, DefaultOptions()),
		newGame(t, variant),
		position(t, DefaultOptions(), 2, PhasePawn, "r1 yr y . . | . . . . . | . . ry2 . . | . . . . . | . . . . .",
			Catch{Red: 3, Yellow: 1}, Catch{Yellow: 5}),
		position(t, DefaultOptions(), 1, PhaseFishing, "r r r . . | r r1 r . . | . . . . . | . . . . . | . . . . .",
			fishedOnce...),
	} {
		m := s.Proto()
		wire, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var decoded rulebookv1.KipicotState
		if err := proto.Unmarshal(wire, &decoded); err != nil {
			t.Fatal(err)
		}
		back, err := FromProto(&decoded)
		if err != nil {
			t.Errorf("FromProto(%v): %v", s, err)
			continue
		}
		if *back != *s || !proto.Equal(back.Proto(), m) {
			t.Errorf("round trip gave\n%v\nwant\n%v", back, s)
		}
	}
}

// TestFromProtoReasons checks every refusal of a received state, with its field.
func TestFromProtoReasons(t *testing.T) {
	valid := func(change func(m *rulebookv1.KipicotState)) *rulebookv1.KipicotState {
		m := position(t, DefaultOptions(), 1, PhaseAction, "r1 yr . . . | . . . . . | . . y2 . . | . . . . . | . . . . .",
			Catch{Red: 3}).Proto()
		change(m)
		return m
	}
	red, yellow := rulebookv1.KipicotColor_KIPICOT_COLOR_RED, rulebookv1.KipicotColor_KIPICOT_COLOR_YELLOW
	for _, c := range []struct {
		name   string
		m      *rulebookv1.KipicotState
		reason string // "" when the message is accepted
		field  string
	}{
		{"valid", valid(func(*rulebookv1.KipicotState) {}), "", ""},
		{"rules version 0 is current", valid(func(m *rulebookv1.KipicotState) { m.RulesVersion = 0 }), "", ""},
		{"no options means the defaults", valid(func(m *rulebookv1.KipicotState) { m.Options = nil }), "", ""},
		{"nil message", nil, ReasonBoardSizeMismatch, "squares"},
		{"rules version 2", valid(func(m *rulebookv1.KipicotState) { m.RulesVersion = 2 }), ReasonRulesVersionUnsupported, "rulesVersion"},
		{"anti-stall rounds", valid(func(m *rulebookv1.KipicotState) { m.Options.AntiStallRounds = proto.Int32(11) }), ReasonOptionOutOfRange, "options.antiStallRounds"},
		{"end threshold", valid(func(m *rulebookv1.KipicotState) { m.Options.EndThreshold = proto.Int32(-1) }), ReasonOptionOutOfRange, "options.endThreshold"},
		{"a square short", valid(func(m *rulebookv1.KipicotState) { m.Squares = m.Squares[1:] }), ReasonBoardSizeMismatch, "squares"},
		{"three tokens", valid(func(m *rulebookv1.KipicotState) { m.Squares[1].Tokens = append(m.Squares[1].Tokens, red) }), ReasonStackTooHigh, "squares[1].tokens"},
		{"colour unspecified", valid(func(m *rulebookv1.KipicotState) { m.Squares[1].Tokens[1] = 0 }), ReasonColorInvalid, "squares[1].tokens[1]"},
		{"colour unknown", valid(func(m *rulebookv1.KipicotState) { m.Squares[3].Tokens = []rulebookv1.KipicotColor{9} }), ReasonColorInvalid, "squares[3].tokens[0]"},
		{"same-coloured stack", valid(func(m *rulebookv1.KipicotState) { m.Squares[1].Tokens[0] = red }), ReasonStackSameColor, "squares[1].tokens"},
		{"pawn 3", valid(func(m *rulebookv1.KipicotState) { m.Squares[0].Pawn = 3 }), ReasonPawnOutOfRange, "squares[0].pawn"},
		{"pawn negative", valid(func(m *rulebookv1.KipicotState) { m.Squares[0].Pawn = math.MinInt32 }), ReasonPawnOutOfRange, "squares[0].pawn"},
		{"pawn on an empty square", valid(func(m *rulebookv1.KipicotState) { m.Squares[4].Pawn = 2; m.Squares[12].Pawn = 0 }), ReasonPawnOnEmptySquare, "squares[4].pawn"},
		{"two pawns of a player", valid(func(m *rulebookv1.KipicotState) { m.Squares[1].Pawn = 1 }), ReasonPawnDuplicated, "squares[1].pawn"},
		{"a pawn off the board with a catch", valid(func(m *rulebookv1.KipicotState) {
			m.Squares[12].Pawn, m.Captured[1].Yellow, m.SupplyYellow = 0, 3, m.SupplyYellow-3
		}), "", ""},
		{"a pawn off the board without a catch", valid(func(m *rulebookv1.KipicotState) { m.Squares[12].Pawn = 0 }), ReasonPawnOffBoard, "squares"},
		{"one catch", valid(func(m *rulebookv1.KipicotState) { m.Captured = m.Captured[:1] }), ReasonCapturedSizeMismatch, "captured"},
		{"supply too big", valid(func(m *rulebookv1.KipicotState) { m.SupplyYellow = math.MaxUint32 }), ReasonCountOutOfRange, "supplyYellow"},
		{"catch too big", valid(func(m *rulebookv1.KipicotState) { m.Captured[1].Red = 21 }), ReasonCountOutOfRange, "captured[1].red"},
		{"a red token short", valid(func(m *rulebookv1.KipicotState) { m.SupplyRed-- }), ReasonTokenCountMismatch, "supplyRed"},
		{"a yellow token too many", valid(func(m *rulebookv1.KipicotState) { m.Squares[5].Tokens = []rulebookv1.KipicotColor{yellow} }), ReasonTokenCountMismatch, "supplyYellow"},
		{"phase unspecified", valid(func(m *rulebookv1.KipicotState) { m.Phase = 0 }), ReasonPhaseInvalid, "phase"},
		{"phase unknown", valid(func(m *rulebookv1.KipicotState) { m.Phase = 6 }), ReasonPhaseInvalid, "phase"},
		{"to move 0 in play", valid(func(m *rulebookv1.KipicotState) { m.ToMove = 0 }), ReasonToMoveInvalid, "toMove"},
		{"to move after the end", valid(func(m *rulebookv1.KipicotState) {
			m.Phase, m.SupplyRed, m.Captured[0].Red = rulebookv1.KipicotPhase_KIPICOT_PHASE_GAME_OVER, 0, 18
		}), ReasonToMoveInvalid, "toMove"},
		{"stall count", valid(func(m *rulebookv1.KipicotState) { m.TurnsWithoutPlacement = 7 }), ReasonStallCountOutOfRange, "turnsWithoutPlacement"},
		{"stall count with the rule off", valid(func(m *rulebookv1.KipicotState) {
			m.Options.AntiStallRounds, m.TurnsWithoutPlacement = proto.Int32(0), 1
		}), ReasonStallCountOutOfRange, "turnsWithoutPlacement"},
		{"a game going on with an empty supply", valid(func(m *rulebookv1.KipicotState) { m.SupplyRed, m.Captured[0].Red = 0, 18 }), ReasonPhaseInconsistent, "phase"},
		{"a game over with full supplies", valid(func(m *rulebookv1.KipicotState) {
			m.Phase, m.ToMove = rulebookv1.KipicotPhase_KIPICOT_PHASE_GAME_OVER, 0
		}), ReasonPhaseInconsistent, "phase"},
		{"a pawn step without a target", valid(func(m *rulebookv1.KipicotState) {
			m.Phase, m.ToMove = rulebookv1.KipicotPhase_KIPICOT_PHASE_PAWN, 2
			m.Squares[1].Tokens, m.SupplyRed, m.SupplyYellow = nil, m.SupplyRed+1, m.SupplyYellow+1
		}), ReasonPhaseInconsistent, "phase"},
		{"a fishing choice without a choice", valid(func(m *rulebookv1.KipicotState) {
			m.Phase = rulebookv1.KipicotPhase_KIPICOT_PHASE_FISHING
		}), ReasonPhaseInconsistent, "phase"},
		{"a fishing choice with the pawn off the board", valid(func(m *rulebookv1.KipicotState) {
			m.Phase, m.Squares[0].Pawn = rulebookv1.KipicotPhase_KIPICOT_PHASE_FISHING, 0
		}), ReasonPhaseInconsistent, "phase"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := FromProto(c.m)
			if c.reason == "" {
				if err != nil || s == nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			enginetest.WantError(t, err, engine.Invalid, c.reason, c.field)
		})
	}
}

// TestOptionsFromProto checks the defaults, unset versus zero fields, and the range checks.
func TestOptionsFromProto(t *testing.T) {
	for _, c := range []struct {
		m     *rulebookv1.KipicotOptions
		want  Options
		field string
	}{
		{nil, DefaultOptions(), ""},
		{&rulebookv1.KipicotOptions{}, DefaultOptions(), ""},
		{&rulebookv1.KipicotOptions{AntiStallRounds: proto.Int32(0)}, Options{}, ""},
		{&rulebookv1.KipicotOptions{WholeStackMoves: true, PawnMayStay: true, AntiStallRounds: proto.Int32(10),
			EndThreshold: proto.Int32(19)}, Options{true, true, 10, 19}, ""},
		{&rulebookv1.KipicotOptions{AntiStallRounds: proto.Int32(-1)}, Options{}, "antiStallRounds"},
		{&rulebookv1.KipicotOptions{EndThreshold: proto.Int32(20)}, Options{}, "endThreshold"},
	} {
		got, err := OptionsFromProto(c.m)
		if c.field != "" {
			enginetest.WantError(t, err, engine.Invalid, ReasonOptionOutOfRange, c.field)
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("OptionsFromProto(%v) = %+v, %v; want %+v", c.m, got, err, c.want)
		}
		if back, _ := OptionsFromProto(got.Proto()); back != got {
			t.Errorf("options round trip gave %+v, want %+v", back, got)
		}
	}
	_, err := New(Options{EndThreshold: 20})
	enginetest.WantError(t, err, engine.Invalid, ReasonOptionOutOfRange, "endThreshold")
}

// TestMoveProto checks the move envelope both ways for every kind of move, and the envelopes that hold no Kipicot
// move.
func TestMoveProto(t *testing.T) {
	for _, m := range []Move{
		{Player: 1, Step: skip()},
		{Player: 2, Step: mv(0, 1, 4, 1)},
		{Player: 1, Step: place(Yellow, 3, 2)},
		{Player: 1, Step: Step{Kind: StepPlace, Color: 7, To: Coord{-1, 9}}},
		{Player: 2, Step: pawn(2, 2)},
		{Player: 1, Step: fish(3, 3)},
		{Player: 0},
		{Player: 1, Turn: []Step{skip(), place(Red, 0, 0), pawn(0, 0), {}}},
		{Player: 1, Turn: []Step{}},
	} {
		back, err := MoveFromProto(m.Proto())
		if err != nil || back.String() != m.String() || back.Step != m.Step || (back.Turn == nil) != (m.Turn == nil) ||
			!proto.Equal(back.Proto(), m.Proto()) {
			t.Errorf("MoveFromProto(%v) = %v, %v", m.Proto(), back, err)
		}
	}
	for _, bad := range []*rulebookv1.Move{nil, {Player: 1}} {
		_, err := MoveFromProto(bad)
		enginetest.WantError(t, err, engine.Invalid, ReasonGameMismatch, "")
	}
}

// TestEventsProto checks the conversion of each kind of event.
func TestEventsProto(t *testing.T) {
	c := func(r, col int32) *rulebookv1.KipicotCoord { return &rulebookv1.KipicotCoord{Row: r, Col: col} }
	red, yellow := rulebookv1.KipicotColor_KIPICOT_COLOR_RED, rulebookv1.KipicotColor_KIPICOT_COLOR_YELLOW
	for _, e := range []struct {
		event Event
		want  *rulebookv1.KipicotEvent
	}{
		{TokenPlaced{1, Coord{1, 2}, Red}, &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Placed{
			Placed: &rulebookv1.KipicotTokenPlaced{Player: 1, Square: c(1, 2), Color: red}}}},
		{TokenStacked{2, Coord{0, 0}, Yellow, Red}, &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Stacked{
			Stacked: &rulebookv1.KipicotTokenPlaced{Player: 2, Square: c(0, 0), Color: yellow}}}},
		{TokenMoved{1, Coord{0, 0}, Coord{0, 4}, Yellow, Red}, &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Moved{
			Moved: &rulebookv1.KipicotTokenMoved{Player: 1, From: c(0, 0), To: c(0, 4), Color: yellow, Under: red}}}},
		{PawnPlaced{Player: 2, To: Coord{3, 3}}, &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Pawn{
			Pawn: &rulebookv1.KipicotPawnPlaced{Player: 2, To: c(3, 3)}}}},
		{PawnPlaced{2, Coord{1, 1}, Coord{3, 3}, true}, &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Pawn{
			Pawn: &rulebookv1.KipicotPawnPlaced{Player: 2, From: c(1, 1), To: c(3, 3)}}}},
		{FishingChoice{1, []Coord{{0, 0}, {1, 0}}}, &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_FishingChoice{
			FishingChoice: &rulebookv1.KipicotFishingChoice{Player: 1, Corners: []*rulebookv1.KipicotCoord{c(0, 0), c(1, 0)}}}}},
		{Fished{1, Coord{0, 0}, []Coord{{0, 0}, {1, 1}}, Catch{2, 1}}, &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Fished{
			Fished: &rulebookv1.KipicotFished{Player: 1, Corner: c(0, 0), Taken: []*rulebookv1.KipicotCoord{c(0, 0), c(1, 1)},
				Red: 2, Yellow: 1}}}},
		{GameOver{Winner: 2}, &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_GameOver{
			GameOver: &rulebookv1.KipicotGameOver{Leaders: []int32{2}}}}},
		{GameOver{Draw: true}, &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_GameOver{
			GameOver: &rulebookv1.KipicotGameOver{Leaders: []int32{1, 2}, Draw: true}}}},
	} {
		got := EventsProto([]Event{e.event})
		if len(got) != 1 || !proto.Equal(got[0].GetKipicot(), e.want) {
			t.Errorf("%v: got %v, want %v", e.event, got, e.want)
		}
	}
}

// TestScoreProto checks the standings: points are tokens caught, equal catches share a rank, and the outcomes.
func TestScoreProto(t *testing.T) {
	live := position(t, DefaultOptions(), 1, PhaseOptionalMove, empty, Catch{Red: 2, Yellow: 1}, Catch{Yellow: 3}).Score().Proto()
	want := &rulebookv1.Score{
		Standings: []*rulebookv1.PlayerStanding{{Player: 1, Points: 3, Rank: 1}, {Player: 2, Points: 3, Rank: 1}},
		Game: &rulebookv1.Score_Kipicot{Kipicot: &rulebookv1.KipicotScore{
			Players: []*rulebookv1.KipicotPlayerScore{
				{Player: 1, Red: 2, Yellow: 1, Total: 3}, {Player: 2, Yellow: 3, Total: 3}},
			SupplyRed: 18, SupplyYellow: 16}},
	}
	if !proto.Equal(live, want) {
		t.Errorf("live score %v, want %v", live, want)
	}
	over := position(t, DefaultOptions(), 0, PhaseOver, empty, Catch{Red: 20}, Catch{Yellow: 4}).Score().Proto()
	if !over.GetGameOver() || len(over.GetWinners()) != 1 || over.GetWinners()[0] != 1 ||
		over.GetStandings()[1].GetRank() != 2 || over.GetKipicot().GetDraw() {
		t.Errorf("final score %v, want A winning", over)
	}
	draw := position(t, DefaultOptions(), 0, PhaseOver, empty, Catch{Red: 10}, Catch{Red: 10}).Score().Proto()
	if !draw.GetGameOver() || len(draw.GetWinners()) != 0 || !draw.GetKipicot().GetDraw() {
		t.Errorf("final score %v, want a draw", draw)
	}
}
