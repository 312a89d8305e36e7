package seal

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
)

// TableSize is the length of a table secret.
const TableSize = 32

// Table is the per-game secret, created once when a game is set up (NewTable) and carried, encrypted, inside every
// token of that game. It keys the game's seat passes. The zero Table is not a table: Seal refuses it, Pass panics on
// it and CheckPass refuses every pass for it.
type Table [TableSize]byte

// NewTable returns a new table secret read from random (crypto/rand when random is nil).
func NewTable(random io.Reader) (Table, error) {
	if random == nil {
		random = rand.Reader
	}
	var t Table
	if _, err := io.ReadFull(random, t[:]); err != nil {
		return Table{}, fmt.Errorf("seal: drawing a table secret: %w", err)
	}
	if t.zero() {
		return Table{}, errors.New("seal: the random source gave 32 zero bytes")
	}
	return t, nil
}

// String hides the secret, so that a table printed by mistake does not show it.
func (t Table) String() string { return "seal.Table{<hidden>}" }

// GoString is String, for %#v.
func (t Table) GoString() string { return t.String() }

// zero reports whether t is the zero Table.
func (t Table) zero() bool { return t == Table{} }
