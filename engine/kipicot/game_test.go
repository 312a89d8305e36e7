package kipicot

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestGameInfo checks the description of the game: the option names are the JSON names of KipicotOptions' fields.
func TestGameInfo(t *testing.T) {
	info := Game{}.Info()
	if info.GetId() != "kipicot" || info.GetName() != "Kipicot" || info.GetMinPlayers() != 2 || info.GetMaxPlayers() != 2 ||
		info.GetInformation() != rulebookv1.Information_INFORMATION_PERFECT || info.GetChance() ||
		info.GetRulesDocument() != "docs/rules/kipicot.md" || info.GetRulesVersion() != RulesVersion {
		t.Errorf("Info() = %v", info)
	}
	// With the default 3 rounds of anti-stall: 40 placements, each after at most 2 x 3 turns without one, of at most
	// 4 steps each.
	if got := info.GetMaxMoves(); got != 4*7*40 {
		t.Errorf("Info().MaxMoves = %d, want %d", got, 4*7*40)
	}
	fields := (&rulebookv1.KipicotOptions{}).ProtoReflect().Descriptor().Fields()
	want := []string{"false", "false", "3", "0"}
	for i, o := range info.GetOptions() {
		if got := fields.Get(i).JSONName(); got != o.GetName() || o.GetDefaultValue() != want[i] {
			t.Errorf("option %d is %q default %q, field %d of KipicotOptions is %q, default %q", i, o.GetName(),
				o.GetDefaultValue(), i, got, want[i])
		}
	}
}

// TestGameEnvelopes checks refusals through the envelopes, with the request's field at fault.
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
	}
	_, err = g.New(&rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{}}, 0)
	enginetest.WantError(t, err, engine.Invalid, ReasonGameMismatch, "options")
	_, err = g.New(&rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Kipicot{Kipicot: &rulebookv1.KipicotOptions{
		EndThreshold: proto.Int32(20)}}}, 0)
	enginetest.WantError(t, err, engine.Invalid, ReasonOptionOutOfRange, "options.kipicot.endThreshold")
	for _, p := range []engine.Player{3, -1} {
		_, err := state.Legal(p)
		enginetest.WantError(t, err, engine.Invalid, ReasonPlayerOutOfRange, "player")
		_, err = state.View(p)
		enginetest.WantError(t, err, engine.Invalid, ReasonPlayerOutOfRange, "viewer")
	}
	enginetest.WantError(t, state.Validate(Move{Player: 1, Step: place(Red, 9, 0)}.Proto()), engine.Invalid,
		ReasonSquareOffBoard, "move.kipicot.place.to.row")
	enginetest.WantError(t, state.Validate(Move{Player: 1, Turn: []Step{skip(), skip()}}.Proto()), engine.Illegal,
		ReasonWrongPhase, "move.kipicot.turn.steps[1]")
	corrupt := state.Encode()
	corrupt.GetKipicot().Squares[12].Tokens = []rulebookv1.KipicotColor{1, 2, 1}
	_, err = g.Decode(corrupt)
	enginetest.WantError(t, err, engine.Invalid, ReasonStackTooHigh, "state.kipicot.squares[12].tokens")
}

// TestGamePlay plays a turn step by step and one as a whole through the envelopes.
func TestGamePlay(t *testing.T) {
	g := Game{}
	state, err := g.New(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []Step{skip(), place(Red, 2, 2), pawn(2, 2)} {
		legal, err := state.Legal(1)
		anyone, _ := state.Legal(engine.NoPlayer)
		if err != nil || !slices.ContainsFunc(legal, func(m *rulebookv1.Move) bool { return proto.Equal(m, Move{Player: 1, Step: st}.Proto()) }) ||
			!slices.EqualFunc(anyone, legal, func(a, b *rulebookv1.Move) bool { return proto.Equal(a, b) }) {
			t.Fatalf("Legal = %v, %v; want it to hold %v", legal, err, st)
		}
		if state, _, err = state.Apply(Move{Player: 1, Step: st}.Proto()); err != nil {
			t.Fatal(err)
		}
	}
	next, events, err := state.Apply(Move{Player: 2, Turn: []Step{skip(), place(Yellow, 0, 0), pawn(0, 0)}}.Proto())
	if err != nil || len(events) != 2 || next.Encode().GetKipicot().GetToMove() != 1 {
		t.Fatalf("a whole turn: %v, %v, %v", next, events, err)
	}
	view, err := next.View(2)
	if err != nil || !proto.Equal(view.Encode(), next.Encode()) {
		t.Errorf("View = %v, %v; want the state", view, err)
	}
	if shown := state.ViewEvents(events, 1); !slices.Equal(shown, events) {
		t.Errorf("ViewEvents = %v; want the events", shown)
	}
	if score := next.Score(); score.GetGameOver() || len(score.GetStandings()) != 2 {
		t.Errorf("Score = %v", score)
	}
}
