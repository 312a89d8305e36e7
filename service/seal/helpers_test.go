package seal

import (
	"crypto/sha256"
	"errors"
	"math/rand/v2"
	"testing"
)

// testKey returns a key with the given id and a secret derived from the id, the same in every run.
func testKey(id string) Key {
	return Key{ID: id, Secret: sha256.Sum256([]byte("test key " + id))}
}

// testTable returns a table derived from name, the same in every run.
func testTable(name string) Table {
	return Table(sha256.Sum256([]byte("test table " + name)))
}

// testRing returns a keyring of the test keys of ids, the first sealing.
func testRing(t testing.TB, ids ...string) *Keyring {
	t.Helper()
	keys := make([]Key, len(ids))
	for i, id := range ids {
		keys[i] = testKey(id)
	}
	r, err := NewKeyring(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// seeded returns a deterministic random source.
func seeded(seed uint64) *rand.ChaCha8 {
	var s [32]byte
	s[0], s[1], s[2], s[3] = byte(seed), byte(seed>>8), byte(seed>>16), byte(seed>>24)
	return rand.NewChaCha8(s)
}

// reasonOf returns the Reason of err, failing the test if err is not an *Error.
func reasonOf(t testing.TB, err error) string {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *seal.Error", err, err)
	}
	return e.Reason
}
