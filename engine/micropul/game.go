package micropul

import (
	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameID is the identifier of Micropul in requests and URLs.
const GameID = "micropul"

// Game is Micropul as an engine.Game: the rules driven through the envelopes of rulebook/v1/game.proto. Every call
// decodes and checks its input with FromProto and MoveFromProto, so untrusted messages are safe. Errors are as the
// State methods document, with their fields placed under the request's "options", "state" or "move" (an envelope
// that holds no Micropul message is an Invalid GAME_MISMATCH error about the envelope itself); a view given to
// Legal, Validate, Apply or View is an Invalid STATE_IS_VIEW error ("state.micropul.isView"); a player or viewer
// who is not in the game is an Invalid PLAYER_OUT_OF_RANGE error. Score accepts views.
type Game struct{}

var _ engine.Game = Game{}

// Info describes Micropul and its options.
func (Game) Info() *rulebookv1.GameInfo {
	return &rulebookv1.GameInfo{
		Id:   GameID,
		Name: "Micropul",
		Summary: "Players lay square tiles of black and white micropuls edge to edge, never black against white, " +
			"fire catalysts to draw tiles and win extra turns, and claim groups with stones.",
		MinPlayers:     MinPlayers,
		MaxPlayers:     MaxPlayers,
		DefaultPlayers: DefaultPlayers,
		Options: []*rulebookv1.OptionInfo{
			{Name: "players", Description: "Players: 1 (solo) or 2.", Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER,
				Min: MinPlayers, Max: MaxPlayers, DefaultValue: "2"},
			{Name: "ruleSet", Description: "Rule set: DEFAULT (as in the seed documents) or ORIGINAL_2004 (the " +
				"designer's English text).", Type: rulebookv1.OptionType_OPTION_TYPE_ENUM,
				DefaultValue: `"MICROPUL_RULE_SET_DEFAULT"`,
				Values:       []string{"MICROPUL_RULE_SET_DEFAULT", "MICROPUL_RULE_SET_ORIGINAL_2004"}},
		},
		Information:   rulebookv1.Information_INFORMATION_HIDDEN,
		Chance:        true,
		RulesVersion:  RulesVersion,
		RulesDocument: "docs/rules/micropul.md",
	}
}

// New returns the start of a game with the given options (nil, or options of no game, mean every default), its
// tiles shuffled from seed.
func (Game) New(options *rulebookv1.GameOptions, seed uint64) (*rulebookv1.GameState, error) {
	var m *rulebookv1.MicropulOptions
	switch g := options.GetGame().(type) {
	case nil:
	case *rulebookv1.GameOptions_Micropul:
		m = g.Micropul
	default:
		return nil, engine.WithinField(gameMismatch("options"), "options")
	}
	opts, err := OptionsFromProto(m)
	if err != nil {
		return nil, engine.WithinField(err, "options.micropul")
	}
	s, err := New(opts, seed)
	if err != nil {
		return nil, err
	}
	return wrap(s), nil
}

// Legal returns every legal move of player in State.Legal's order; none when player is not to move. NoPlayer stands
// for the player to move.
func (Game) Legal(state *rulebookv1.GameState, player engine.Player) ([]*rulebookv1.Move, error) {
	return adapter.Legal(state, player)
}

// Validate returns the error Apply would return.
func (Game) Validate(state *rulebookv1.GameState, move *rulebookv1.Move) error {
	return adapter.Validate(state, move)
}

// Apply plays move and returns the new state and the events of the move, in full (ViewEvents gives a viewer's).
func (Game) Apply(state *rulebookv1.GameState, move *rulebookv1.Move) (*rulebookv1.GameState, []*rulebookv1.Event,
	error) {
	return adapter.Apply(state, move)
}

// Score returns the live or final standings, of a full state or a view.
func (Game) Score(state *rulebookv1.GameState) (*rulebookv1.Score, error) {
	return adapter.Score(state)
}

// View returns what viewer (NoPlayer for a spectator) may see of the full state.
func (Game) View(state *rulebookv1.GameState, viewer engine.Player) (*rulebookv1.GameState, error) {
	return adapter.View(state, viewer)
}

// ViewEvents returns what viewer (NoPlayer for a spectator) may see of events, by the rules of the package's
// ViewEvents: drawn tiles as a count only, the tile taken from a supply only for its owner, and whether a pass was
// forced only for the passer. Each TilesDrawn, TileTaken and Passed event is a new message; the other events are
// those of events.
func (Game) ViewEvents(events []*rulebookv1.Event, viewer engine.Player) []*rulebookv1.Event {
	out := make([]*rulebookv1.Event, len(events))
	for i, e := range events {
		out[i] = e
		if h, ok := hideableFromProto(e.GetMicropul()); ok {
			out[i] = &rulebookv1.Event{Game: &rulebookv1.Event_Micropul{Micropul: viewEvent(h, viewer).proto()}}
		}
	}
	return out
}

// adapter drives a State through the envelopes, for Game.
var adapter = engine.Adapter[*State, Move, Event, Score]{
	Unwrap:    unwrap,
	Wrap:      wrap,
	Move:      MoveFromProto,
	Events:    EventsProto,
	CheckSeat: (*State).checkSeat,
	ToMove:    func(s *State) []engine.Player { return []engine.Player{s.ToMove()} },
}

// unwrap returns the state (or view) in the envelope; with full set, it refuses a view with STATE_IS_VIEW.
func unwrap(state *rulebookv1.GameState, full bool) (*State, error) {
	m := state.GetMicropul()
	if m == nil {
		return nil, engine.WithinField(gameMismatch("state"), "state")
	}
	s, err := FromProto(m)
	if err == nil && full && s.view {
		return nil, engine.WithinField(s.checkShape(Move{}), "state.micropul")
	}
	return s, engine.WithinField(err, "state.micropul")
}

// wrap returns s in a GameState envelope.
func wrap(s *State) *rulebookv1.GameState {
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_Micropul{Micropul: s.Proto()}}
}
