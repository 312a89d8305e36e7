package seal

import (
	"crypto/cipher"
	"errors"
	"fmt"

	"golang.org/x/crypto/chacha20poly1305"
)

// Keyring is the service's set of keys: the first seals new tokens, every key opens tokens sealed under it. A
// Keyring is immutable and safe for concurrent use. Make one with NewKeyring: the zero Keyring holds no key.
type Keyring struct {
	sealing string                 // the id of the key that seals
	aeads   map[string]cipher.AEAD // XChaCha20-Poly1305 of every key, by id
}

// NewKeyring returns a keyring of the given keys, at least one, with distinct ids and secrets that are not all
// zeros. The first key seals; every key opens.
func NewKeyring(keys ...Key) (*Keyring, error) {
	if len(keys) == 0 {
		return nil, errors.New("seal: a keyring needs at least one key")
	}
	r := &Keyring{sealing: keys[0].ID, aeads: make(map[string]cipher.AEAD, len(keys))}
	for _, k := range keys {
		if err := checkKeyID(k.ID); err != nil {
			return nil, err
		}
		if _, dup := r.aeads[k.ID]; dup {
			return nil, fmt.Errorf("seal: key id %q appears twice", k.ID)
		}
		if k.Secret == ([32]byte{}) {
			return nil, fmt.Errorf("seal: key %q has a secret of all zeros", k.ID)
		}
		aead, err := chacha20poly1305.NewX(k.Secret[:])
		if err != nil { // only for a key of the wrong length, which a [32]byte never is
			return nil, fmt.Errorf("seal: key %q: %w", k.ID, err)
		}
		r.aeads[k.ID] = aead
	}
	return r, nil
}

// SealingKeyID returns the id of the key that seals new tokens.
func (r *Keyring) SealingKeyID() string { return r.sealing }
