// Package exploze is the rule engine of Exploze, the game also known as Chain Reaction, Critical Mass or Automaton
// Wars: players take turns putting stones on a rectangular board, a cell that holds as many stones as it has
// orthogonal neighbours explodes into them and captures them, and the last player with stones on the board wins.
// The rules, with every decision this package makes where the sources leave a choice, are in docs/rules/exploze.md.
//
// # Model
//
// Coordinates are (row, col) from 0 at the top-left; cells are stored row by row. Players are engine.Player values
// numbered from 1; engine.NoPlayer owns the empty cells. A State is an immutable position: Apply returns a new State
// and the events of the move (the stone placed, each wave of explosions with its captures, eliminations, the end of
// the game) and never changes its receiver. A State needs no history: NewState and FromProto check cheap
// necessary conditions of reachability (each position reached by play meets them), which refuse many, but not all,
// of the positions that no game reaches.
//
// The chain reaction of a move runs in waves (see Apply). Each wave costs in proportion to the cells that change, and
// the chain is bounded by a proven cap on the number of explosions (docs/rules/exploze.md gives it, and the proof);
// reaching the cap would be a bug and is reported as an engine.Internal error with reason EXPLOSION_CAP_EXCEEDED.
//
// # Errors
//
// Every refusal is an *engine.Error with a stable reason code (the Reason constants of this package). Invalid errors
// name the offending field by its path, with lowerCamelCase field names as in protobuf JSON. The typed API names it
// relative to its own message: rulebook.v1.ExplozeState for a state ("stones[7]", "options.rows", "movesPlayed"),
// rulebook.v1.ExplozeOptions for options ("rows"), and the envelope rulebook.v1.Move for a move ("player",
// "exploze.row"). Game, the engine.Game of this package, places these paths under the request's argument
// ("state.exploze.stones[7]", "move.exploze.row", "options.exploze.rows"); an envelope that holds no Exploze message
// is refused with GAME_MISMATCH about the envelope itself ("state").
//
// # Notation
//
// Boards are written as in the worked examples of the rules: a cell is a player letter (A for player 1 up to H for
// player 8) followed by its stone count, or ".0" when empty; cells are separated by spaces and rows by "|" or line
// breaks, as in "A1 A2 .0 | A2 A3 .0 | .0 .0 B1". ParseBoard reads it, State.Board writes it, and State.String adds
// the options, the move count and the player to move.
package exploze
