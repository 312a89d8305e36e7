package ubongoduel

import (
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameID is the identifier of Ubongo Duel in requests and URLs.
const GameID = "ubongo-duel"

// Game is Ubongo Duel as an engine.Game: the rules driven through the envelopes of rulebook/v1/game.proto, on the
// default deck (WithDeck gives another). Decode and Open check a state with FromProtoWithDeck, a position's Validate
// and Apply a move with MoveFromProto, so untrusted messages are safe. Errors are as the State methods document,
// with their fields placed under the request's "options", "state" or "move" (an envelope that holds no Ubongo Duel
// message is an Invalid GAME_MISMATCH error about the envelope itself); a view given to Legal, Validate, Apply or
// View is an Invalid STATE_IS_VIEW error ("state.ubongoDuel.isView"); a player or viewer who is not in the game is an
// Invalid PLAYER_OUT_OF_RANGE error. Score accepts views. New seeds the die with its seed. Legal lists the enumerable
// moves (give up, close the duel; solutions are never listed), for NoPlayer both players', player 1's first. View
// shows everything but the die's state; ViewEvents returns the events as they are: they hold the faces rolled and
// their tasks, public once rolled, and never the die's state. A position's Receive stamps a move with the time the
// service received it (see definition.Receive).
type Game = engine.Spec[*State, Move, Event, Score, definition]

// Spec is Ubongo Duel's engine.Game on the default deck, for the conformance suite and any program that drives it
// by its envelopes.
var Spec = Game{}

var (
	_ engine.Game             = Spec
	_ engine.Receiver[*State] = definition{}
)

// WithDeck returns the Game that plays with deck d (nil: the default deck), as NewWithDeck does.
func WithDeck(d *Deck) Game { return Game{Definition: definition{deck: d}} }

// definition is what Ubongo Duel, on deck (nil: the default deck), says of itself to engine.Spec.
type definition struct {
	deck *Deck
}

// Receive returns move with its receive time set to now, or to the last receive time s has recorded if that is
// later (replicas' clocks differ, and a move must never seem to come before the one already played).
func (definition) Receive(s *State, move *rulebookv1.Move, now time.Time) *rulebookv1.Move {
	if move.GetUbongoDuel() == nil {
		return move
	}
	stamped := proto.CloneOf(move)
	stamped.GetUbongoDuel().ReceivedAt = max(now.UnixNano(), s.last)
	return stamped
}

// Info describes Ubongo Duel and its options.
func (definition) Info() *rulebookv1.GameInfo {
	return &rulebookv1.GameInfo{
		Id:   GameID,
		Name: "Ubongo Duel",
		Summary: "Two players race to cover the same shape with the pieces a 20-sided die picks; the first valid " +
			"solution wins the duel, and the first to win 5 duels wins the game.",
		MinPlayers:     Players,
		MaxPlayers:     Players,
		DefaultPlayers: Players,
		Options: []*rulebookv1.OptionInfo{
			{Name: "side", Label: "Side of the sheets", Description: "Side of the sheets: A (tasks of 4 pieces) or " +
				"B (tasks of 5 pieces).", Type: rulebookv1.OptionType_OPTION_TYPE_ENUM,
				DefaultValue: `"UBONGO_DUEL_SIDE_A"`, Values: []string{"UBONGO_DUEL_SIDE_A", "UBONGO_DUEL_SIDE_B"},
				Choices: []*rulebookv1.OptionChoice{
					{Value: "UBONGO_DUEL_SIDE_A", Label: "Side A", Description: "Tasks of 4 pieces."},
					{Value: "UBONGO_DUEL_SIDE_B", Label: "Side B", Description: "Tasks of 5 pieces."},
				}},
			{Name: "tieWindowMs", Label: "Tie window (milliseconds)", Description: "Tie window in milliseconds: two " +
				"valid solutions received at most this far apart are simultaneous; 0 is strict arrival order.",
				Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER, Min: 0, Max: MaxTieWindowMS, DefaultValue: "0"},
			{Name: "catchUp", Label: "Catch-up variant", Description: "Catch-up variant: a player on 3 or 4 duels won " +
				"who strictly leads must solve two rolls.", Type: rulebookv1.OptionType_OPTION_TYPE_BOOLEAN,
				DefaultValue: "false"},
		},
		Information:   rulebookv1.Information_INFORMATION_HIDDEN,
		Chance:        true,
		RulesVersion:  RulesVersion,
		RulesDocument: "docs/rules/ubongo-duel.md",
		BotLevels:     botLevels(),
	}
}

// NewState returns the start of a game with the options in the envelope, its die seeded with seed.
func (d definition) NewState(options *rulebookv1.GameOptions, seed uint64) (*State, error) {
	opts, err := engine.OptionsFromEnvelope(options, options.GetUbongoDuel(), "options.ubongoDuel", OptionsFromProto,
		gameMismatch)
	if err != nil {
		return nil, err
	}
	return NewWithDeck(opts, d.deck, seed)
}

// DecodeState returns the state or view in the envelope.
func (d definition) DecodeState(state *rulebookv1.GameState) (*State, error) {
	decode := func(m *rulebookv1.UbongoDuelState) (*State, error) { return FromProtoWithDeck(m, d.deck) }
	return engine.FromEnvelope(state.GetUbongoDuel(), "state.ubongoDuel", decode, gameMismatch)
}

// FullOnly refuses a view with STATE_IS_VIEW.
func (definition) FullOnly(s *State) error {
	if !s.view {
		return nil
	}
	return engine.WithinField(s.checkShape(Move{}), "state.ubongoDuel")
}

// EncodeState returns s in a GameState envelope.
func (definition) EncodeState(s *State) *rulebookv1.GameState { return wrap(s) }

// wrap returns s in a GameState envelope.
func wrap(s *State) *rulebookv1.GameState {
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_UbongoDuel{UbongoDuel: s.Proto()}}
}

// DecodeMove is MoveFromProto.
func (definition) DecodeMove(move *rulebookv1.Move) (Move, error) { return MoveFromProto(move) }

// EncodeEvents is EventsProto.
func (definition) EncodeEvents(events []Event) []*rulebookv1.Event { return EventsProto(events) }

// ViewEvent returns event: the events of Ubongo Duel hide nothing.
func (definition) ViewEvent(event *rulebookv1.Event, _ engine.Player) *rulebookv1.Event { return event }

// Seats returns Players: Ubongo Duel is for two.
func (definition) Seats(*State) int { return Players }

// ToMove returns both players, who race each other.
func (definition) ToMove(*State) []engine.Player { return []engine.Player{1, 2} }

// LongestGame returns 0: re-rolls (of ties and give-ups) are unbounded.
func (definition) LongestGame(*State) int { return 0 }
