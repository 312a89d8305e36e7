package ubongoduel

import (
	"slices"
	"strconv"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameID is the identifier of Ubongo Duel in requests and URLs.
const GameID = "ubongo-duel"

// Game is Ubongo Duel as an engine.Game: the rules driven through the envelopes of rulebook/v1/game.proto. Every call
// decodes and checks its input with FromProtoWithDeck and MoveFromProto, so untrusted messages are safe. Errors are
// as the State methods document, with their fields placed under the request's "options", "state" or "move" (an
// envelope that holds no Ubongo Duel message is an Invalid GAME_MISMATCH error about the envelope itself); a view
// given to Legal, Validate, Apply or View is an Invalid STATE_IS_VIEW error ("state.ubongoDuel.isView"); a player or
// viewer who is not in the game is an Invalid PLAYER_OUT_OF_RANGE error. Score accepts views.
type Game struct {
	// Deck is the deck to play with; nil means the default deck.
	Deck *Deck
}

var _ engine.Game = Game{}

// Info describes Ubongo Duel and its options.
func (Game) Info() *rulebookv1.GameInfo {
	return &rulebookv1.GameInfo{
		Id:   GameID,
		Name: "Ubongo Duel",
		Summary: "Two players race to cover the same shape with the pieces a 20-sided die picks; the first valid " +
			"solution wins the duel, and the first to win 5 duels wins the game.",
		MinPlayers:     Players,
		MaxPlayers:     Players,
		DefaultPlayers: Players,
		Options: []*rulebookv1.OptionInfo{
			{Name: "side", Description: "Side of the sheets: A (tasks of 4 pieces) or B (tasks of 5 pieces).",
				Type: rulebookv1.OptionType_OPTION_TYPE_ENUM, DefaultValue: `"UBONGO_DUEL_SIDE_A"`,
				Values: []string{"UBONGO_DUEL_SIDE_A", "UBONGO_DUEL_SIDE_B"}},
			{Name: "tieWindowMs", Description: "Tie window in milliseconds: two valid solutions received at most this " +
				"far apart are simultaneous; 0 is strict arrival order.", Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER,
				Min: 0, Max: MaxTieWindowMS, DefaultValue: "0"},
			{Name: "catchUp", Description: "Catch-up variant: a player on 3 or 4 duels won who strictly leads must " +
				"solve two rolls.", Type: rulebookv1.OptionType_OPTION_TYPE_BOOLEAN, DefaultValue: "false"},
		},
		Information:   rulebookv1.Information_INFORMATION_HIDDEN,
		Chance:        true,
		RulesVersion:  RulesVersion,
		RulesDocument: "docs/rules/ubongo-duel.md",
	}
}

// New returns the start of a game with the given options (nil, or options of no game, mean every default), its die
// seeded with seed.
func (g Game) New(options *rulebookv1.GameOptions, seed uint64) (*rulebookv1.GameState, error) {
	var m *rulebookv1.UbongoDuelOptions
	switch o := options.GetGame().(type) {
	case nil:
	case *rulebookv1.GameOptions_UbongoDuel:
		m = o.UbongoDuel
	default:
		return nil, engine.WithinField(gameMismatch("options"), "options")
	}
	opts, err := OptionsFromProto(m)
	if err != nil {
		return nil, engine.WithinField(err, "options.ubongoDuel")
	}
	s, err := NewWithDeck(opts, g.Deck, seed)
	if err != nil {
		return nil, err
	}
	return wrap(s), nil
}

// Legal returns the enumerable legal moves of player in State.Legal's order (give up, close the duel; solutions are
// never listed). NoPlayer stands for both players, player 1's moves first.
func (g Game) Legal(state *rulebookv1.GameState, player engine.Player) ([]*rulebookv1.Move, error) {
	return g.adapter().Legal(state, player)
}

// Validate returns the error Apply would return.
func (g Game) Validate(state *rulebookv1.GameState, move *rulebookv1.Move) error {
	return g.adapter().Validate(state, move)
}

// Apply plays move and returns the new state and the events of the move.
func (g Game) Apply(state *rulebookv1.GameState, move *rulebookv1.Move) (*rulebookv1.GameState, []*rulebookv1.Event,
	error) {
	return g.adapter().Apply(state, move)
}

// Score returns the live or final standings, of a full state or a view.
func (g Game) Score(state *rulebookv1.GameState) (*rulebookv1.Score, error) {
	return g.adapter().Score(state)
}

// View returns what viewer (NoPlayer for a spectator) may see of the full state: everything but the die's state.
func (g Game) View(state *rulebookv1.GameState, viewer engine.Player) (*rulebookv1.GameState, error) {
	return g.adapter().View(state, viewer)
}

// ViewEvents returns events, in a new slice of the same messages, to any viewer: events hold the faces rolled and
// their tasks, public once rolled, and never the die's state.
func (Game) ViewEvents(events []*rulebookv1.Event, _ engine.Player) []*rulebookv1.Event {
	return slices.Clone(events)
}

// adapter drives a State of g's deck through the envelopes, for g.
func (g Game) adapter() engine.Adapter[*State, Move, Event, Score] {
	return engine.Adapter[*State, Move, Event, Score]{
		Unwrap:    g.unwrap,
		Wrap:      wrap,
		Move:      MoveFromProto,
		Events:    EventsProto,
		CheckSeat: (*State).checkSeat,
		ToMove:    func(*State) []engine.Player { return []engine.Player{1, 2} },
	}
}

// unwrap returns the state (or view) in the envelope; with full set, it refuses a view with STATE_IS_VIEW.
func (g Game) unwrap(state *rulebookv1.GameState, full bool) (*State, error) {
	m := state.GetUbongoDuel()
	if m == nil {
		return nil, engine.WithinField(gameMismatch("state"), "state")
	}
	s, err := FromProtoWithDeck(m, g.Deck)
	if err == nil && full && s.view {
		return nil, engine.WithinField(s.checkShape(Move{}), "state.ubongoDuel")
	}
	return s, engine.WithinField(err, "state.ubongoDuel")
}

// checkSeat returns the PLAYER_OUT_OF_RANGE error of a player or viewer p (the request's field) who is neither
// NoPlayer nor a player of Ubongo Duel.
func (*State) checkSeat(p engine.Player, field string) error {
	if p == engine.NoPlayer || isPlayer(p) {
		return nil
	}
	return engine.Invalidf(ReasonPlayerOutOfRange, field, map[string]string{field: strconv.Itoa(int(p))},
		"%s %d is not a player of Ubongo Duel", field, p)
}

// wrap returns s in a GameState envelope.
func wrap(s *State) *rulebookv1.GameState {
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_UbongoDuel{UbongoDuel: s.Proto()}}
}

var _ engine.Clocked = Game{}

// Stamp returns move with its receive time set to now, or to the state's last receive time if that is later.
func (Game) Stamp(state *rulebookv1.GameState, move *rulebookv1.Move, now time.Time) *rulebookv1.Move {
	if move.GetUbongoDuel() == nil {
		return move
	}
	stamped := proto.Clone(move).(*rulebookv1.Move)
	stamped.GetUbongoDuel().ReceivedAt = max(now.UnixNano(), state.GetUbongoDuel().GetLastReceivedAt())
	return stamped
}
