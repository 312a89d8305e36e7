// Package seal seals game states into opaque tokens that untrusted holders (a browser, a player's app) can keep and
// send back, and signs seat passes that prove which seat a holder was given. It does the cryptography and the key
// handling only: a state comes in and goes out as bytes, whatever game it belongs to.
//
// # State tokens
//
// A token is URL-safe text:
//
//	v2.<key id>.<base64url without padding of (nonce || ciphertext)>
//
// The ciphertext is XChaCha20-Poly1305 (a 24-byte random nonce from crypto/rand, so any number of tokens may be
// sealed under one key) of the plaintext
//
//	table secret (32 bytes) || rules version (4 bytes, big-endian) || state bytes
//
// under the key named by the key id, with the additional data
//
//	"rulebook token v2\x00" + game + "\x00" + key id
//
// which binds the token to its format, the game id and the key id: a token sealed for "micropul" never opens as
// "exploze", and a token whose key id was edited never opens. The rules version is the game's
// (GameInfo.rules_version) in the build that sealed it, so that another build can tell a state made under other
// rules; [Keyring.Open] returns it with the state, in a [Contents].
//
// A token has a [Scope]. The tokens above are of [ScopeSealed]: sealed for a caller that holds only tokens, whose
// states came from seeds the service drew and from moves. A token of [ScopePlain], sealed for a caller that may send
// plain states and choose seeds (and so may have sealed any board it chose), starts with "p2." instead of "v2.", and
// its additional data with "rulebook plain token v2\x00": rewriting one prefix into the other makes the token fail
// authentication. Open opens a token of ScopePlain only when told to accept that scope (ReasonTokenScope otherwise),
// after it has authenticated it. A key id is 1 to 32 characters of [A-Za-z0-9_-].
//
// # Formats
//
// The prefix names the token's [Format]. Format2 is the one above. [Format1], the format of the builds before it,
// is "v1." ("p1."), with the plaintext table || state and the additional data "rulebook token v1\x00" ("rulebook
// plain token v1\x00") + game + "\x00" + key id: it says no rules version. Open opens both; Seal seals Format1 when
// told to, so that a build can run beside one that reads only Format1 (a rolling update). A prefix of their form (a
// lowercase letter and one to three digits) naming no format this build knows is ReasonTokenVersionUnsupported,
// not ReasonTokenMalformed: a newer build's token, most likely.
//
// A token is at most [MaxTokenBytes] long and holds a state of at most [MaxStateBytes]. Open refuses a longer token
// before decoding anything, any token that is not exactly in a token format (base64 is decoded strictly: no padding,
// no line breaks, no stray bits), and any token altered in any bit, with the same error for every authentication
// failure.
//
// What a token does not do: it hides the content of a state but not its length, and it does not stop replay. Whoever
// holds several tokens of a game (an earlier move, another branch) can send any of them back, and each opens; a
// caller that must refuse stale states has to check that itself (for example against a move number it keeps).
//
// # Tables and seat passes
//
// A [Table] is a 32-byte secret drawn once when a game is set up and carried, encrypted, inside every token of that
// game. A seat pass proves that its holder was given a seat at that table:
//
//	<seat>.<base64url without padding of HMAC-SHA256(table, "rulebook seat pass v1\x00" + game + "\x00" + seat)[:16]>
//
// where seat is the decimal seat number, 1 to [MaxSeat], without sign or leading zeros. A pass never checks for
// another table, another game or another seat.
//
// # Keys
//
// A [Keyring] holds the service's keys: the first seals, every one opens, so keys rotate by putting a new key first
// and keeping the old ones while their tokens are still in use. Keys are kept in a key file (see [ParseKeys]), which
// [LoadOrCreateKeyFile] creates on first start.
//
// # Errors
//
// Every refusal of a token or a pass is an [*Error] whose Reason is one of the Reason constants; its message is a
// fixed sentence that never tells which part failed.
package seal
