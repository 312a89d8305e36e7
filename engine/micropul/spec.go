package micropul

import (
	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameID is the identifier of Micropul in requests and URLs.
const GameID = "micropul"

// Game is Micropul as an engine.Game: the rules driven through the envelopes of rulebook/v1/game.proto. Decode and Open
// check a state with FromProto, a position's Validate and Apply a move with MoveFromProto, so untrusted messages are
// safe. Errors are as the State methods document, with their fields placed under the request's "options", "state" or
// "move" (an envelope that holds no Micropul message is an Invalid GAME_MISMATCH error about the envelope itself); a
// view given to Legal, Validate, Apply or View is an Invalid STATE_IS_VIEW error ("state.micropul.isView"); a player or
// viewer who is not in the game is an Invalid PLAYER_OUT_OF_RANGE error. Score accepts views. New shuffles the tiles
// from its seed. ViewEvents shows a viewer what the package's ViewEvents does: drawn tiles as a count only, the tile
// taken from a supply only for its owner, and whether a pass was forced only for the passer; each TilesDrawn, TileTaken
// and Passed event is a new message, the other events are those given.
type Game = engine.Spec[*State, Move, Event, Score, definition]

// Spec is Micropul's engine.Game, for the conformance suite and any program that drives it by its envelopes.
var Spec = Game{}

var _ engine.Game = Spec

// definition is what Micropul says of itself to engine.Spec.
type definition struct{}

// Info describes Micropul and its options.
func (definition) Info() *rulebookv1.GameInfo {
	return &rulebookv1.GameInfo{
		Id:   GameID,
		Name: "Micropul",
		Summary: "Players lay square tiles of black and white micropuls edge to edge, never black against white, " +
			"fire catalysts to draw tiles and win extra turns, and claim groups with stones.",
		MinPlayers:     MinPlayers,
		MaxPlayers:     MaxPlayers,
		DefaultPlayers: DefaultPlayers,
		Options: []*rulebookv1.OptionInfo{
			{Name: "players", Label: "Players", Description: "Players: 1 (solo) or 2.",
				Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER, Min: MinPlayers, Max: MaxPlayers, DefaultValue: "2"},
			{Name: "ruleSet", Label: "Rule set", Description: "Rule set: DEFAULT (as in the seed documents) or " +
				"ORIGINAL_2004 (the designer's English text).", Type: rulebookv1.OptionType_OPTION_TYPE_ENUM,
				DefaultValue: `"MICROPUL_RULE_SET_DEFAULT"`,
				Values:       []string{"MICROPUL_RULE_SET_DEFAULT", "MICROPUL_RULE_SET_ORIGINAL_2004"},
				Choices: []*rulebookv1.OptionChoice{
					{Value: "MICROPUL_RULE_SET_DEFAULT", Label: "Default (the seed documents)", Description: "An " +
						"extra turn for each plus catalyst fired; passing allowed in an extra turn; a stone only " +
						"on a group spanning two tiles or more."},
					{Value: "MICROPUL_RULE_SET_ORIGINAL_2004", Label: "Original (the designer's 2004 text)",
						Description: "One extra turn for a placement that fired any plus catalyst; no passing in " +
							"an extra turn; a stone on any group, even a single micropul."},
				}},
		},
		Information:   rulebookv1.Information_INFORMATION_HIDDEN,
		Chance:        true,
		RulesVersion:  RulesVersion,
		RulesDocument: "docs/rules/micropul.md",
		BotLevels:     botLevels(),
	}
}

// NewState returns the start of a game with the options in the envelope, its tiles shuffled from seed.
func (definition) NewState(options *rulebookv1.GameOptions, seed uint64) (*State, error) {
	opts, err := engine.OptionsFromEnvelope(options, options.GetMicropul(), "options.micropul", OptionsFromProto,
		gameMismatch)
	if err != nil {
		return nil, err
	}
	return New(opts, seed)
}

// DecodeState returns the state or view in the envelope.
func (definition) DecodeState(state *rulebookv1.GameState) (*State, error) {
	return engine.FromEnvelope(state.GetMicropul(), "state.micropul", FromProto, gameMismatch)
}

// FullOnly refuses a view with STATE_IS_VIEW.
func (definition) FullOnly(s *State) error {
	if !s.view {
		return nil
	}
	return engine.WithinField(s.checkShape(Move{}), "state.micropul")
}

// EncodeState returns s in a GameState envelope.
func (definition) EncodeState(s *State) *rulebookv1.GameState {
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_Micropul{Micropul: s.Proto()}}
}

// DecodeMove is MoveFromProto.
func (definition) DecodeMove(move *rulebookv1.Move) (Move, error) { return MoveFromProto(move) }

// EncodeEvents is EventsProto.
func (definition) EncodeEvents(events []Event) []*rulebookv1.Event { return EventsProto(events) }

// ViewEvent returns what viewer may see of event, by the rules of the package's ViewEvents: a new message for a
// TilesDrawn, a TileTaken or a Passed event, event itself for the others.
func (definition) ViewEvent(event *rulebookv1.Event, viewer engine.Player) *rulebookv1.Event {
	h, ok := hideableFromProto(event.GetMicropul())
	if !ok {
		return event
	}
	return &rulebookv1.Event{Game: &rulebookv1.Event_Micropul{Micropul: viewEvent(h, viewer).proto()}}
}

// Seats returns the number of players.
func (definition) Seats(s *State) int { return s.opts.Players }

// ToMove returns the player to move.
func (definition) ToMove(s *State) []engine.Player { return []engine.Player{s.ToMove()} }

// LongestGame returns 0: the engine states no bound on the length of a game of Micropul.
func (definition) LongestGame(*State) int { return 0 }
