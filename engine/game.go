package engine

import (
	"time"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Game is one game's rules seen through its protobuf messages: the form in which the service drives every engine.
// Each call decodes and checks its input, so a state or move from an untrusted caller is safe to pass. Errors are
// *Error values whose Field paths start at the argument, named as in the service's requests: "state", "move" or
// "options" (for example "state.exploze.cells[3].stones", "move.player", "options.exploze.rows").
//
// Apply's state and events are in full, and so is Legal for NoPlayer (the moves of whoever may move). What a caller
// holding seat p is told shows only what p may know: View(state, p) and ViewEvents(events, p); Legal(state, p),
// Score(state), and Validate(state, move) for a move of p, which depend on nothing p may not see (the conformance
// suite, enginetest, checks each by re-dealing what p may not see).
type Game interface {
	// Info describes the game and its options.
	Info() *rulebookv1.GameInfo
	// New sets up a game. options may be nil or hold no game (all defaults); seed drives every random choice.
	New(options *rulebookv1.GameOptions, seed uint64) (*rulebookv1.GameState, error)
	// Legal lists every legal move of player, in a stable order; none when player may not move now. For NoPlayer it
	// lists the moves of every player who may move now.
	Legal(state *rulebookv1.GameState, player Player) ([]*rulebookv1.Move, error)
	// Validate returns exactly the error Apply would return, without making the new state.
	Validate(state *rulebookv1.GameState, move *rulebookv1.Move) error
	// Apply plays move and returns the new state and the events of the move. The input is never modified.
	Apply(state *rulebookv1.GameState, move *rulebookv1.Move) (*rulebookv1.GameState, []*rulebookv1.Event, error)
	// Score returns the live or final standings.
	Score(state *rulebookv1.GameState) (*rulebookv1.Score, error)
	// View returns what viewer (NoPlayer for a spectator) may see of state.
	View(state *rulebookv1.GameState, viewer Player) (*rulebookv1.GameState, error)
	// ViewEvents returns what viewer (NoPlayer for a spectator) may see of events, the events of a move as Apply
	// returned them: one event for each, in the same order. It never modifies events: an event it hides something
	// of is a new message, and the others may be the very messages of events (copy them before changing them).
	ViewEvents(events []*rulebookv1.Event, viewer Player) []*rulebookv1.Event
	// Suggest is the game's bot: it searches for a move of seat in state, a full state, within budget, and uses
	// nothing seat may not see (it plays on deals of what is hidden from seat, never on state's own; the conformance
	// suite checks it by re-dealing). seat NoPlayer means the first player who may move. A game over is an Illegal
	// GAME_OVER error, a seat that may not move now an Illegal NO_LEGAL_MOVE error.
	Suggest(state *rulebookv1.GameState, seat Player, budget Budget) (Suggestion, error)
}

// Clocked is implemented by games whose moves carry the time the service received them (Ubongo Duel, whose
// same-moment finishes are decided by receive times). Engines never read a clock: the service does, and stamps each
// move it receives with Stamp before validating or applying it.
type Clocked interface {
	// Stamp returns move with its receive time set to now, or to the latest receive time state has recorded if that
	// is later (replicas' clocks differ, and a move must never seem to come before the one already played). It never
	// modifies move; a move or state it cannot read comes back unchanged, for Validate or Apply to refuse.
	Stamp(state *rulebookv1.GameState, move *rulebookv1.Move, now time.Time) *rulebookv1.Move
}

// Normalizer is implemented by games in which several forms of a move may be one move (Micropul, where turning a
// symmetric tile to a rotation that looks like a smaller one places the same tile), and by every Spec, which asks its
// Definition. The service answers ApplyMove
// with the move in the form the game records it, so that a record of the game holds each move in one form.
type Normalizer interface {
	// Normalize returns move in the form the game records it. It never modifies move; a move it cannot read comes
	// back unchanged, for Validate or Apply to refuse.
	Normalize(move *rulebookv1.Move) *rulebookv1.Move
}

// Seated is implemented by games that answer, from one decoding of a state, what the service would otherwise learn
// from several calls of Game: every Spec. SeatsOf and ApplyFor use it when a game has it.
type Seated interface {
	// Seats returns the number of seats of a full state or a view: its players, 1 to Seats.
	Seats(state *rulebookv1.GameState) (int, error)
	// ApplyFor plays move as Apply does and tells what seat (NoPlayer for a spectator) is shown of it, as View and
	// ViewEvents would.
	ApplyFor(state *rulebookv1.GameState, move *rulebookv1.Move, seat Player) (Applied, error)
}

// Held is implemented by games that keep the state a token holds in a form of their own, which the service seals
// and opens without reading it: every Spec. A form starting with PrivateForm is the game's private one (a version
// byte and what the game chooses); any other is the wire form of a GameState. Pack, Unpack and ApplyHeld use it when
// a game has it, and the wire form when not.
type Held interface {
	// Pack returns the held form of a full state, checking it as Apply does.
	Pack(state *rulebookv1.GameState) ([]byte, error)
	// Unpack returns the envelope of the state in a held form.
	Unpack(held []byte) (*rulebookv1.GameState, error)
	// ApplyHeld plays move on the state in a held form as ApplyFor does, and returns the new state in held form, as
	// Applied.Held (Applied.State is nil).
	ApplyHeld(held []byte, move *rulebookv1.Move, seat Player) (Applied, error)
}

// Applied is a move played, in full and as one seat is shown it.
type Applied struct {
	// State is the new state and Events the events of the move, in full, as Apply returns them. From ApplyHeld, the
	// new state is Held, in its held form, and State is nil.
	State  *rulebookv1.GameState
	Held   []byte
	Events []*rulebookv1.Event
	// View is what the seat may see of State, and SeenEvents of Events. From ApplyHeldWire, the view is ViewWire, the
	// wire form of its envelope, and View is nil.
	View       *rulebookv1.GameState
	ViewWire   []byte
	SeenEvents []*rulebookv1.Event
}

// SeatsOf returns the number of seats of state, a full state or a view: by g's Seats if g is Seated, else by the
// standings of its Score (one for each player).
func SeatsOf(g Game, state *rulebookv1.GameState) (int, error) {
	if s, ok := g.(Seated); ok {
		return s.Seats(state)
	}
	score, err := g.Score(state)
	return len(score.GetStandings()), err
}

// ApplyFor plays move on state and tells what seat is shown of it: by g's ApplyFor if g is Seated, else by Apply, View
// and ViewEvents.
func ApplyFor(g Game, state *rulebookv1.GameState, move *rulebookv1.Move, seat Player) (Applied, error) {
	if s, ok := g.(Seated); ok {
		return s.ApplyFor(state, move, seat)
	}
	next, events, err := g.Apply(state, move)
	if err != nil {
		return Applied{}, err
	}
	view, err := g.View(next, seat)
	if err != nil {
		return Applied{}, err
	}
	return Applied{State: next, Events: events, View: view, SeenEvents: g.ViewEvents(events, seat)}, nil
}

// Pack returns the form in which a token holds state, a full state: by g's Pack if g is Held, else the deterministic
// wire form of state.
func Pack(g Game, state *rulebookv1.GameState) ([]byte, error) {
	if h, ok := g.(Held); ok {
		return h.Pack(state)
	}
	return marshalState(state)
}

// Unpack returns the envelope of the state in held, as Pack made it: by g's Unpack if g is Held, else from the wire
// form.
func Unpack(g Game, held []byte) (*rulebookv1.GameState, error) {
	if h, ok := g.(Held); ok {
		return h.Unpack(held)
	}
	return unmarshalState(held)
}

// ApplyHeld plays move on the state in held, as Pack made it, and tells what seat is shown of it, with the new state
// in held form as Applied.Held: by g's ApplyHeld if g is Held, else by Unpack, ApplyFor and Pack.
func ApplyHeld(g Game, held []byte, move *rulebookv1.Move, seat Player) (Applied, error) {
	if h, ok := g.(Held); ok {
		return h.ApplyHeld(held, move, seat)
	}
	state, err := Unpack(g, held)
	if err != nil {
		return Applied{}, err
	}
	a, err := ApplyFor(g, state, move, seat)
	if err != nil {
		return Applied{}, err
	}
	if a.Held, err = Pack(g, a.State); err != nil {
		return Applied{}, err
	}
	a.State = nil
	return a, nil
}

// Wired is implemented by games that give the states of a move's answer in the wire form of their envelopes, for the
// gRPC server to send as they are: every Spec, whose Definition may write them itself (see WireEncoder). ApplyWire and
// ApplyHeldWire use it when a game has it, and protobuf's encoding when not.
type Wired interface {
	// ApplyWire plays move on a full state as Apply does, and returns the new state in the wire form of its envelope.
	ApplyWire(state *rulebookv1.GameState, move *rulebookv1.Move) ([]byte, []*rulebookv1.Event, error)
	// ApplyHeldWire plays move as ApplyHeld does, with the view as Applied.ViewWire (Applied.View is nil).
	ApplyHeldWire(held []byte, move *rulebookv1.Move, seat Player) (Applied, error)
}

// ApplyWire plays move on a full state as Apply does, and returns the new state in the wire form of its envelope,
// the bytes protobuf's deterministic encoding gives: by g's ApplyWire if g is Wired, else by Apply and that encoding.
func ApplyWire(g Game, state *rulebookv1.GameState, move *rulebookv1.Move) ([]byte, []*rulebookv1.Event, error) {
	if w, ok := g.(Wired); ok {
		return w.ApplyWire(state, move)
	}
	next, events, err := g.Apply(state, move)
	if err != nil {
		return nil, nil, err
	}
	b, err := marshalState(next)
	return b, events, err
}

// ApplyHeldWire plays move as ApplyHeld does, with the view in the wire form of its envelope as Applied.ViewWire
// instead of Applied.View: by g's ApplyHeldWire if g is Wired, else by ApplyHeld and protobuf's encoding.
func ApplyHeldWire(g Game, held []byte, move *rulebookv1.Move, seat Player) (Applied, error) {
	if w, ok := g.(Wired); ok {
		return w.ApplyHeldWire(held, move, seat)
	}
	a, err := ApplyHeld(g, held, move, seat)
	if err != nil {
		return Applied{}, err
	}
	if a.ViewWire, err = marshalState(a.View); err != nil {
		return Applied{}, err
	}
	a.View = nil
	return a, nil
}

// marshalState returns the wire form of state, deterministic: the held form of a game without a private one.
func marshalState(state *rulebookv1.GameState) ([]byte, error) {
	return appendStateWire(nil, state)
}

// appendStateWire appends the deterministic wire form of state to b.
func appendStateWire(b []byte, state *rulebookv1.GameState) ([]byte, error) {
	return proto.MarshalOptions{Deterministic: true}.MarshalAppend(b, state)
}

// unmarshalState returns the state in its wire form b.
func unmarshalState(b []byte) (*rulebookv1.GameState, error) {
	state := &rulebookv1.GameState{}
	return state, proto.Unmarshal(b, state)
}
