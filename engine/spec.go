package engine

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Rules is what a game's typed state S provides: its rules, with moves M, events E and standings C. Each method
// works on a full state (one that hides nothing), except Score, which a view answers too. S is comparable (a pointer,
// in every game), so that a View that returns its receiver is known to hide nothing.
type Rules[S, M, E, C any] interface {
	comparable
	// Legal lists every legal move of player p, in a stable order; none when p may not move now.
	Legal(p Player) []M
	// Validate returns the error Apply would return.
	Validate(m M) error
	// Apply plays m and returns the new state and the events of the move; it never changes its receiver.
	Apply(m M) (S, []E, error)
	// Score returns the live or final standings.
	Score() C
	// View returns what viewer (NoPlayer for a spectator) may see.
	View(viewer Player) S
}

// Proto is a typed value with a protobuf form P.
type Proto[P any] interface {
	Proto() P
}

// Definition is what a game says once, besides its Rules, to become an engine.Game through Spec: its facts and the
// conversions between its typed values and the envelopes of rulebook/v1/game.proto, in 12 methods. A new game writes
// one type with these methods (usually of size zero), next to its rules; Spec does the rest (decoding, seat checks,
// field paths, views of states and events, the held form of tokens). Two more methods are for the games that need
// them: Receiver's and PreviousForm's.
//
// Errors follow the paths of the service's requests, as engine.Game documents: NewState's fields are under
// "options", DecodeState's and FullOnly's under "state"; DecodeMove's are relative to the move envelope (Spec places
// them under "move"). An envelope that holds another game's message is an Invalid error about the envelope itself.
// OptionsFromEnvelope and FromEnvelope do that placing for NewState and DecodeState.
type Definition[S, M, E any] interface {
	// Info describes the game and its options, MaxMoves included (see LongestGame).
	Info() *rulebookv1.GameInfo
	// NewState sets up a game with the options in the envelope (nil, or options of no game, mean every default);
	// seed drives every random choice.
	NewState(options *rulebookv1.GameOptions, seed uint64) (S, error)
	// DecodeState decodes and checks the state in the envelope: a full state or a view.
	DecodeState(state *rulebookv1.GameState) (S, error)
	// FullOnly returns nil for a full state and, for a view, the error of giving it where only a full state will do
	// (every call but Score). A game of perfect information, which has no views, returns nil.
	FullOnly(s S) error
	// EncodeState returns s in an envelope.
	EncodeState(s S) *rulebookv1.GameState
	// DecodeMove decodes and checks the shape of the move in the envelope.
	DecodeMove(move *rulebookv1.Move) (M, error)
	// EncodeEvents returns events in envelopes, in the same order.
	EncodeEvents(events []E) []*rulebookv1.Event
	// ViewEvent returns what viewer (NoPlayer for a spectator) may see of event, an event as Apply returned it: a new
	// message if it hides something, else event itself. A game whose events hide nothing returns event.
	ViewEvent(event *rulebookv1.Event, viewer Player) *rulebookv1.Event
	// Seats returns the number of players of s, its seats 1 to Seats(s).
	Seats(s S) int
	// ToMove returns the players who may move now in s, in seat order: Legal lists their moves for NoPlayer.
	ToMove(s S) []Player
	// LongestGame returns the most moves (calls of Apply) that a game with the options of s can last from its start,
	// or 0 when the rules set no bound. The conformance suite fails a playout that goes on longer.
	LongestGame(s S) int
	// Suggest is the game's bot: a move of seat in s, a full state that is not over, in which seat may move (ToMove
	// names it), searched within budget from nothing seat may not see (see Position.Suggest). A seat that has no
	// legal move after all is NoLegalMove's error.
	Suggest(s S, seat Player, budget Budget) (Plan[M], error)
}

// Receiver is implemented by a Definition whose rules read more of a move than its decoding: several forms that are
// one move (Micropul), or the time the service received it (Ubongo Duel). Position.Receive asks it; a Definition
// without one records every move as it is sent.
type Receiver[S any] interface {
	// Receive returns move as the game records it when the service receives it at now in s, a full state (see
	// Position.Receive). It never modifies move; a move it cannot read comes back unchanged.
	Receive(s S, move *rulebookv1.Move, now time.Time) *rulebookv1.Move
}

// PreviousForm is implemented by a Definition whose full states the tokens of an earlier release held in a private
// form of the game's own: bytes starting with PrivateForm. Open reads them with it, so that those tokens still open;
// nothing writes that form any more.
type PreviousForm[S any] interface {
	// ReadPreviousForm returns the state in b, the bytes after PrivateForm, checked as DecodeState checks a state.
	// Bytes that are no such form (of another version, cut short, or out of range) are an error, never a panic.
	ReadPreviousForm(b []byte) (S, error)
}

// PrivateForm is the first byte of a state held in a form of PreviousForm: 0x00, with which no wire form of a message
// starts (field number 0 is no field), so that Open tells the two apart.
const PrivateForm = 0x00

// errPrivateForm is the error of a private form held for a game that has none.
var errPrivateForm = errors.New("engine: a private form of a game that has none")

// Spec is a game's whole engine.Game, made from its typed rules S (with moves M, events E and standings C) and its
// Definition D: its positions decode their input with D, check the seat asked about, call S, and encode the answer
// with D. A game package names its instance once (type Game = engine.Spec[*State, Move, Event, Score,
// definition]); the zero value is ready to use.
type Spec[S Rules[S, M, E, C], M Proto[*rulebookv1.Move], E any, C Proto[*rulebookv1.Score],
	D Definition[S, M, E]] struct {
	// Definition is the game's definition; its zero value is the game's usual one.
	Definition D
}

// FromEnvelope decodes msg, the message of a game that an envelope of a request holds at path ("state.exploze"),
// with decode, placing the fields of its errors under path. A nil msg, from an envelope that holds no message of the
// game, is mismatch's error about the envelope itself ("state"). Definitions use it to decode their states.
func FromEnvelope[P comparable, T any](msg P, path string, decode func(P) (T, error),
	mismatch func(envelope string) error) (T, error) {
	var none P
	if msg == none {
		var zero T
		envelope, _, _ := strings.Cut(path, ".")
		return zero, WithinField(mismatch(envelope), envelope)
	}
	t, err := decode(msg)
	return t, WithinField(err, path)
}

// OptionsFromEnvelope decodes msg, options' message of the game (nil when they hold none), with decode, placing the
// fields of its errors under path ("options.exploze"): options of no game, or none, are decoded as a nil msg, which
// decoders read as every default. Options of another game are mismatch's error about the envelope ("options").
func OptionsFromEnvelope[P interface {
	comparable
	proto.Message
}, T any](options *rulebookv1.GameOptions, msg P, path string, decode func(P) (T, error),
	mismatch func(envelope string) error) (T, error) {
	if options.GetGame() != nil {
		held := options.ProtoReflect().WhichOneof(options.ProtoReflect().Descriptor().Oneofs().ByName("game"))
		if held.Message().FullName() != msg.ProtoReflect().Descriptor().FullName() {
			var zero T
			envelope, _, _ := strings.Cut(path, ".")
			return zero, WithinField(mismatch(envelope), envelope)
		}
	}
	t, err := decode(msg)
	return t, WithinField(err, path)
}

// ReasonPlayerOutOfRange is the reason of the Invalid error about a player or viewer who is not a seat of the game.
const ReasonPlayerOutOfRange = "PLAYER_OUT_OF_RANGE"

// Info describes the game and its options.
func (g Spec[S, M, E, C, D]) Info() *rulebookv1.GameInfo { return g.Definition.Info() }

// New sets up a game with options (nil, or options of no game, mean every default) and seed.
func (g Spec[S, M, E, C, D]) New(options *rulebookv1.GameOptions, seed uint64) (Position, error) {
	s, err := g.Definition.NewState(options, seed)
	return g.wrap(s, err)
}

// Decode decodes and checks the full state or the view in the envelope.
func (g Spec[S, M, E, C, D]) Decode(state *rulebookv1.GameState) (Position, error) {
	s, err := g.Definition.DecodeState(state)
	return g.wrap(s, err)
}

// Open returns the full state in held: the wire form of its envelope, or a private form the Definition reads as a
// PreviousForm.
func (g Spec[S, M, E, C, D]) Open(held []byte) (Position, error) {
	var s S
	var err error
	if len(held) > 0 && held[0] == PrivateForm {
		p, ok := any(g.Definition).(PreviousForm[S])
		if !ok {
			return nil, errPrivateForm
		}
		s, err = p.ReadPreviousForm(held[1:])
	} else {
		state := &rulebookv1.GameState{}
		if err = proto.Unmarshal(held, state); err == nil {
			s, err = g.Definition.DecodeState(state)
		}
	}
	if err == nil {
		err = g.Definition.FullOnly(s)
	}
	return g.wrap(s, err)
}

// wrap returns s as a Position, or err.
func (g Spec[S, M, E, C, D]) wrap(s S, err error) (Position, error) {
	if err != nil {
		return nil, err
	}
	return position[S, M, E, C, D]{d: g.Definition, s: s}, nil
}

// position is a Position of a Spec: the typed state s of the game of Definition d.
type position[S Rules[S, M, E, C], M Proto[*rulebookv1.Move], E any, C Proto[*rulebookv1.Score],
	D Definition[S, M, E]] struct {
	d D
	s S
}

// Seats returns the number of seats.
func (p position[S, M, E, C, D]) Seats() int { return p.d.Seats(p.s) }

// ToMove returns the players who may move now.
func (p position[S, M, E, C, D]) ToMove() []Player { return p.d.ToMove(p.s) }

// Legal returns every legal move of player, as S.Legal lists them; for NoPlayer, those of each player ToMove names,
// in turn.
func (p position[S, M, E, C, D]) Legal(player Player) ([]*rulebookv1.Move, error) {
	if err := p.full(); err != nil {
		return nil, err
	}
	if err := p.checkSeat(player, "player"); err != nil {
		return nil, err
	}
	players := []Player{player}
	if player == NoPlayer {
		players = p.d.ToMove(p.s)
	}
	var legal []M
	for _, pl := range players {
		legal = append(legal, p.s.Legal(pl)...)
	}
	moves := make([]*rulebookv1.Move, len(legal))
	for i, m := range legal {
		moves[i] = m.Proto()
	}
	return moves, nil
}

// Validate returns the error Apply would return.
func (p position[S, M, E, C, D]) Validate(move *rulebookv1.Move) error {
	m, err := p.decodeMove(move)
	if err != nil {
		return err
	}
	return withinMove(p.s.Validate(m))
}

// Apply plays move and returns the new position and the events of the move, in full.
func (p position[S, M, E, C, D]) Apply(move *rulebookv1.Move) (Position, []*rulebookv1.Event, error) {
	m, err := p.decodeMove(move)
	if err != nil {
		return nil, nil, err
	}
	next, events, err := p.s.Apply(m)
	if err != nil {
		return nil, nil, withinMove(err)
	}
	return position[S, M, E, C, D]{d: p.d, s: next}, p.d.EncodeEvents(events), nil
}

// Score returns the live or final standings, of a full state or a view.
func (p position[S, M, E, C, D]) Score() *rulebookv1.Score { return p.s.Score().Proto() }

// View returns what viewer (NoPlayer for a spectator) may see.
func (p position[S, M, E, C, D]) View(viewer Player) (Position, error) {
	if err := p.full(); err != nil {
		return nil, err
	}
	if err := p.checkSeat(viewer, "viewer"); err != nil {
		return nil, err
	}
	return position[S, M, E, C, D]{d: p.d, s: p.s.View(viewer)}, nil
}

// ViewEvents returns what viewer (NoPlayer for a spectator) may see of events, each event as Definition.ViewEvent
// shows it, in a new slice.
func (p position[S, M, E, C, D]) ViewEvents(events []*rulebookv1.Event, viewer Player) []*rulebookv1.Event {
	out := make([]*rulebookv1.Event, len(events))
	for i, e := range events {
		out[i] = p.d.ViewEvent(e, viewer)
	}
	return out
}

// Encode returns the position in its envelope.
func (p position[S, M, E, C, D]) Encode() *rulebookv1.GameState { return p.d.EncodeState(p.s) }

// Held returns the deterministic wire form of the envelope of a full state, and the envelope of viewer's view of it:
// the very envelope that was marshalled when View returns the state itself (a game of perfect information).
func (p position[S, M, E, C, D]) Held(viewer Player) ([]byte, *rulebookv1.GameState, error) {
	seen, err := p.View(viewer)
	if err != nil {
		return nil, nil, err
	}
	view := seen.Encode()
	full := view
	if seen.(position[S, M, E, C, D]).s != p.s {
		full = p.Encode()
	}
	held, err := proto.MarshalOptions{Deterministic: true}.Marshal(full)
	return held, view, err
}

// Suggest returns the bot's move of seat, by the Definition's Suggest, once it is known that the game goes on and
// seat may move (seat NoPlayer: the first player ToMove names).
func (p position[S, M, E, C, D]) Suggest(seat Player, budget Budget) (Suggestion, error) {
	if err := p.full(); err != nil {
		return Suggestion{}, err
	}
	if err := p.checkSeat(seat, "player"); err != nil {
		return Suggestion{}, err
	}
	movers := p.d.ToMove(p.s)
	if p.s.Score().Proto().GetGameOver() || len(movers) == 0 {
		return Suggestion{}, GameOver()
	}
	if seat == NoPlayer {
		seat = movers[0]
	}
	if !slices.Contains(movers, seat) {
		return Suggestion{}, NoLegalMove(seat)
	}
	plan, err := p.d.Suggest(p.s, seat, budget)
	if err != nil {
		return Suggestion{}, err
	}
	out := Suggestion{Move: plan.Move.Proto(), Evaluation: plan.Evaluation, Iterations: plan.Iterations,
		Delay: plan.Delay, PrincipalVariation: make([]*rulebookv1.Move, len(plan.PrincipalVariation))}
	for i, m := range plan.PrincipalVariation {
		out.PrincipalVariation[i] = m.Proto()
	}
	return out, nil
}

// Receive returns move as the Definition's Receive records it if it is a Receiver, else move itself.
func (p position[S, M, E, C, D]) Receive(move *rulebookv1.Move, now time.Time) *rulebookv1.Move {
	if r, ok := any(p.d).(Receiver[S]); ok {
		return r.Receive(p.s, move, now)
	}
	return move
}

// full returns nil for a full state and, for a view, the error of giving it where only a full state will do.
func (p position[S, M, E, C, D]) full() error { return p.d.FullOnly(p.s) }

// decodeMove refuses a view, then decodes the move in the envelope, placing the fields of its errors under "move".
func (p position[S, M, E, C, D]) decodeMove(move *rulebookv1.Move) (M, error) {
	if err := p.full(); err != nil {
		var zero M
		return zero, err
	}
	m, err := p.d.DecodeMove(move)
	return m, WithinField(err, "move")
}

// checkSeat returns the PLAYER_OUT_OF_RANGE error, about field ("player" or "viewer"), of a player who is neither
// NoPlayer nor a seat.
func (p position[S, M, E, C, D]) checkSeat(player Player, field string) error {
	seats := p.d.Seats(p.s)
	if player >= NoPlayer && int(player) <= seats {
		return nil
	}
	return Invalidf(ReasonPlayerOutOfRange, field,
		map[string]string{"player": strconv.Itoa(int(player)), "players": strconv.Itoa(seats)},
		"%s %d is not a player of this %d-player game", field, player, seats)
}

// withinMove places the field of a move's error under the request's "move": an Invalid error's as WithinField does,
// and an Illegal error's when it names one (Kipicot's name the step of a turn that broke a rule).
func withinMove(err error) error {
	if e, ok := AsError(err); ok && e.Kind == Illegal && e.Field != "" {
		moved := *e
		moved.Field = "move." + e.Field
		return &moved
	}
	return WithinField(err, "move")
}
