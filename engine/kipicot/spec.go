package kipicot

import (
	"strconv"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameID is the identifier of Kipicot in requests and URLs.
const GameID = "kipicot"

// Game is Kipicot as an engine.Game: the rules driven through the envelopes of rulebook/v1/game.proto. Decode and Open
// check a state with FromProto, a position's Validate and Apply a move with MoveFromProto, so untrusted messages are
// safe. Errors are as the State methods document, with their fields placed under the request's "options", "state" or
// "move" (an envelope that holds no Kipicot message is an Invalid GAME_MISMATCH error about the envelope itself; the
// Illegal errors of a turn's steps, which name the step, get "move." too), and a player or viewer who is not in the
// game is an Invalid PLAYER_OUT_OF_RANGE error. Kipicot has no chance, so New ignores its seed, and hides nothing: View
// returns the whole state, checked and in canonical form, and ViewEvents the events as they are. Legal lists the steps
// of the current phase, in the order of State.Legal.
type Game = engine.Spec[*State, Move, Event, Score, definition]

// Spec is Kipicot's engine.Game, for the conformance suite and any program that drives it by its envelopes.
var Spec = Game{}

var _ engine.Game = Spec

// definition is what Kipicot says of itself to engine.Spec.
type definition struct{}

// Info describes Kipicot and its options.
func (definition) Info() *rulebookv1.GameInfo {
	d := DefaultOptions()
	boolean := func(name, label, description string) *rulebookv1.OptionInfo {
		return &rulebookv1.OptionInfo{Name: name, Label: label, Description: description,
			Type: rulebookv1.OptionType_OPTION_TYPE_BOOLEAN, DefaultValue: "false"}
	}
	integer := func(name, label, description string, hi, def int) *rulebookv1.OptionInfo {
		return &rulebookv1.OptionInfo{Name: name, Label: label, Description: description,
			Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER, Min: 0, Max: int64(hi), DefaultValue: strconv.Itoa(def)}
	}
	return &rulebookv1.GameInfo{
		Id:   GameID,
		Name: "Kipicot",
		Summary: "Players place and move red and yellow sea-urchin tokens on a 5 x 5 board and jump their pawn onto " +
			"them, catching the tokens of 2 x 2 squares whose diagonals are each one colour; the biggest catch wins.",
		MinPlayers:     Players,
		MaxPlayers:     Players,
		DefaultPlayers: Players,
		Options: []*rulebookv1.OptionInfo{
			boolean("wholeStackMoves", "Whole stacks move",
				"A moving stack carries both its tokens, not only its top one."),
			boolean("pawnMayStay", "The pawn may stay", "The pawn step may leave the pawn on its token."),
			integer("antiStallRounds", "Rounds before a placement is forced", "Full rounds without a placement "+
				"after which the player to move must place; 0 turns the rule off.", MaxAntiStallRounds,
				d.AntiStallRounds),
			integer("endThreshold", "End when a supply is down to", "The game ends after the turn in which a "+
				"colour's supply falls to this many tokens or fewer.", MaxEndThreshold, d.EndThreshold),
		},
		Information:   rulebookv1.Information_INFORMATION_PERFECT,
		Chance:        false,
		RulesVersion:  RulesVersion,
		RulesDocument: "docs/rules/kipicot.md",
		MaxMoves:      uint32(d.longestGame()),
		BotLevels:     botLevels(),
	}
}

// longestGame returns the most moves (steps) a game with o can last, or 0 without the anti-stall rule, which alone
// bounds a game: at most 2 x rounds turns pass between placements, each placement spends a token of a supply, and a
// turn has at most four steps.
func (o Options) longestGame() int {
	if o.AntiStallRounds == 0 {
		return 0
	}
	return 4 * (2*o.AntiStallRounds + 1) * 2 * TokensPerColor
}

// NewState returns the start of a game with the options in the envelope. The seed is ignored.
func (definition) NewState(options *rulebookv1.GameOptions, _ uint64) (*State, error) {
	opts, err := engine.OptionsFromEnvelope(options, options.GetKipicot(), "options.kipicot", OptionsFromProto,
		gameMismatch)
	if err != nil {
		return nil, err
	}
	return New(opts)
}

// DecodeState returns the state in the envelope. Kipicot has no views: every state is full.
func (definition) DecodeState(state *rulebookv1.GameState) (*State, error) {
	return engine.FromEnvelope(state.GetKipicot(), "state.kipicot", FromProto, gameMismatch)
}

// FullOnly returns nil: every Kipicot state is full.
func (definition) FullOnly(*State) error { return nil }

// EncodeState returns s in a GameState envelope.
func (definition) EncodeState(s *State) *rulebookv1.GameState {
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_Kipicot{Kipicot: s.Proto()}}
}

// DecodeMove is MoveFromProto.
func (definition) DecodeMove(move *rulebookv1.Move) (Move, error) { return MoveFromProto(move) }

// EncodeEvents is EventsProto.
func (definition) EncodeEvents(events []Event) []*rulebookv1.Event { return EventsProto(events) }

// ViewEvent returns event: Kipicot hides nothing.
func (definition) ViewEvent(event *rulebookv1.Event, _ engine.Player) *rulebookv1.Event { return event }

// Seats returns Players: Kipicot is for two.
func (definition) Seats(*State) int { return Players }

// ToMove returns the player to move.
func (definition) ToMove(s *State) []engine.Player { return []engine.Player{s.ToMove()} }

// LongestGame returns the most moves (steps) a game with the options of s can last, or 0 without the anti-stall
// rule.
func (definition) LongestGame(s *State) int { return s.opts.longestGame() }
