package seal

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/crypto/chacha20poly1305"
)

const (
	// MaxTokenBytes is the length of the longest token Open reads; a longer one is refused before it is decoded.
	MaxTokenBytes = 256 << 10
	// MaxStateBytes is the length of the longest state Seal seals (196,505 bytes): its token, in either format and
	// under a key id of any length, is at most MaxTokenBytes long.
	MaxStateBytes = (MaxTokenBytes-len("v2.")-MaxKeyIDLen-1)*6/8 - nonceSize - TableSize - rulesVersionSize - tagSize

	nonceSize        = chacha20poly1305.NonceSizeX // the random nonce that starts the decoded token
	tagSize          = chacha20poly1305.Overhead   // the Poly1305 tag that ends it
	rulesVersionSize = 4                           // the rules version in a token of Format2, big-endian
)

// Format is a token format, which a token's prefix names: how its plaintext is laid out and what it authenticates.
type Format uint8

const (
	// Format1 is the format of the builds before Format2: "v1." ("p1." for ScopePlain), a plaintext of the table
	// and the state, and no rules version (Open gives 0). Every build opens it; a build seals it only when told to,
	// for a rolling update beside a build that reads no other.
	Format1 Format = 1
	// Format2 is "v2." ("p2." for ScopePlain), a plaintext of the table, the rules version (4 bytes, big-endian)
	// and the state.
	Format2 Format = 2
	// CurrentFormat is the newest format, which Seal seals unless told otherwise.
	CurrentFormat = Format2
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

// Contents is what a token holds and what its prefix says, all of it authenticated.
type Contents struct {
	// Format is the token's format; Seal takes 0 for CurrentFormat.
	Format Format
	// Scope is where the state may have come from.
	Scope Scope
	// RulesVersion is the version of the game's rules that the sealer played (GameInfo.rules_version); 0 in a token
	// of Format1, which does not say.
	RulesVersion uint32
	// Table is the game's table secret.
	Table Table
	// State is the state, in whatever form the sealer holds it.
	State []byte
}

// tokenEncoding decodes the sealed part of a token: unpadded URL-safe base64 without stray bits. (Decoders skip line
// breaks even so: Open checks the alphabet first.)
var tokenEncoding = base64.RawURLEncoding.Strict()

// Seal returns the token of c's state for game, in c's format and scope, sealed under the keyring's sealing key
// together with c's table (and, from Format2, its rules version), with a random nonce from crypto/rand. It refuses a
// state longer than MaxStateBytes (ReasonStateTooLarge), the zero Table, and a format or scope it does not know.
func (r *Keyring) Seal(game string, c Contents) (string, error) {
	return r.seal(game, c, rand.Reader)
}

// seal is Seal with the nonce read from random.
func (r *Keyring) seal(game string, c Contents, random io.Reader) (string, error) {
	if c.Format == 0 {
		c.Format = CurrentFormat
	}
	switch {
	case c.Format > CurrentFormat || c.Scope > ScopePlain:
		return "", fmt.Errorf("seal: no token format %d of scope %d", c.Format, c.Scope)
	case len(c.State) > MaxStateBytes:
		return "", fail(ReasonStateTooLarge)
	case c.Table.zero():
		return "", errors.New("seal: sealing a zero Table (use NewTable)")
	case r.aeads[r.sealing] == nil:
		return "", errors.New("seal: sealing with a Keyring of no keys (use NewKeyring)")
	}
	prefix := string("vp"[c.Scope]) + strconv.Itoa(int(c.Format))
	header := headerSize(c.Format)
	sealed := make([]byte, nonceSize+header+len(c.State)+tagSize) // nonce || plaintext || tag, encrypted in place
	nonce := sealed[:nonceSize]
	if _, err := io.ReadFull(random, nonce); err != nil {
		return "", fmt.Errorf("seal: drawing a nonce: %w", err)
	}
	plain := sealed[nonceSize : len(sealed)-tagSize]
	copy(plain, c.Table[:])
	if c.Format == Format2 {
		binary.BigEndian.PutUint32(plain[TableSize:], c.RulesVersion)
	}
	copy(plain[header:], c.State)
	r.aeads[r.sealing].Seal(plain[:0], nonce, plain, additionalData(prefix, game, r.sealing)) // the tag fills the room left

	token := make([]byte, 0, len(prefix)+len(r.sealing)+1+tokenEncoding.EncodedLen(len(sealed)))
	token = append(token, prefix...)
	token = append(token, '.')
	token = append(token, r.sealing...)
	token = append(token, '.')
	token = tokenEncoding.AppendEncode(token, sealed)
	return string(token), nil
}

// Open returns what token holds for game, in either format. It refuses a token of ScopePlain unless accept is
// ScopePlain (ReasonTokenScope), and, before that, it refuses a token longer than MaxTokenBytes (ReasonTokenTooLarge)
// before reading it, a token whose prefix names a format it does not know, as a newer build's would
// (ReasonTokenVersionUnsupported), any other token not in a token format (ReasonTokenMalformed), a token of a key id
// the keyring does not hold (ReasonTokenUnknownKey), and every token that fails authentication, whether altered, cut,
// extended or sealed for another game (ReasonTokenInvalid). The state is a new slice the caller may keep.
func (r *Keyring) Open(game string, token string, accept Scope) (Contents, error) {
	if len(token) > MaxTokenBytes {
		return Contents{}, fail(ReasonTokenTooLarge)
	}
	prefix, rest, _ := strings.Cut(token, ".")
	c, err := parsePrefix(prefix)
	if err != nil {
		return Contents{}, err
	}
	header := headerSize(c.Format)
	least := nonceSize + header + tagSize // the decoded length of a token of an empty state
	id, payload, ok := strings.Cut(rest, ".")
	if !ok || !validKeyID(id) || tokenEncoding.DecodedLen(len(payload)) < least {
		return Contents{}, fail(ReasonTokenMalformed)
	}
	for i := 0; i < len(payload); i++ {
		if !isURLBase64Char(payload[i]) {
			return Contents{}, fail(ReasonTokenMalformed)
		}
	}
	sealed, err := tokenEncoding.DecodeString(payload)
	if err != nil || len(sealed) < least {
		return Contents{}, fail(ReasonTokenMalformed)
	}
	aead, ok := r.aeads[id]
	if !ok {
		return Contents{}, fail(ReasonTokenUnknownKey)
	}
	ciphertext := sealed[nonceSize:]
	plain, err := aead.Open(ciphertext[:0], sealed[:nonceSize], ciphertext, additionalData(prefix, game, id))
	if err != nil {
		return Contents{}, fail(ReasonTokenInvalid)
	}
	if c.Scope > accept {
		return Contents{}, fail(ReasonTokenScope)
	}
	copy(c.Table[:], plain)
	clear(plain[:TableSize])
	if c.Format == Format2 {
		c.RulesVersion = binary.BigEndian.Uint32(plain[TableSize:])
	}
	c.State = plain[header:len(plain):len(plain)]
	return c, nil
}

// headerSize is the length of what a plaintext of format holds before the state.
func headerSize(format Format) int {
	if format == Format1 {
		return TableSize
	}
	return TableSize + rulesVersionSize
}

// parsePrefix returns the format and scope that a token's prefix (without its dot) names: "v" for ScopeSealed or "p"
// for ScopePlain, then the format's number. A prefix of that form, a lowercase letter and one to three digits, that
// names no format this build knows is ReasonTokenVersionUnsupported: a newer build's, perhaps; any other prefix is
// ReasonTokenMalformed.
func parsePrefix(prefix string) (Contents, error) {
	if len(prefix) < 2 || len(prefix) > 4 || prefix[0] < 'a' || prefix[0] > 'z' || strings.Trim(prefix[1:], "0123456789") != "" {
		return Contents{}, fail(ReasonTokenMalformed)
	}
	scope := strings.IndexByte("vp", prefix[0])
	format, _ := strconv.Atoi(prefix[1:])
	if scope < 0 || prefix[1] == '0' || format < int(Format1) || format > int(CurrentFormat) {
		return Contents{}, fail(ReasonTokenVersionUnsupported)
	}
	return Contents{Format: Format(format), Scope: Scope(scope)}, nil
}

// additionalData is what a token authenticates besides its plaintext: its format and scope (by its prefix), the
// game and the key id. Neither a prefix nor a key id holds a NUL byte, so no two (prefix, game, key id) triples give
// the same bytes. For Format1 it is what the builds before Format2 authenticate:
// "rulebook token v1\x00" (or "rulebook plain token v1\x00") + game + "\x00" + key id.
func additionalData(prefix, game, keyID string) []byte {
	ad := make([]byte, 0, len("rulebook plain token v1\x00")+len(game)+1+len(keyID))
	ad = append(ad, "rulebook "...)
	if prefix[0] == 'p' {
		ad = append(ad, "plain "...)
	}
	ad = append(ad, "token v"...)
	ad = append(ad, prefix[1:]...)
	ad = append(ad, 0)
	ad = append(ad, game...)
	ad = append(ad, 0)
	return append(ad, keyID...)
}
