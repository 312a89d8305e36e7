package enginetest

import (
	"testing"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// wireWriter is a StateWriter of states that are a number of moves played, whose AppendStateWire is write.
type wireWriter struct {
	write func(b, wire []byte) []byte
}

// EncodeState returns an Exploze state with moves moves played.
func (wireWriter) EncodeState(moves int) *rulebookv1.GameState {
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_Exploze{Exploze: &rulebookv1.ExplozeState{
		RulesVersion: 1, MovesPlayed: uint32(moves), ToMove: 2}}}
}

// AppendStateWire hands write b and the wire form of EncodeState(moves).
func (w wireWriter) AppendStateWire(b []byte, moves int) []byte {
	wire, err := proto.MarshalOptions{Deterministic: true}.Marshal(w.EncodeState(moves))
	if err != nil {
		panic(err)
	}
	return w.write(b, wire)
}

// TestStateWireProblem shows which writers CheckStateWire passes.
func TestStateWireProblem(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(b, wire []byte) []byte
		ok    bool
	}{
		{"appends the wire form", func(b, wire []byte) []byte { return append(b, wire...) }, true},
		{"a byte short", func(b, wire []byte) []byte { return append(b, wire[:len(wire)-1]...) }, false},
		{"a byte more", func(b, wire []byte) []byte { return append(append(b, wire...), 0) }, false},
		{"drops the bytes before", func(_, wire []byte) []byte { return wire }, false},
		{"overwrites the bytes before", func(b, wire []byte) []byte { return append(b[:0], wire...) }, false},
		{"right only on an empty slice", func(b, wire []byte) []byte {
			if len(b) > 0 {
				return append(b, wire[1:]...)
			}
			return wire
		}, false},
		{"right only when the slice grows", func(b, wire []byte) []byte {
			if cap(b) > len(b) {
				b = append(b, 0)
			}
			return append(b, wire...)
		}, false},
	} {
		for _, moves := range []int{0, 300} {
			if err := stateWireProblem(wireWriter{c.write}, moves); (err == nil) != c.ok {
				t.Errorf("%s, %d moves: CheckStateWire finds %v, want ok = %v", c.name, moves, err, c.ok)
			}
		}
	}
}
