package engine

import rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"

// Game is one game's rules seen through its protobuf messages: the form in which the service drives every engine.
// Each call decodes and checks its input, so a state or move from an untrusted caller is safe to pass. Errors are
// *Error values whose Field paths start at the argument, named as in the service's requests: "state", "move" or
// "options" (for example "state.exploze.cells[3].stones", "move.player", "options.exploze.rows").
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
}
