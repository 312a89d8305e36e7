package engine

import (
	"time"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Game is one game's rules seen through its protobuf messages: the form in which the service drives every engine.
// A caller turns a request's game into a Position once, by New, Decode (a plain state) or Open (a token's held form),
// and asks the Position everything else. Each of them decodes and checks its input, so a state or move from an
// untrusted caller is safe to pass. Errors are *Error values whose Field paths start at the argument, named as in the
// service's requests: "state", "move" or "options" (for example "state.exploze.stones[3]", "move.player",
// "options.exploze.rows").
type Game interface {
	// Info describes the game and its options.
	Info() *rulebookv1.GameInfo
	// New sets up a game. options may be nil or hold no game (all defaults); seed drives every random choice.
	New(options *rulebookv1.GameOptions, seed uint64) (Position, error)
	// Decode decodes and checks the state in the envelope: a full state or a view (which only Seats, ToMove, Score
	// and Encode accept).
	Decode(state *rulebookv1.GameState) (Position, error)
	// Open returns the full state in held, a form Position.Held made: the deterministic wire form of its envelope, or
	// a form that tokens of an earlier release held (see PreviousForm). It checks the state as Decode does.
	Open(held []byte) (Position, error)
}

// Position is one state of a game, decoded once, which every call of a request asks: a full state, or a view of one.
// It never changes: Apply returns a new Position. The methods that play, list or show (Legal, Validate, Apply, View,
// Held, Suggest) refuse a view, as only a full state will do.
//
// Apply's position and events are in full, and so is Legal for NoPlayer (the moves of whoever may move). What a caller
// holding seat p is told shows only what p may know: View(p) and ViewEvents(events, p); Legal(p), Score, Suggest for
// p, and Validate for a move of p, which depend on nothing p may not see (the conformance suite, enginetest, checks
// each by re-dealing what p may not see).
type Position interface {
	// Seats returns the number of seats: the players, 1 to Seats.
	Seats() int
	// ToMove returns the players who may move now, in seat order: Legal lists their moves for NoPlayer.
	ToMove() []Player
	// Legal lists every legal move of player, in a stable order; none when player may not move now. For NoPlayer it
	// lists the moves of every player who may move now.
	Legal(player Player) ([]*rulebookv1.Move, error)
	// Validate returns exactly the error Apply would return, without making the new position.
	Validate(move *rulebookv1.Move) error
	// Apply plays move and returns the new position and the events of the move.
	Apply(move *rulebookv1.Move) (Position, []*rulebookv1.Event, error)
	// Score returns the live or final standings.
	Score() *rulebookv1.Score
	// View returns what viewer (NoPlayer for a spectator) may see.
	View(viewer Player) (Position, error)
	// ViewEvents returns what viewer (NoPlayer for a spectator) may see of events, the events of a move as Apply
	// returned them: one event for each, in the same order. It never modifies events: an event it hides something
	// of is a new message, and the others may be the very messages of events (copy them before changing them).
	ViewEvents(events []*rulebookv1.Event, viewer Player) []*rulebookv1.Event
	// Encode returns the position in its envelope, a new message.
	Encode() *rulebookv1.GameState
	// Held returns the form in which a token holds the position, a full state: the deterministic wire form of its
	// envelope, which Open reads; and, as a token's answer shows it with that form, what viewer may see of it in its
	// envelope (View(viewer) encoded), encoded once for both when it hides nothing from viewer. Its errors are View's.
	Held(viewer Player) (held []byte, view *rulebookv1.GameState, err error)
	// Suggest is the game's bot: it searches for a move of seat within budget, and uses nothing seat may not see (it
	// plays on deals of what is hidden from seat, never on the position's own; the conformance suite checks it by
	// re-dealing). seat NoPlayer means the first player who may move. A game over is an Illegal GAME_OVER error, a
	// seat that may not move now an Illegal NO_LEGAL_MOVE error.
	Suggest(seat Player, budget Budget) (Suggestion, error)
	// Receive returns move as the game records it when the service receives it at now: in the one form the game
	// records of several forms of one move (Micropul's rotations of a symmetric tile), and stamped with the time it
	// was received where the rules need it (Ubongo Duel's same-moment finishes). Engines read no clock: the service
	// does, and passes each move it receives through Receive before validating or applying it. It never modifies
	// move; a move it cannot read comes back unchanged, for Validate or Apply to refuse.
	Receive(move *rulebookv1.Move, now time.Time) *rulebookv1.Move
}
