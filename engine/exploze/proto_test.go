package exploze

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
	for _, s := range []*State{
		newGame(t, Options{}),
		newGame(t, Options{Rows: 32, Cols: 2, Players: 8}),
		position(t, 3, 2, "A1 A2 .0 | A2 A3 C1 | .0 B1 .0"),
		position(t, 2, 0, ".0 A2 .0 | A2 A1 A2"),
	} {
		m := s.Proto()
		if m.GetRulesVersion() != RulesVersion {
			t.Errorf("rules version %d, want %d", m.GetRulesVersion(), RulesVersion)
		}
		wire, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var decoded rulebookv1.ExplozeState
		if err := proto.Unmarshal(wire, &decoded); err != nil {
			t.Fatal(err)
		}
		back, err := FromProto(&decoded)
		if err != nil {
			t.Errorf("FromProto(%v): %v", s, err)
			continue
		}
		if back.String() != s.String() || !proto.Equal(back.Proto(), m) {
			t.Errorf("round trip gave\n%v\nwant\n%v", back, s)
		}
	}
}

// TestFromProtoReasons checks FromProto's own refusals and that it reaches NewState's checks, with their fields.
func TestFromProtoReasons(t *testing.T) {
	valid := func(change func(m *rulebookv1.ExplozeState)) *rulebookv1.ExplozeState {
		m := position(t, 2, 2, "A1 .0 .0 | B1 A2 B1").Proto()
		change(m)
		return m
	}
	for _, c := range []struct {
		name   string
		m      *rulebookv1.ExplozeState
		reason string // "" when the message is accepted
		field  string
	}{
		{"valid", valid(func(*rulebookv1.ExplozeState) {}), "", ""},
		{"rules version 0 is current", valid(func(m *rulebookv1.ExplozeState) { m.RulesVersion = 0 }), "", ""},
		{"nil message", nil, ReasonBoardSizeMismatch, "owners"},
		{"rules version 2", valid(func(m *rulebookv1.ExplozeState) { m.RulesVersion = 2 }), ReasonRulesVersionUnsupported, "rulesVersion"},
		{"rows", valid(func(m *rulebookv1.ExplozeState) { m.Options.Rows = 1000 }), ReasonOptionOutOfRange, "options.rows"},
		{"negative cols", valid(func(m *rulebookv1.ExplozeState) { m.Options.Cols = -3 }), ReasonOptionOutOfRange, "options.cols"},
		{"players", valid(func(m *rulebookv1.ExplozeState) { m.Options.Players = 7 }), ReasonOptionOutOfRange, "options.players"},
		{"no options means 6x6", valid(func(m *rulebookv1.ExplozeState) { m.Options = nil }), ReasonBoardSizeMismatch, "owners"},
		{"an owner short", valid(func(m *rulebookv1.ExplozeState) { m.Owners = m.Owners[1:] }), ReasonBoardSizeMismatch, "owners"},
		{"a count short", valid(func(m *rulebookv1.ExplozeState) { m.Stones = m.Stones[1:] }), ReasonBoardSizeMismatch, "stones"},
		{"a count too many", valid(func(m *rulebookv1.ExplozeState) { m.Stones = append(m.Stones, 0) }), ReasonBoardSizeMismatch, "stones"},
		{"both lists short", valid(func(m *rulebookv1.ExplozeState) { m.Owners, m.Stones = m.Owners[1:], m.Stones[1:] }), ReasonBoardSizeMismatch, "owners"},
		{"no stones", valid(func(m *rulebookv1.ExplozeState) { m.Stones = nil }), ReasonBoardSizeMismatch, "stones"},
		{"huge moves", valid(func(m *rulebookv1.ExplozeState) { m.MovesPlayed = math.MaxUint32 }), ReasonMovesOutOfRange, "movesPlayed"},
		{"huge stones", valid(func(m *rulebookv1.ExplozeState) { m.Stones[2] = math.MaxUint32 }), ReasonStonesOutOfRange, "stones[2]"},
		{"owner", valid(func(m *rulebookv1.ExplozeState) { m.Owners[0] = math.MinInt32 }), ReasonOwnerOutOfRange, "owners[0]"},
		{"to move", valid(func(m *rulebookv1.ExplozeState) { m.ToMove = math.MaxInt32 }), ReasonToMoveInvalid, "toMove"},
		{"unstable", valid(func(m *rulebookv1.ExplozeState) { m.Stones[4], m.MovesPlayed = 3, 6 }), ReasonUnstableCell, "stones[4]"},
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

// TestOptionsFromProto checks the defaults and the range checks of ExplozeOptions.
func TestOptionsFromProto(t *testing.T) {
	for _, c := range []struct {
		m     *rulebookv1.ExplozeOptions
		want  Options
		field string
	}{
		{nil, DefaultOptions(), ""},
		{&rulebookv1.ExplozeOptions{Rows: 4}, Options{4, 6, 2}, ""},
		{&rulebookv1.ExplozeOptions{Rows: 32, Cols: 32, Players: 8}, Options{32, 32, 8}, ""},
		{&rulebookv1.ExplozeOptions{Cols: math.MaxInt32}, Options{}, "cols"},
		{&rulebookv1.ExplozeOptions{Players: -1}, Options{}, "players"},
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
}

// TestMoveProto checks the move envelope both ways, and the envelopes that hold no Exploze move.
func TestMoveProto(t *testing.T) {
	m := Move{Player: 3, Row: -1, Col: 31}
	back, err := MoveFromProto(m.Proto())
	if err != nil || back != m {
		t.Errorf("MoveFromProto(%v) = %v, %v", m.Proto(), back, err)
	}
	for _, bad := range []*rulebookv1.Move{nil, {Player: 1}} {
		_, err := MoveFromProto(bad)
		enginetest.WantError(t, err, engine.Invalid, ReasonGameMismatch, "")
	}
}

// TestEventsProto checks the conversion of each kind of event.
func TestEventsProto(t *testing.T) {
	_, events := play(t, position(t, 4, 1, "A1 B1 | C1 D1"), Coord{0, 0})
	got := EventsProto(events)
	if len(got) != len(events) {
		t.Fatalf("%d events, want %d", len(got), len(events))
	}
	want := []*rulebookv1.ExplozeEvent{
		{Kind: &rulebookv1.ExplozeEvent_Placed{Placed: &rulebookv1.ExplozeStonePlaced{
			Player: 1, Cell: &rulebookv1.ExplozeCoord{}, Stones: 2}}},
		{Kind: &rulebookv1.ExplozeEvent_Wave{Wave: &rulebookv1.ExplozeWave{
			Index:    1,
			Exploded: []*rulebookv1.ExplozeCoord{{}},
			Captured: []*rulebookv1.ExplozeCapture{
				{Cell: &rulebookv1.ExplozeCoord{Col: 1}, FromPlayer: 2, Stones: 1},
				{Cell: &rulebookv1.ExplozeCoord{Row: 1}, FromPlayer: 3, Stones: 1},
			}}}},
		{Kind: &rulebookv1.ExplozeEvent_Eliminated{Eliminated: &rulebookv1.ExplozePlayerEliminated{Player: 2, Wave: 1}}},
		{Kind: &rulebookv1.ExplozeEvent_Eliminated{Eliminated: &rulebookv1.ExplozePlayerEliminated{Player: 3, Wave: 1}}},
		{Kind: &rulebookv1.ExplozeEvent_Wave{Wave: &rulebookv1.ExplozeWave{
			Index:    2,
			Exploded: []*rulebookv1.ExplozeCoord{{Col: 1}, {Row: 1}},
			Captured: []*rulebookv1.ExplozeCapture{{Cell: &rulebookv1.ExplozeCoord{Row: 1, Col: 1}, FromPlayer: 4, Stones: 1}},
		}}},
		{Kind: &rulebookv1.ExplozeEvent_Eliminated{Eliminated: &rulebookv1.ExplozePlayerEliminated{Player: 4, Wave: 2}}},
		{Kind: &rulebookv1.ExplozeEvent_GameOver{GameOver: &rulebookv1.ExplozeGameOver{Winner: 1}}},
	}
	for i, e := range got {
		if !proto.Equal(e.GetExploze(), want[i]) {
			t.Errorf("event %d = %v, want %v", i, e.GetExploze(), want[i])
		}
	}
}

// TestScoreProto checks the standings: points are stones, equal stones share a rank, and the final breakdown.
func TestScoreProto(t *testing.T) {
	live := position(t, 3, 2, "B1 C2 B1 | A1 A2 .0").Score().Proto()
	wantLive := &rulebookv1.Score{
		Standings: []*rulebookv1.PlayerStanding{
			{Player: 1, Points: 3, Rank: 1}, {Player: 2, Points: 2, Rank: 2}, {Player: 3, Points: 2, Rank: 2},
		},
		Game: &rulebookv1.Score_Exploze{Exploze: &rulebookv1.ExplozeScore{Players: []*rulebookv1.ExplozePlayerScore{
			{Player: 1, Stones: 3, Cells: 2}, {Player: 2, Stones: 2, Cells: 2}, {Player: 3, Stones: 2, Cells: 1},
		}}},
	}
	if !proto.Equal(live, wantLive) {
		t.Errorf("live score %v, want %v", live, wantLive)
	}
	over := position(t, 2, 0, ".0 A2 .0 | A2 A1 A2").Score().Proto()
	wantOver := &rulebookv1.Score{
		GameOver:  true,
		Winners:   []int32{1},
		Standings: []*rulebookv1.PlayerStanding{{Player: 1, Points: 7, Rank: 1}, {Player: 2, Rank: 2, Eliminated: true}},
		Game: &rulebookv1.Score_Exploze{Exploze: &rulebookv1.ExplozeScore{
			Players: []*rulebookv1.ExplozePlayerScore{
				{Player: 1, Stones: 7, Cells: 4}, {Player: 2, Eliminated: true},
			},
			FinalMove: 7,
		}},
	}
	if !proto.Equal(over, wantOver) {
		t.Errorf("final score %v, want %v", over, wantOver)
	}
}
