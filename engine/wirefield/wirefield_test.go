package wirefield

import (
	"bytes"
	"math"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// ints are values on every side of the bounds the package's fast paths and conversions have.
var ints = []int{0, 1, 0x7f, 0x80, 0x3fff, 0x4000, -1, -0x7f, -0x80, -0x81, math.MaxInt32, math.MinInt32,
	math.MaxUint32, math.MaxInt32 + 1, 1<<40 + 5, math.MaxInt64, math.MinInt64}

// marshal is protobuf's deterministic encoding of m, failing t on an error.
func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkAppended fails t unless got is before followed by want, and size is len(want).
func checkAppended(t *testing.T, what string, before, got, want []byte, size int) {
	t.Helper()
	if !bytes.HasPrefix(got, before) || !bytes.Equal(got[len(before):], want) {
		t.Errorf("%s = % x, want % x then % x", what, got, before, want)
	}
	if size != len(want) {
		t.Errorf("%s: size %d, writes %d bytes", what, size, len(want))
	}
}

// TestVarintFields checks AppendVarint and VarintSize, with the converters, against protobuf's encoding of the
// int32, uint32 and bool fields (numbered 1) of the wrapper messages, and against protowire for every field number.
func TestVarintFields(t *testing.T) {
	before := []byte{7}
	for _, n := range ints {
		for _, c := range []struct {
			name string
			v    uint64
			msg  proto.Message
		}{
			{"Int32", Int32(n), wrapperspb.Int32(int32(n))},
			{"Uint32", Uint32(n), wrapperspb.UInt32(uint32(n))},
			{"Bool", Bool(n != 0), wrapperspb.Bool(n != 0)},
		} {
			checkAppended(t, c.name, before, AppendVarint(before, 1, c.v), marshal(t, c.msg), VarintSize(c.v))
		}
	}
	for num := protowire.Number(1); num < 16; num++ {
		for _, n := range ints {
			v := uint64(n)
			var want []byte
			if v != 0 {
				want = protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), v)
			}
			checkAppended(t, "AppendVarint", before, AppendVarint(before, num, v), want, VarintSize(v))
		}
	}
}

// TestMessageFields checks AppendMessage and MessageSize against protowire for every field number and lengths on
// each side of a varint's bounds.
func TestMessageFields(t *testing.T) {
	before := []byte{7}
	for num := protowire.Number(1); num < 16; num++ {
		for _, n := range []int{0, 1, 0x7f, 0x80, 0x3fff, 0x4000} {
			want := protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.BytesType), uint64(n))
			checkAppended(t, "AppendMessage", before, AppendMessage(before, num, n), want, MessageSize(n)-n)
		}
	}
}

// TestPackedFields checks AppendPacked and PackedSize against protobuf's encoding of MicropulPlayer's hand, a packed
// repeated uint32 field numbered 1, and of its supply, numbered 3.
func TestPackedFields(t *testing.T) {
	long := make([]int, 200)
	for i := range long {
		long[i] = i * 3
	}
	before := []byte{7}
	for _, vs := range [][]int{nil, {}, {0}, {1, 2, 0x7f}, {0x80, 300, -1}, ints, long} {
		hand := make([]uint32, len(vs))
		for i, v := range vs {
			hand[i] = uint32(v)
		}
		checkAppended(t, "AppendPacked(1)", before, AppendPacked(before, 1, vs),
			marshal(t, &rulebookv1.MicropulPlayer{Hand: hand}), PackedSize(vs))
		checkAppended(t, "AppendPacked(3)", before, AppendPacked(before, 3, vs),
			marshal(t, &rulebookv1.MicropulPlayer{Supply: hand}), PackedSize(vs))
	}
}
