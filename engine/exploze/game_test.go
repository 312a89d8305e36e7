package exploze

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestGameInfo checks the description of the game.
func TestGameInfo(t *testing.T) {
	info := Game{}.Info()
	want := &rulebookv1.GameInfo{
		Id: "exploze", Name: "Exploze (Chain Reaction)", Summary: info.GetSummary(),
		MinPlayers: 2, MaxPlayers: 8, DefaultPlayers: 2,
		Options: []*rulebookv1.OptionInfo{
			{Name: "rows", Label: "Rows", Description: "Rows of the board.", Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER, Min: 2, Max: 32, DefaultValue: "6"},
			{Name: "cols", Label: "Columns", Description: "Columns of the board.", Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER, Min: 2, Max: 32, DefaultValue: "6"},
			{Name: "players", Label: "Players", Description: "Players; at most rows x cols.", Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER, Min: 2, Max: 8, DefaultValue: "2"},
		},
		Information: rulebookv1.Information_INFORMATION_PERFECT, RulesVersion: RulesVersion,
		RulesDocument: "docs/rules/exploze.md", MaxMoves: 85, // 2 x 60 edges - 36 cells + 1 on the 6 x 6 board
		BotLevels: info.GetBotLevels(), // TestBotLevels (engine/hosted) checks them
	}
	if !proto.Equal(info, want) || info.GetSummary() == "" {
		t.Errorf("Info() = %v, want %v", info, want)
	}
	// The option names are the JSON names of ExplozeOptions' fields.
	fields := (&rulebookv1.ExplozeOptions{}).ProtoReflect().Descriptor().Fields()
	for i, o := range info.GetOptions() {
		if got := fields.Get(i).JSONName(); got != o.GetName() {
			t.Errorf("option %d is %q, field %d of ExplozeOptions is %q", i, o.GetName(), i, got)
		}
	}
}

// TestGameNew checks options, defaults, and that the seed changes nothing.
func TestGameNew(t *testing.T) {
	g := Game{}
	exploze := func(o *rulebookv1.ExplozeOptions) *rulebookv1.GameOptions {
		return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: o}}
	}
	for _, c := range []struct {
		options *rulebookv1.GameOptions
		want    Options
	}{
		{nil, DefaultOptions()},
		{&rulebookv1.GameOptions{}, DefaultOptions()},
		{exploze(nil), DefaultOptions()},
		{exploze(&rulebookv1.ExplozeOptions{Rows: 3, Players: 5}), Options{3, 6, 5}},
	} {
		p, err := g.New(c.options, 1)
		if err != nil {
			t.Fatalf("New(%v): %v", c.options, err)
		}
		q, _ := g.New(c.options, 99)
		a, b := p.Encode(), q.Encode()
		s, err := FromProto(a.GetExploze())
		if err != nil || s.Options() != c.want || s.MovesPlayed() != 0 || !proto.Equal(a, b) {
			t.Errorf("New(%v) = %v, %v; want an empty %+v board, whatever the seed", c.options, a, err, c.want)
		}
	}
	_, err := g.New(exploze(&rulebookv1.ExplozeOptions{Rows: 2, Cols: 2, Players: 5}), 1)
	enginetest.WantError(t, err, engine.Invalid, ReasonOptionOutOfRange, "options.exploze.players")
}

// TestGameEnvelopes checks that envelopes without an Exploze message, and moves, legal-move requests and views of
// unknown players, are refused with the request's field at fault.
func TestGameEnvelopes(t *testing.T) {
	g := Game{}
	state, err := g.New(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []*rulebookv1.GameState{nil, {}} {
		_, err := g.Decode(bad)
		enginetest.WantError(t, err, engine.Invalid, ReasonGameMismatch, "state")
	}
	for _, bad := range []*rulebookv1.Move{nil, {Player: 1}} {
		enginetest.WantError(t, state.Validate(bad), engine.Invalid, ReasonGameMismatch, "move")
		_, _, err := state.Apply(bad)
		enginetest.WantError(t, err, engine.Invalid, ReasonGameMismatch, "move")
	}
	for _, p := range []int32{0, 3, -1} {
		bad := Move{Player: engine.Player(p)}.Proto()
		enginetest.WantError(t, state.Validate(bad), engine.Invalid, ReasonPlayerOutOfRange, "move.player")
	}
	for _, p := range []engine.Player{3, -1} {
		_, err := state.Legal(p)
		enginetest.WantError(t, err, engine.Invalid, ReasonPlayerOutOfRange, "player")
		_, err = state.View(p)
		enginetest.WantError(t, err, engine.Invalid, ReasonPlayerOutOfRange, "viewer")
	}
	corrupt := state.Encode()
	corrupt.GetExploze().Stones[7] = 1
	_, err = g.Decode(corrupt)
	enginetest.WantError(t, err, engine.Invalid, ReasonCellOwnerMismatch, "state.exploze.owners[7]")
}

// equalMoves reports whether two moves are the same.
func equalMoves(a, b *rulebookv1.Move) bool { return proto.Equal(a, b) }

// TestGamePlay plays the first worked example through the envelopes.
func TestGamePlay(t *testing.T) {
	g := Game{}
	state, err := g.New(&rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{
		Exploze: &rulebookv1.ExplozeOptions{Rows: 2, Cols: 2}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var events []*rulebookv1.Event
	for i, c := range []Coord{{0, 0}, {1, 1}, {0, 0}, {1, 1}} {
		player := engine.Player(i%2 + 1)
		legal, err := state.Legal(player)
		if err != nil || len(legal) == 0 {
			t.Fatalf("Legal(%d) = %v, %v", player, legal, err)
		}
		if anyone, err := state.Legal(engine.NoPlayer); err != nil || !slices.EqualFunc(anyone, legal, equalMoves) {
			t.Errorf("Legal(NoPlayer) = %v, %v; want the moves of the player to move, %v", anyone, err, legal)
		}
		move := Move{Player: player, Row: c.Row, Col: c.Col}.Proto()
		if err := state.Validate(move); err != nil {
			t.Fatalf("Validate(%v): %v", move, err)
		}
		before := state
		state, events, err = state.Apply(move)
		if err != nil {
			t.Fatalf("Apply(%v): %v", move, err)
		}
		view, err := state.View(player)
		if err != nil || !proto.Equal(view.Encode(), state.Encode()) {
			t.Errorf("View = %v, %v; want the state", view, err)
		}
		if shown := before.ViewEvents(events, player%2+1); !slices.Equal(shown, events) {
			t.Errorf("ViewEvents = %v; want the events", shown)
		}
		if proto.Equal(before.Encode(), state.Encode()) {
			t.Error("Apply returned the state it was given")
		}
	}
	if n := len(events); n != 4 || events[3].GetExploze().GetGameOver().GetWinner() != 2 {
		t.Errorf("last move's events %v, want 4 ending with B's win", events)
	}
	score := state.Score()
	if !score.GetGameOver() || len(score.GetWinners()) != 1 || score.GetWinners()[0] != 2 ||
		score.GetExploze().GetFinalMove() != 4 {
		t.Errorf("Score = %v; want B winning on move 4", score)
	}
	for p := engine.Player(0); p <= 2; p++ {
		if legal, err := state.Legal(p); err != nil || len(legal) != 0 {
			t.Errorf("Legal(%d) after the end = %v, %v", p, legal, err)
		}
	}
	enginetest.WantError(t, state.Validate(Move{Player: 1}.Proto()), engine.Illegal, ReasonGameOver, "")
}
