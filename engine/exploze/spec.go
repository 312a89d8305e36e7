package exploze

import (
	"strconv"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameID is the identifier of Exploze in requests and URLs.
const GameID = "exploze"

// Game is Exploze as an engine.Game: the rules driven through the envelopes of rulebook/v1/game.proto. Decode and Open
// check a state with FromProto, a position's Validate and Apply a move with MoveFromProto, so untrusted messages are
// safe. Errors are as the State methods document, with their fields placed under the request's "options", "state" or
// "move" (an envelope that holds no Exploze message is an Invalid GAME_MISMATCH error about the envelope itself), and a
// player or viewer who is not in the game is an Invalid PLAYER_OUT_OF_RANGE error. Exploze has no chance, so New
// ignores its seed, and hides nothing: View returns the whole state, checked and in canonical form, and ViewEvents the
// events as they are.
type Game = engine.Spec[*State, Move, Event, Score, definition]

// Spec is Exploze's engine.Game, for the conformance suite and any program that drives it by its envelopes.
var Spec = Game{}

var _ engine.Game = Spec

// definition is what Exploze says of itself to engine.Spec.
type definition struct{}

// Info describes Exploze and its options.
func (definition) Info() *rulebookv1.GameInfo {
	d := DefaultOptions()
	option := func(name, label, description string, lo, hi, def int) *rulebookv1.OptionInfo {
		return &rulebookv1.OptionInfo{Name: name, Label: label, Description: description,
			Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER, Min: int64(lo), Max: int64(hi), DefaultValue: strconv.Itoa(def)}
	}
	return &rulebookv1.GameInfo{
		Id:   GameID,
		Name: "Exploze (Chain Reaction)",
		Summary: "Players put stones on a grid; a cell holding as many stones as it has neighbours explodes into them " +
			"and captures them, in chain reactions, until one player owns every stone.",
		MinPlayers:     MinPlayers,
		MaxPlayers:     MaxPlayers,
		DefaultPlayers: DefaultPlayers,
		Options: []*rulebookv1.OptionInfo{
			option("rows", "Rows", "Rows of the board.", MinSize, MaxSize, d.Rows),
			option("cols", "Columns", "Columns of the board.", MinSize, MaxSize, d.Cols),
			option("players", "Players", "Players; at most rows x cols.", MinPlayers, MaxPlayers, d.Players),
		},
		Information:   rulebookv1.Information_INFORMATION_PERFECT,
		Chance:        false,
		RulesVersion:  RulesVersion,
		RulesDocument: "docs/rules/exploze.md",
		MaxMoves:      uint32(d.maxMoves()),
		BotLevels:     botLevels(),
	}
}

// NewState returns the start of a game with the options in the envelope. The seed is ignored.
func (definition) NewState(options *rulebookv1.GameOptions, _ uint64) (*State, error) {
	opts, err := engine.OptionsFromEnvelope(options, options.GetExploze(), "options.exploze", OptionsFromProto,
		gameMismatch)
	if err != nil {
		return nil, err
	}
	return New(opts)
}

// DecodeState returns the state in the envelope. Exploze has no views: every state is full.
func (definition) DecodeState(state *rulebookv1.GameState) (*State, error) {
	return engine.FromEnvelope(state.GetExploze(), "state.exploze", FromProto, gameMismatch)
}

// FullOnly returns nil: every Exploze state is full.
func (definition) FullOnly(*State) error { return nil }

// EncodeState returns s in a GameState envelope.
func (definition) EncodeState(s *State) *rulebookv1.GameState {
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_Exploze{Exploze: s.Proto()}}
}

// DecodeMove is MoveFromProto.
func (definition) DecodeMove(move *rulebookv1.Move) (Move, error) { return MoveFromProto(move) }

// EncodeEvents is EventsProto.
func (definition) EncodeEvents(events []Event) []*rulebookv1.Event { return EventsProto(events) }

// ViewEvent returns event: Exploze hides nothing.
func (definition) ViewEvent(event *rulebookv1.Event, _ engine.Player) *rulebookv1.Event { return event }

// Seats returns the number of players.
func (definition) Seats(s *State) int { return s.opts.Players }

// ToMove returns the player to move.
func (definition) ToMove(s *State) []engine.Player { return []engine.Player{s.ToMove()} }

// LongestGame returns the most moves a game on the board of s can last.
func (definition) LongestGame(s *State) int { return s.opts.maxMoves() }
