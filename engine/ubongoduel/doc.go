// Package ubongoduel is the rule engine of Ubongo Duel (Grzegorz Rejchtman, Kosmos 2008) for two players: both race
// to cover the same shape of a sheet with the pieces a 20-sided die picks; the first valid solution wins the duel, and
// the first to win 5 duels wins the game. The rules, with every decision this package makes where the sources leave a
// choice, are in docs/rules/ubongo-duel.md.
//
// # Model
//
// The sheets and their tasks come from a versioned Deck (engine/ubongoduel/deck): 9 sides A and 9 sides B, each a
// shape and 20 piece sets, one per die face. A State records the options, the deck version, the sheet (1 to 9), the
// faces rolled for the current duel (two in a catch-up duel), each player's duels won, rolls solved and give-up, a
// pending win waiting for the tie window, and the receive time of the last accepted move.
//
// The die is the state's own generator: a ChaCha8 generator (math/rand/v2), cryptographically strong so that past
// rolls do not tell the next ones, keyed with SHA-256("rulebook ubongo-duel die v2" || the game's seed as 8 bytes
// little-endian), advanced by each roll and kept in the state (die in the message, its MarshalBinary encoding). It
// rolls automatically when a duel starts (at New, after a won duel and for a re-roll), so no move rolls it and no
// client ever supplies a face. View hides the generator, so no view tells the next roll; events hold the faces
// rolled, never the generator; everything else is public. States of rules version 1, whose die was a splitmix64
// word, are refused (RULES_VERSION_UNSUPPORTED).
//
// Moves carry the time the service received them (ReceivedAt, unix nanoseconds); the engine never reads a clock.
// Moves must arrive in order of receive time. Legal lists only the enumerable moves (give up, close a duel):
// solutions are not enumerated.
//
// # Errors
//
// Every refusal is an *engine.Error with a stable reason code (the Reason constants of this package). Invalid errors
// name the offending field by its path relative to the game's own message, in lowerCamelCase as in protobuf JSON:
// rulebook.v1.UbongoDuelState for a state ("players[0].duelsWon", "faces[1]"), UbongoDuelOptions for options, and for
// a move the path below the envelope rulebook.v1.Move ("ubongoDuel.submit.placements[2].piece", or "player"). Game
// places them under the request's "state", "options" or "move".
package ubongoduel
