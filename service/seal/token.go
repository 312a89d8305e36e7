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
	nonceSize      = chacha20poly1305.NonceSizeX     // the random nonce that starts the decoded token
	tagSize        = chacha20poly1305.Overhead       // the Poly1305 tag that ends it
	minSealedBytes = nonceSize + TableSize + tagSize // the decoded length of a token of an empty state
	tokenAD        = "rulebook token v1\x00"         // the start of a token's additional data
)

// tokenEncoding decodes the sealed part of a token: unpadded URL-safe base64 without stray bits. (Decoders skip line
// breaks even so: Open checks the alphabet first.)
var tokenEncoding = base64.RawURLEncoding.Strict()

// Seal returns the token of state for game, sealed under the keyring's sealing key together with the game's table,
// with a random nonce from crypto/rand. It refuses a state longer than MaxStateBytes (ReasonStateTooLarge) and the
// zero Table.
func (r *Keyring) Seal(game string, table Table, state []byte) (string, error) {
	return r.seal(game, table, state, rand.Reader)
}

// seal is Seal with the nonce read from random.
func (r *Keyring) seal(game string, table Table, state []byte, random io.Reader) (string, error) {
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
	aead.Seal(plain[:0], nonce, plain, additionalData(game, r.sealing)) // in place: the tag fills the room left

	token := make([]byte, 0, len(tokenPrefix)+len(r.sealing)+1+tokenEncoding.EncodedLen(len(sealed)))
	token = append(token, tokenPrefix...)
	token = append(token, r.sealing...)
	token = append(token, '.')
	token = tokenEncoding.AppendEncode(token, sealed)
	return string(token), nil
}

// Open returns the table and the state sealed in token for game. It refuses a token longer than MaxTokenBytes
// (ReasonTokenTooLarge) before reading it, a token not in the token format (ReasonTokenMalformed), a token of a key
// id the keyring does not hold (ReasonTokenUnknownKey), and every token that fails authentication, whether altered,
// cut, extended or sealed for another game (ReasonTokenInvalid). The state is a new slice the caller may keep.
func (r *Keyring) Open(game string, token string) (Table, []byte, error) {
	if len(token) > MaxTokenBytes {
		return Table{}, nil, fail(ReasonTokenTooLarge)
	}
	rest, ok := strings.CutPrefix(token, tokenPrefix)
	if !ok {
		return Table{}, nil, fail(ReasonTokenMalformed)
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
	plain, err := aead.Open(ciphertext[:0], sealed[:nonceSize], ciphertext, additionalData(game, id))
	if err != nil {
		return Table{}, nil, fail(ReasonTokenInvalid)
	}
	var table Table
	copy(table[:], plain)
	clear(plain[:TableSize])
	return table, plain[TableSize:len(plain):len(plain)], nil
}

// additionalData is what a token authenticates besides its plaintext: the format version, the game and the key id.
// A key id holds no NUL byte, so no two (game, key id) pairs give the same bytes.
func additionalData(game, keyID string) []byte {
	ad := make([]byte, 0, len(tokenAD)+len(game)+1+len(keyID))
	ad = append(ad, tokenAD...)
	ad = append(ad, game...)
	ad = append(ad, 0)
	return append(ad, keyID...)
}
