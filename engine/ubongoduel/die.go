package ubongoduel

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math/rand/v2"
)

// The die is a ChaCha8 generator (math/rand/v2, the C2SP chacha8rand algorithm): a cryptographically strong
// generator, so that the faces rolled in a game tell nothing about the faces still to come. Its state is kept in the
// state as its MarshalBinary encoding and never appears in a view or an event.

// dieDomain is the prefix hashed with a game's seed to key the die (rules version 2). It keeps the die's key apart
// from any other use of the same seed.
const dieDomain = "rulebook ubongo-duel die v2"

// dieStateLen is the length of the die's state in a full state: the MarshalBinary encoding of a ChaCha8 generator
// ("chacha8:", the count of 64-bit words used under the current key, big-endian, then the 32-byte key).
const dieStateLen = 48

// dieKey returns the 32-byte ChaCha8 seed of a game's die: SHA-256 of dieDomain followed by seed as 8 bytes,
// little-endian.
func dieKey(seed uint64) [32]byte {
	return sha256.Sum256(binary.LittleEndian.AppendUint64([]byte(dieDomain), seed))
}

// newDie returns the die's state at the start of the game of seed.
func newDie(seed uint64) []byte { return encodeDie(rand.NewChaCha8(dieKey(seed))) }

// encodeDie returns the state of the die's generator c: its MarshalBinary encoding.
func encodeDie(c *rand.ChaCha8) []byte {
	b, err := c.AppendBinary(make([]byte, 0, dieStateLen))
	if err != nil { // ChaCha8.AppendBinary never fails.
		panic("ubongoduel: the die's generator does not marshal: " + err.Error())
	}
	return b
}

// errDie is the error of a die's state that checkDie refuses.
var errDie = errors.New("not a ChaCha8 state in its MarshalBinary encoding")

// checkDie returns errDie unless die is a state of the die's generator in exactly the encoding encodeDie writes (48
// bytes, no buffered Read bytes), so that every die has one encoding.
func checkDie(die []byte) error {
	if len(die) != dieStateLen {
		return errDie
	}
	var c rand.ChaCha8
	if err := c.UnmarshalBinary(die); err != nil {
		return errDie
	}
	if !bytes.Equal(encodeDie(&c), die) {
		return errDie
	}
	return nil
}

// rollLimit is the largest multiple of Faces that fits in a uint64 draw: outputs at or above it are drawn again, so
// that every face is exactly as likely.
const rollLimit = ^uint64(0) - ^uint64(0)%Faces

// rollDie rolls the die n times and returns the die's new state and the faces rolled (1 to 20). Each face draws
// 64-bit outputs from the generator until one falls below rollLimit, and takes it modulo 20, plus 1. die must be a
// state checkDie accepts (every full State holds one).
func rollDie(die []byte, n int) ([]byte, []int) {
	var c rand.ChaCha8
	if err := c.UnmarshalBinary(die); err != nil {
		panic("ubongoduel: a full state holds an invalid die: " + err.Error())
	}
	faces := make([]int, n)
	for i := range faces {
		for {
			if z := c.Uint64(); z < rollLimit {
				faces[i] = int(z%Faces) + 1
				break
			}
		}
	}
	return encodeDie(&c), faces
}
