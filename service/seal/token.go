package seal

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/crypto/chacha20poly1305"
)

const (
	// MaxTokenBytes is the length of the longest token Open reads; a longer one is refused before it is decoded.
	MaxTokenBytes = 256 << 10
	// MaxStateBytes is the length of the longest state Seal seals (196,509 bytes): its token, under a key id of any
	// length, is at most MaxTokenBytes long.
	MaxStateBytes = (MaxTokenBytes-len(tokenPrefix)-MaxKeyIDLen-1)*6/8 - minSealedBytes

	tokenPrefix    = "v1."                           // the format and its version, then the key id
	plainPrefix    = "p1."                           // tokenPrefix of a token of ScopePlain, as long
	nonceSize      = chacha20poly1305.NonceSizeX     // the random nonce that starts the decoded token
	tagSize        = chacha20poly1305.Overhead       // the Poly1305 tag that ends it
	minSealedBytes = nonceSize + TableSize + tagSize // the decoded length of a token of an empty state
	tokenAD        = "rulebook token v1\x00"         // the start of a token's additional data
	plainAD        = "rulebook plain token v1\x00"   // tokenAD of a token of ScopePlain
)

// Scope is what a token's state may have come from, sealed into the token (its prefix, authenticated with it): a
// server that accepts plain states only from some callers, or none, tells tokens of chosen boards from the others.
type Scope uint8

const (
	// ScopeSealed is the scope of a token whose state came from a seed the service drew and from moves.
	ScopeSealed Scope = iota
	// ScopePlain is the scope of a token whose state a caller chose, or may have: it came from a plain state, a seed
	// the caller chose, or another token of ScopePlain. It may be any board at all.
	ScopePlain
)

// ScopeOf returns the scope that token says it has (which OpenScoped authenticates).
func ScopeOf(token string) Scope {
	if strings.HasPrefix(token, plainPrefix) {
		return ScopePlain
	}
	return ScopeSealed
}

// tokenEncoding decodes the sealed part of a token: unpadded URL-safe base64 without stray bits. (Decoders skip line
// breaks even so: Open checks the alphabet first.)
var tokenEncoding = base64.RawURLEncoding.Strict()

// Seal returns the token of state for game, of ScopeSealed, as SealScoped seals it.
func (r *Keyring) Seal(game string, table Table, state []byte) (string, error) {
	return r.seal(ScopeSealed, game, table, state, rand.Reader)
}

// SealScoped returns the token of state for game and scope, sealed under the keyring's sealing key together with the
// game's table, with a random nonce from crypto/rand. It refuses a state longer than MaxStateBytes
// (ReasonStateTooLarge) and the zero Table.
func (r *Keyring) SealScoped(scope Scope, game string, table Table, state []byte) (string, error) {
	return r.seal(scope, game, table, state, rand.Reader)
}

// seal is SealScoped with the nonce read from random.
func (r *Keyring) seal(scope Scope, game string, table Table, state []byte, random io.Reader) (string, error) {
	if len(state) > MaxStateBytes {
		return "", fail(ReasonStateTooLarge)
	}
	if table.zero() {
		return "", errors.New("seal: sealing a zero Table (use NewTable)")
	}
	aead := r.aeads[r.sealing]
	if aead == nil {
		return "", errors.New("seal: sealing with a Keyring of no keys (use NewKeyring)")
	}
	sealed := make([]byte, minSealedBytes+len(state)) // nonce || table || state || tag, encrypted in place
	nonce := sealed[:nonceSize]
	if _, err := io.ReadFull(random, nonce); err != nil {
		return "", fmt.Errorf("seal: drawing a nonce: %w", err)
	}
	plain := sealed[nonceSize : len(sealed)-tagSize]
	copy(plain, table[:])
	copy(plain[TableSize:], state)
	aead.Seal(plain[:0], nonce, plain, additionalData(scope, game, r.sealing)) // in place: the tag fills the room left

	token := make([]byte, 0, len(tokenPrefix)+len(r.sealing)+1+tokenEncoding.EncodedLen(len(sealed)))
	token = append(token, scope.prefix()...)
	token = append(token, r.sealing...)
	token = append(token, '.')
	token = tokenEncoding.AppendEncode(token, sealed)
	return string(token), nil
}

// Open returns the table and the state sealed in token for game, as OpenScoped(game, token, ScopeSealed) does.
func (r *Keyring) Open(game string, token string) (Table, []byte, error) {
	return r.OpenScoped(game, token, ScopeSealed)
}

// OpenScoped returns the table and the state sealed in token for game. It refuses a token of ScopePlain unless
// accept is ScopePlain (ReasonTokenScope), and, before that, it refuses a token longer than MaxTokenBytes
// (ReasonTokenTooLarge) before reading it, a token not in the token format (ReasonTokenMalformed), a token of a key
// id the keyring does not hold (ReasonTokenUnknownKey), and every token that fails authentication, whether altered,
// cut, extended or sealed for another game (ReasonTokenInvalid). The state is a new slice the caller may keep.
func (r *Keyring) OpenScoped(game string, token string, accept Scope) (Table, []byte, error) {
	if len(token) > MaxTokenBytes {
		return Table{}, nil, fail(ReasonTokenTooLarge)
	}
	scope := ScopeSealed
	rest, ok := strings.CutPrefix(token, tokenPrefix)
	if !ok {
		scope = ScopePlain
		if rest, ok = strings.CutPrefix(token, plainPrefix); !ok {
			return Table{}, nil, fail(ReasonTokenMalformed)
		}
	}
	id, payload, ok := strings.Cut(rest, ".")
	if !ok || !validKeyID(id) || tokenEncoding.DecodedLen(len(payload)) < minSealedBytes {
		return Table{}, nil, fail(ReasonTokenMalformed)
	}
	for i := 0; i < len(payload); i++ {
		if !isURLBase64Char(payload[i]) {
			return Table{}, nil, fail(ReasonTokenMalformed)
		}
	}
	sealed, err := tokenEncoding.DecodeString(payload)
	if err != nil || len(sealed) < minSealedBytes {
		return Table{}, nil, fail(ReasonTokenMalformed)
	}
	aead, ok := r.aeads[id]
	if !ok {
		return Table{}, nil, fail(ReasonTokenUnknownKey)
	}
	ciphertext := sealed[nonceSize:]
	plain, err := aead.Open(ciphertext[:0], sealed[:nonceSize], ciphertext, additionalData(scope, game, id))
	if err != nil {
		return Table{}, nil, fail(ReasonTokenInvalid)
	}
	if scope > accept {
		return Table{}, nil, fail(ReasonTokenScope)
	}
	var table Table
	copy(table[:], plain)
	clear(plain[:TableSize])
	return table, plain[TableSize:len(plain):len(plain)], nil
}

// additionalData is what a token authenticates besides its plaintext: the format version and scope, the game and the
// key id. A key id holds no NUL byte, so no two (scope, game, key id) triples give the same bytes.
func additionalData(scope Scope, game, keyID string) []byte {
	start := tokenAD
	if scope == ScopePlain {
		start = plainAD
	}
	ad := make([]byte, 0, len(start)+len(game)+1+len(keyID))
	ad = append(ad, start...)
	ad = append(ad, game...)
	ad = append(ad, 0)
	return append(ad, keyID...)
}

// prefix returns the start of the tokens of scope: the format, its version and the scope.
func (scope Scope) prefix() string {
	if scope == ScopePlain {
		return plainPrefix
	}
	return tokenPrefix
}
