// Package kipicot is the rule engine of Kipicot (Djeco; Alain Rivollet and Jean-Jacques Derghazarian): two players
// share a supply of 20 red and 20 yellow sea-urchin tokens, place and move them on a 5 x 5 board, jump their pawns
// onto them, and catch the tokens of 2 x 2 "fishing squares" whose diagonals are each one colour. The biggest catch
// wins. The rules, with every decision this package makes where the sources leave a choice, are in
// docs/rules/kipicot.md.
//
// # Model
//
// Coordinates are (row, col) from 0 at the top-left; squares are stored row by row. Players are engine.Player 1 and
// 2. A turn has steps, and the state carries the phase the turn is at (Phase): step 1, the optional token move;
// step 2, a placement or a token move; step 3, the pawn; and, when more than one fishing square qualifies after the
// pawn, the fishing choice. Each step is a Move of its own, so that Legal stays small; a Move may also carry the rest
// of a turn as a list of steps (Move.Turn), applied in order, so that a client can play a turn in one call.
//
// A State is an immutable value: Apply returns a new State and the events of the move, and never changes its
// receiver. A State needs no history: NewState and FromProto check cheap conditions that every position reached by
// play meets, among them that the supply, the board and the catches hold exactly 20 tokens of each colour. They are
// necessary, not sufficient: some positions no game reaches pass them.
//
// # Errors
//
// Every refusal is an *engine.Error with a stable reason code (the Reason constants of this package). Invalid errors
// name the offending field by its path, with lowerCamelCase field names as in protobuf JSON. The typed API names it
// relative to its own message: rulebook.v1.KipicotState for a state ("squares[12].tokens", "options.endThreshold"),
// rulebook.v1.KipicotOptions for options, and the envelope rulebook.v1.Move for a move ("player",
// "kipicot.place.to.row", "kipicot.turn.steps[1].pawn.to.col"). The errors of a turn's steps name the step even when
// they are Illegal ("kipicot.turn.steps[1]", with the fact "step"). Game, the engine.Game of this package, places
// these paths under the request's argument ("state.kipicot.squares[12].tokens", "move.kipicot.turn.steps[1]").
//
// # Notation
//
// A square is written "." when empty, else as its tokens bottom first ("r", "y", "ry", "yr") followed by the digit
// of the pawn on it, if any ("ry2"); squares are separated by spaces and rows by "|" or line breaks. ParseBoard reads
// it, State.Board writes it, and State.String adds the player to move, the phase, the supply and the catches.
package kipicot
