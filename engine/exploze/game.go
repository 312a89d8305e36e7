package exploze

import (
	"slices"
	"strconv"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameID is the identifier of Exploze in requests and URLs.
const GameID = "exploze"

// Game is Exploze as an engine.Game: the rules driven through the envelopes of rulebook/v1/game.proto. Every call
// decodes and checks its input with FromProto and MoveFromProto, so untrusted messages are safe. Errors are as the
// State methods document, with their fields placed under the request's "options", "state" or "move" (an envelope
// that holds no Exploze message is an Invalid GAME_MISMATCH error about the envelope itself), and a player or viewer
// who is not in the game is an Invalid PLAYER_OUT_OF_RANGE error. Exploze has no chance, so New ignores its seed.
type Game struct{}

var _ engine.Game = Game{}

// Info describes Exploze and its options.
func (Game) Info() *rulebookv1.GameInfo {
	d := DefaultOptions()
	option := func(name, description string, lo, hi, def int) *rulebookv1.OptionInfo {
		return &rulebookv1.OptionInfo{Name: name, Description: description, Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER,
			Min: int64(lo), Max: int64(hi), DefaultValue: strconv.Itoa(def)}
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
			option("rows", "Rows of the board.", MinSize, MaxSize, d.Rows),
			option("cols", "Columns of the board.", MinSize, MaxSize, d.Cols),
			option("players", "Players; at most rows x cols.", MinPlayers, MaxPlayers, d.Players),
		},
		Information:   rulebookv1.Information_INFORMATION_PERFECT,
		Chance:        false,
		RulesVersion:  RulesVersion,
		RulesDocument: "docs/rules/exploze.md",
	}
}

// New returns the start of a game with the given options: nil, or options of no game, mean every default. The seed is
// ignored.
func (Game) New(options *rulebookv1.GameOptions, _ uint64) (*rulebookv1.GameState, error) {
	var m *rulebookv1.ExplozeOptions
	switch g := options.GetGame().(type) {
	case nil:
	case *rulebookv1.GameOptions_Exploze:
		m = g.Exploze
	default:
		return nil, engine.WithinField(gameMismatch("options"), "options")
	}
	opts, err := OptionsFromProto(m)
	if err != nil {
		return nil, engine.WithinField(err, "options.exploze")
	}
	s, err := New(opts)
	if err != nil {
		return nil, err
	}
	return wrap(s), nil
}

// Legal returns every legal move of player, in row-major order; none when player is not to move. NoPlayer stands
// for the player to move.
func (Game) Legal(state *rulebookv1.GameState, player engine.Player) ([]*rulebookv1.Move, error) {
	return adapter.Legal(state, player)
}

// Validate returns the error Apply would return.
func (Game) Validate(state *rulebookv1.GameState, move *rulebookv1.Move) error {
	return adapter.Validate(state, move)
}

// Apply plays move and returns the new state and the events of the move.
func (Game) Apply(state *rulebookv1.GameState, move *rulebookv1.Move) (*rulebookv1.GameState, []*rulebookv1.Event,
	error) {
	return adapter.Apply(state, move)
}

// Score returns the live or final standings.
func (Game) Score(state *rulebookv1.GameState) (*rulebookv1.Score, error) {
	return adapter.Score(state)
}

// View returns the whole state, checked and in canonical form, to any viewer: Exploze hides nothing.
func (Game) View(state *rulebookv1.GameState, viewer engine.Player) (*rulebookv1.GameState, error) {
	return adapter.View(state, viewer)
}

// ViewEvents returns events, in a new slice of the same messages, to any viewer: Exploze hides nothing.
func (Game) ViewEvents(events []*rulebookv1.Event, _ engine.Player) []*rulebookv1.Event {
	return slices.Clone(events)
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

// unwrap returns the state in the envelope. Exploze has no views: every state is full.
func unwrap(state *rulebookv1.GameState, _ bool) (*State, error) {
	m := state.GetExploze()
	if m == nil {
		return nil, engine.WithinField(gameMismatch("state"), "state")
	}
	s, err := FromProto(m)
	return s, engine.WithinField(err, "state.exploze")
}

// checkSeat returns the PLAYER_OUT_OF_RANGE error of a player or viewer p (the request's field) who is neither
// NoPlayer nor a player of the game.
func (s *State) checkSeat(p engine.Player, field string) error {
	if p == engine.NoPlayer || s.isPlayer(p) {
		return nil
	}
	return engine.Invalidf(ReasonPlayerOutOfRange, field,
		map[string]string{"player": strconv.Itoa(int(p)), "players": strconv.Itoa(s.opts.Players)},
		"%s %d is not a player of this %d-player game", field, p, s.opts.Players)
}

// wrap returns s in a GameState envelope.
func wrap(s *State) *rulebookv1.GameState {
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_Exploze{Exploze: s.Proto()}}
}
