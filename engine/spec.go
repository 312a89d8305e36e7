package engine

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Rules is what a game's typed state S provides: its rules, with moves M, events E and standings C. Each method
// works on a full state (one that hides nothing), except Score, which a view answers too.
type Rules[S, M, E, C any] interface {
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
// conversions between its typed values and the envelopes of rulebook/v1/game.proto. A new game writes one
// type with these methods (usually of size zero), next to its rules; Spec does the rest (decoding, seat checks, field paths,
// views of states and events).
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
	// names it), searched within budget from nothing seat may not see (see Suggester). A seat that has no legal move
	// after all is NoLegalMove's error.
	Suggest(s S, seat Player, budget Budget) (Plan[M], error)
}

// Packer is implemented by a Definition with a private binary form of its full states, for the tokens the service
// seals: quicker to read and write than the wire form of their envelopes (Exploze's board is bytes, not a message
// per cell). A Definition without one has its states held in the wire form of their envelopes.
type Packer[S any] interface {
	// PackState appends the private form of s, a full state, to b and returns the extended slice. The form starts
	// with a byte naming its format version, which UnpackState checks.
	PackState(b []byte, s S) []byte
	// UnpackState returns the state in b, a private form PackState made. Bytes it did not make (of another version,
	// cut short, or out of range) are an error, never a panic.
	UnpackState(b []byte) (S, error)
}

// WireEncoder is implemented by a Definition that writes the wire form of its states' envelopes itself, for the
// answers of gRPC calls: quicker than protobuf's encoding of EncodeState's message where a state is many small
// messages (Exploze's board is a message per cell). A Definition without one has its envelopes encoded by protobuf.
type WireEncoder[S any] interface {
	// AppendStateWire appends to b the wire form of EncodeState(s), byte for byte what protobuf's deterministic
	// encoding of that envelope gives, and returns the extended slice.
	AppendStateWire(b []byte, s S) []byte
}

// PrivateForm is the first byte of a state in its game's private form (see Held): 0x00, with which no wire form of a
// message starts (field number 0 is no field), so that a token holding the wire form of a GameState still opens.
const PrivateForm = 0x00

// errPrivateForm is the error of a private form a game without one is asked to read.
var errPrivateForm = errors.New("engine: a private form of a game that has none")

// Spec is a game's whole engine.Game, made from its typed rules S (with moves M, events E and standings C) and its
// Definition D: every call decodes its input with D, checks the seat asked about, calls S, and encodes the answer
// with D. A game package names its instance once (type Game = engine.Spec[*State, Move, Event, Score,
// definition]); the zero value is ready to use. Beyond engine.Game it answers Seats and ApplyFor from one decode,
// and it is Held: a token holds its state in the Definition's private form if the Definition is a Packer.
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
func (g Spec[S, M, E, C, D]) New(options *rulebookv1.GameOptions, seed uint64) (*rulebookv1.GameState, error) {
	s, err := g.Definition.NewState(options, seed)
	if err != nil {
		return nil, err
	}
	return g.Definition.EncodeState(s), nil
}

// Legal returns every legal move of player in a full state, as S.Legal lists them; for NoPlayer, those of each
// player ToMove names, in turn.
func (g Spec[S, M, E, C, D]) Legal(state *rulebookv1.GameState, player Player) ([]*rulebookv1.Move, error) {
	s, err := g.fullState(state)
	if err != nil {
		return nil, err
	}
	if err := g.checkSeat(s, player, "player"); err != nil {
		return nil, err
	}
	players := []Player{player}
	if player == NoPlayer {
		players = g.Definition.ToMove(s)
	}
	var legal []M
	for _, p := range players {
		legal = append(legal, s.Legal(p)...)
	}
	moves := make([]*rulebookv1.Move, len(legal))
	for i, m := range legal {
		moves[i] = m.Proto()
	}
	return moves, nil
}

// Validate returns the error Apply would return.
func (g Spec[S, M, E, C, D]) Validate(state *rulebookv1.GameState, move *rulebookv1.Move) error {
	s, m, err := g.decode(state, move)
	if err != nil {
		return err
	}
	return withinMove(s.Validate(m))
}

// Apply plays move on a full state and returns the new state and the events of the move, in full.
func (g Spec[S, M, E, C, D]) Apply(state *rulebookv1.GameState, move *rulebookv1.Move) (*rulebookv1.GameState,
	[]*rulebookv1.Event, error) {
	next, events, err := g.apply(state, move)
	if err != nil {
		return nil, nil, err
	}
	return g.Definition.EncodeState(next), g.Definition.EncodeEvents(events), nil
}

// Score returns the live or final standings, of a full state or a view.
func (g Spec[S, M, E, C, D]) Score(state *rulebookv1.GameState) (*rulebookv1.Score, error) {
	s, err := g.stateOrView(state)
	if err != nil {
		return nil, err
	}
	return s.Score().Proto(), nil
}

// View returns what viewer (NoPlayer for a spectator) may see of a full state.
func (g Spec[S, M, E, C, D]) View(state *rulebookv1.GameState, viewer Player) (*rulebookv1.GameState, error) {
	s, err := g.fullState(state)
	if err != nil {
		return nil, err
	}
	if err := g.checkSeat(s, viewer, "viewer"); err != nil {
		return nil, err
	}
	return g.Definition.EncodeState(s.View(viewer)), nil
}

// ViewEvents returns what viewer (NoPlayer for a spectator) may see of events, each event as Definition.ViewEvent
// shows it, in a new slice.
func (g Spec[S, M, E, C, D]) ViewEvents(events []*rulebookv1.Event, viewer Player) []*rulebookv1.Event {
	out := make([]*rulebookv1.Event, len(events))
	for i, e := range events {
		out[i] = g.Definition.ViewEvent(e, viewer)
	}
	return out
}

// Seats returns the number of seats of a full state or a view, from its decoding alone.
func (g Spec[S, M, E, C, D]) Seats(state *rulebookv1.GameState) (int, error) {
	s, err := g.stateOrView(state)
	if err != nil {
		return 0, err
	}
	return g.Definition.Seats(s), nil
}

// Normalize returns move in the form the game records it (see Normalizer): by the Definition's own Normalize if it
// has one (a Definition whose moves have several forms), else move itself.
func (g Spec[S, M, E, C, D]) Normalize(move *rulebookv1.Move) *rulebookv1.Move {
	if n, ok := any(g.Definition).(Normalizer); ok {
		return n.Normalize(move)
	}
	return move
}

// ApplyFor plays move on a full state, as Apply does, and also tells what seat (NoPlayer for a spectator) is shown of
// it, as View and ViewEvents would: all from one decoding of state and move. Its errors are Apply's, and the seat
// error of View for a seat that is not the game's.
func (g Spec[S, M, E, C, D]) ApplyFor(state *rulebookv1.GameState, move *rulebookv1.Move, seat Player) (Applied,
	error) {
	s, m, err := g.decode(state, move)
	if err != nil {
		return Applied{}, err
	}
	next, a, err := g.play(s, m, seat, false)
	if err == nil {
		a.State = g.Definition.EncodeState(next)
	}
	return a, err
}

// Suggest returns the bot's move of seat in a full state, by the Definition's Suggest, once it is known that the game
// goes on and seat may move (seat NoPlayer: the first player ToMove names).
func (g Spec[S, M, E, C, D]) Suggest(state *rulebookv1.GameState, seat Player, budget Budget) (Suggestion, error) {
	s, err := g.fullState(state)
	if err != nil {
		return Suggestion{}, err
	}
	if err := g.checkSeat(s, seat, "player"); err != nil {
		return Suggestion{}, err
	}
	movers := g.Definition.ToMove(s)
	if s.Score().Proto().GetGameOver() || len(movers) == 0 {
		return Suggestion{}, GameOver()
	}
	if seat == NoPlayer {
		seat = movers[0]
	}
	if !slices.Contains(movers, seat) {
		return Suggestion{}, NoLegalMove(seat)
	}
	plan, err := g.Definition.Suggest(s, seat, budget)
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

// Pack returns the private form of a full state (see Held): PrivateForm and the Definition's PackState if it is a
// Packer, else the deterministic wire form of the envelope. It decodes and checks state as Apply does.
func (g Spec[S, M, E, C, D]) Pack(state *rulebookv1.GameState) ([]byte, error) {
	s, err := g.fullState(state)
	if err != nil {
		return nil, err
	}
	return g.pack(s), nil
}

// Unpack returns the envelope of a state in the form Pack or ApplyHeld made, or in the wire form of a GameState. A
// wire form comes back as it is, unchecked, as the calls that take it check it.
func (g Spec[S, M, E, C, D]) Unpack(held []byte) (*rulebookv1.GameState, error) {
	if len(held) == 0 || held[0] != PrivateForm {
		return unmarshalState(held)
	}
	s, err := g.unpack(held)
	if err != nil {
		return nil, err
	}
	return g.Definition.EncodeState(s), nil
}

// ApplyWire plays move on a full state as Apply does, and returns the new state in the wire form of its envelope
// (by the Definition's AppendStateWire if it is a WireEncoder), with the events of the move in full.
func (g Spec[S, M, E, C, D]) ApplyWire(state *rulebookv1.GameState, move *rulebookv1.Move) ([]byte,
	[]*rulebookv1.Event, error) {
	next, events, err := g.apply(state, move)
	if err != nil {
		return nil, nil, err
	}
	return g.appendWire(nil, next), g.Definition.EncodeEvents(events), nil
}

// ApplyHeld plays move on the state held in held (a form Unpack reads), as ApplyFor does, and returns the new state
// as Applied.Held, in the form Pack makes, instead of Applied.State: all from one decoding, without the envelope of
// either state. Its errors are ApplyFor's, and Unpack's for held bytes it cannot read.
func (g Spec[S, M, E, C, D]) ApplyHeld(held []byte, move *rulebookv1.Move, seat Player) (Applied, error) {
	return g.applyHeld(held, move, seat, false)
}

// ApplyHeldWire is ApplyHeld with the view in the wire form of its envelope, as Applied.ViewWire (by the
// Definition's AppendStateWire if it is a WireEncoder), instead of Applied.View.
func (g Spec[S, M, E, C, D]) ApplyHeldWire(held []byte, move *rulebookv1.Move, seat Player) (Applied, error) {
	return g.applyHeld(held, move, seat, true)
}

// applyHeld is ApplyHeld, with the view as Applied.ViewWire if wire is set.
func (g Spec[S, M, E, C, D]) applyHeld(held []byte, move *rulebookv1.Move, seat Player, wire bool) (Applied, error) {
	s, err := g.unpack(held)
	if err == nil {
		err = g.Definition.FullOnly(s)
	}
	if err != nil {
		return Applied{}, err
	}
	m, err := g.decodeMove(move)
	if err != nil {
		return Applied{}, err
	}
	next, a, err := g.play(s, m, seat, wire)
	if err == nil {
		a.Held = g.pack(next)
	}
	return a, err
}

// play plays m on s and tells what seat is shown of it: the new state, left to the caller to encode, and the rest of
// Applied, with the view as Applied.ViewWire if wire is set, else as Applied.View.
func (g Spec[S, M, E, C, D]) play(s S, m M, seat Player, wire bool) (S, Applied, error) {
	next, events, err := s.Apply(m)
	if err != nil {
		return next, Applied{}, withinMove(err)
	}
	if err := g.checkSeat(next, seat, "viewer"); err != nil {
		return next, Applied{}, err
	}
	a := Applied{Events: g.Definition.EncodeEvents(events)}
	if wire {
		a.ViewWire = g.appendWire(nil, next.View(seat))
	} else {
		a.View = g.Definition.EncodeState(next.View(seat))
	}
	a.SeenEvents = g.ViewEvents(a.Events, seat)
	return next, a, nil
}

// pack returns the private form of s: PrivateForm and the Definition's PackState if it is a Packer, else the
// deterministic wire form of its envelope.
func (g Spec[S, M, E, C, D]) pack(s S) []byte {
	if p, ok := any(g.Definition).(Packer[S]); ok {
		return p.PackState([]byte{PrivateForm}, s)
	}
	return g.appendWire(nil, s)
}

// appendWire appends the wire form of s's envelope to b: by the Definition's AppendStateWire if it is a
// WireEncoder, else by protobuf's deterministic encoding of EncodeState's message.
func (g Spec[S, M, E, C, D]) appendWire(b []byte, s S) []byte {
	if w, ok := any(g.Definition).(WireEncoder[S]); ok {
		return w.AppendStateWire(b, s)
	}
	b, err := appendStateWire(b, g.Definition.EncodeState(s))
	if err != nil {
		panic("engine: a state's envelope does not marshal: " + err.Error()) // generated messages always do
	}
	return b
}

// unpack decodes the state held in held: a private form by the Definition's UnpackState, a wire form by
// DecodeState.
func (g Spec[S, M, E, C, D]) unpack(held []byte) (S, error) {
	if len(held) == 0 || held[0] != PrivateForm {
		state, err := unmarshalState(held)
		if err != nil {
			var zero S
			return zero, err
		}
		return g.Definition.DecodeState(state)
	}
	p, ok := any(g.Definition).(Packer[S])
	if !ok {
		var zero S
		return zero, errPrivateForm
	}
	return p.UnpackState(held[1:])
}

// apply decodes state and move and plays the move.
func (g Spec[S, M, E, C, D]) apply(state *rulebookv1.GameState, move *rulebookv1.Move) (S, []E, error) {
	s, m, err := g.decode(state, move)
	if err != nil {
		return s, nil, err
	}
	next, events, err := s.Apply(m)
	return next, events, withinMove(err)
}

// stateOrView decodes the full state or the view in the envelope.
func (g Spec[S, M, E, C, D]) stateOrView(state *rulebookv1.GameState) (S, error) {
	return g.Definition.DecodeState(state)
}

// fullState decodes the state in the envelope, refusing a view.
func (g Spec[S, M, E, C, D]) fullState(state *rulebookv1.GameState) (S, error) {
	s, err := g.Definition.DecodeState(state)
	if err == nil {
		err = g.Definition.FullOnly(s)
	}
	return s, err
}

// decode returns the full state and the move in the envelopes.
func (g Spec[S, M, E, C, D]) decode(state *rulebookv1.GameState, move *rulebookv1.Move) (S, M, error) {
	var m M
	s, err := g.fullState(state)
	if err != nil {
		return s, m, err
	}
	m, err = g.decodeMove(move)
	return s, m, err
}

// decodeMove decodes the move in the envelope, placing the fields of its errors under "move".
func (g Spec[S, M, E, C, D]) decodeMove(move *rulebookv1.Move) (M, error) {
	m, err := g.Definition.DecodeMove(move)
	return m, WithinField(err, "move")
}

// checkSeat returns the PLAYER_OUT_OF_RANGE error, about field ("player" or "viewer"), of a p who is neither
// NoPlayer nor a seat of s.
func (g Spec[S, M, E, C, D]) checkSeat(s S, p Player, field string) error {
	seats := g.Definition.Seats(s)
	if p >= NoPlayer && int(p) <= seats {
		return nil
	}
	return Invalidf(ReasonPlayerOutOfRange, field,
		map[string]string{"player": strconv.Itoa(int(p)), "players": strconv.Itoa(seats)},
		"%s %d is not a player of this %d-player game", field, p, seats)
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
