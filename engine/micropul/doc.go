// Package micropul is the rule engine of Micropul (Jean-François Lassonde, 2004), for one or two players: players
// lay square tiles of black and white micropuls edge to edge, never black against white; catalysts on the tiles
// draw tiles from a shared face-down core into a player's face-down supply or give extra turns; stones claim groups
// of micropuls, and closed groups score. The rules, with every decision this package makes where the sources leave
// a choice, are in docs/rules/micropul.md.
//
// # Model
//
// Tile ids are 0 to 47 as in the rules' table (Tile, TileByID); tile 40 starts the game at (0, 0). A position
// (Coord) is relative to the start tile, X to the right and Y downwards, negative allowed. Quadrants are TL, TR, BR,
// BL (clockwise); a rotation is a number of clockwise quarter turns from the printed orientation. Two rotations that
// give a tile the same look are one move: a move may name any, and the game records the smallest (Move.Canonical,
// Tile.Canonical), on the board, in events and in Legal, so a symmetric tile has fewer distinct moves.
//
// A State is an immutable position holding everything, hidden parts included: the core in draw order, each hand
// (ascending) and each supply (in draw order). The only randomness is the shuffle of New (math/rand/v2 PCG seeded
// from the game's seed); a draw takes the front of the core and taking a tile from the supply takes its last tile,
// so no generator state is kept: the order of the core, unknown to all, is the hidden randomness. View hides what a
// viewer may not see and marks the result as a view, which moves refuse (STATE_IS_VIEW); ViewEvents does the same
// for events. A State needs no history: NewState and FromProto check the cheap conditions that every position reached
// by play satisfies (NewState lists them), re-checking each placement of the board (kept in placement order) against
// the tiles placed before it and bounding the draws and extra turns by the catalysts it fired; they are necessary
// conditions, and some unreachable states still pass.
//
// # Errors
//
// Every refusal is an *engine.Error with a stable reason code (the Reason constants of this package). Invalid errors
// name the offending field by its path relative to the game's own message, in lowerCamelCase as in protobuf JSON:
// rulebook.v1.MicropulState for a state ("players[0].hand[2]", "board[3].rotation"), MicropulOptions for options,
// and for a move the path below the envelope rulebook.v1.Move ("micropul.placeTile.rotation", or "player"). Game
// places them under the request's "state", "options" or "move".
package micropul
