package seal

import (
	"crypto/rand"
	"fmt"
	"io"
	"strconv"
)

// MaxKeyIDLen is the length of the longest key id.
const MaxKeyIDLen = 32

// Key is one sealing key: an id, which every token sealed under it names, and a 32-byte secret.
type Key struct {
	// ID is 1 to MaxKeyIDLen characters of [A-Za-z0-9_-].
	ID string
	// Secret is the XChaCha20-Poly1305 key.
	Secret [32]byte
}

// GenerateKey returns a key with the given id and a secret read from random (crypto/rand when random is nil).
func GenerateKey(id string, random io.Reader) (Key, error) {
	if err := checkKeyID(id); err != nil {
		return Key{}, err
	}
	if random == nil {
		random = rand.Reader
	}
	k := Key{ID: id}
	if _, err := io.ReadFull(random, k.Secret[:]); err != nil {
		return Key{}, fmt.Errorf("seal: generating key %q: %w", id, err)
	}
	return k, nil
}

// String returns the key's id only, so that a key printed by mistake does not show its secret.
func (k Key) String() string { return "seal.Key{ID: " + strconv.Quote(k.ID) + ", Secret: <hidden>}" }

// GoString is String, for %#v.
func (k Key) GoString() string { return k.String() }

// checkKeyID returns an error if id is not a valid key id.
func checkKeyID(id string) error {
	if !validKeyID(id) {
		return fmt.Errorf("seal: key id %q is not 1 to %d characters of [A-Za-z0-9_-]", id, MaxKeyIDLen)
	}
	return nil
}

// validKeyID reports whether id is 1 to MaxKeyIDLen characters of [A-Za-z0-9_-].
func validKeyID(id string) bool {
	if len(id) == 0 || len(id) > MaxKeyIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !isURLBase64Char(id[i]) {
			return false
		}
	}
	return true
}

// isURLBase64Char reports whether c is in [A-Za-z0-9_-], the URL-safe base64 alphabet (which key ids share).
func isURLBase64Char(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}
