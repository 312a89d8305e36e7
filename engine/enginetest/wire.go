package enginetest

import (
	"fmt"
	"testing"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// StateWriter is a game's Definition that writes the wire form of its states' envelopes itself (engine.WireEncoder),
// as CheckStateWire checks it.
type StateWriter[S any] interface {
	EncodeState(s S) *rulebookv1.GameState
	engine.WireEncoder[S]
}

// CheckStateWire fails t unless d's AppendStateWire writes, for s, the bytes of protobuf's deterministic encoding of
// d.EncodeState(s): on a nil slice, after a byte in a slice it must grow, and after a byte in a slice with room to
// spare, leaving that byte as it was. A game that implements engine.WireEncoder calls it on the states and views of
// its tests and fuzz targets, besides the conformance battery's check of the answers of ApplyWire and ApplyHeldWire.
func CheckStateWire[S any](t testing.TB, d StateWriter[S], s S) {
	t.Helper()
	if err := stateWireProblem(d, s); err != nil {
		t.Fatal(err)
	}
}

// stateWireProblem returns what CheckStateWire finds wrong, or nil.
func stateWireProblem[S any](d StateWriter[S], s S) error {
	state := d.EncodeState(s)
	if err := sameWire("AppendStateWire(nil)", d.AppendStateWire(nil, s), state); err != nil {
		return err
	}
	for _, before := range [][]byte{{7}, append(make([]byte, 0, 1<<12), 7)} {
		got := d.AppendStateWire(before, s)
		if len(got) == 0 || got[0] != 7 {
			return fmt.Errorf("AppendStateWire after the byte 07 (capacity %d) changes it: % x", cap(before), got)
		}
		if err := sameWire(fmt.Sprintf("AppendStateWire after a byte (capacity %d)", cap(before)), got[1:],
			state); err != nil {
			return err
		}
	}
	return nil
}
