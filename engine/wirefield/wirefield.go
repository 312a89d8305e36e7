// Package wirefield appends the fields of protobuf messages in the form protobuf's deterministic encoding gives
// them, for games that write the wire form of their states' envelopes themselves (engine.WireEncoder): proto3
// fields numbered 1 to 15, whose tags are one byte, a zero value or an empty list left out, repeated integers packed.
// A game writes a message in two passes: the sizes of its fields (VarintSize, MessageSize, PackedSize), then its
// fields, each message field after its size (AppendVarint, AppendMessage, AppendPacked). The converters (Int32,
// Uint32, Bool) give a value as protobuf puts a field of that type on the wire.
package wirefield

import "google.golang.org/protobuf/encoding/protowire"

// Int32 is n as protobuf puts an int32 or enum field on the wire: converted to int32 (as a message's field takes
// it), then sign-extended to 64 bits, so that a negative value is ten bytes long.
func Int32(n int) uint64 { return uint64(int64(int32(n))) }

// Uint32 is n as protobuf puts a uint32 field on the wire: converted to uint32, as a message's field takes it.
func Uint32(n int) uint64 { return uint64(uint32(n)) }

// Bool is v as protobuf puts a bool field on the wire: 1 or 0.
func Bool(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// tag is the one-byte tag of field num (1 to 15) of wire type typ.
func tag(num protowire.Number, typ protowire.Type) byte { return byte(num<<3) | byte(typ) }

// VarintSize is the size of a varint field numbered 1 to 15 holding v: its tag and v, or nothing for 0, which proto3
// leaves out.
func VarintSize(v uint64) int {
	if v == 0 {
		return 0
	}
	return 1 + protowire.SizeVarint(v)
}

// MessageSize is the size of a message field numbered 1 to 15 whose message is n bytes long: its tag, its length and
// the message. protobuf writes a message field that is set even when its message is empty.
func MessageSize(n int) int { return 1 + protowire.SizeVarint(uint64(n)) + n }

// PackedSize is the size of vs as a packed repeated uint32 field numbered 1 to 15 (each converted by Uint32): its tag,
// its length and the varints, or nothing for an empty list.
func PackedSize(vs []int) int {
	if len(vs) == 0 {
		return 0
	}
	return MessageSize(packedLen(vs))
}

// packedLen is the size of the varints of vs, each converted by Uint32.
func packedLen(vs []int) int {
	n := 0
	for _, v := range vs {
		n += protowire.SizeVarint(Uint32(v))
	}
	return n
}

// AppendVarint appends the varint field num (1 to 15) holding v to b, unless v is 0 (proto3 leaves it out). The
// usual values take one append: one below 0x80 is a byte; a small negative int32 (-128 to -1), sign-extended, is the
// ten bytes of a varint whose bits above the seventh are all ones.
func AppendVarint(b []byte, num protowire.Number, v uint64) []byte {
	switch {
	case v == 0:
		return b
	case v < 0x80:
		return append(b, tag(num, protowire.VarintType), byte(v))
	case int64(v) < 0 && int64(v) >= -0x80:
		return append(b, tag(num, protowire.VarintType), byte(v)|0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			0x01)
	}
	return protowire.AppendVarint(append(b, tag(num, protowire.VarintType)), v)
}

// AppendMessage appends the tag of the message field num (1 to 15) and n, the length of its message, to b; the
// message's fields come next.
func AppendMessage(b []byte, num protowire.Number, n int) []byte {
	if n < 0x80 {
		return append(b, tag(num, protowire.BytesType), byte(n))
	}
	return protowire.AppendVarint(append(b, tag(num, protowire.BytesType)), uint64(n))
}

// AppendPacked appends vs as the packed repeated uint32 field num (1 to 15) to b, each converted by Uint32: its tag,
// its length and the varints; nothing for an empty list.
func AppendPacked(b []byte, num protowire.Number, vs []int) []byte {
	if len(vs) == 0 {
		return b
	}
	b = AppendMessage(b, num, packedLen(vs))
	for _, v := range vs {
		if w := Uint32(v); w < 0x80 {
			b = append(b, byte(w))
		} else {
			b = protowire.AppendVarint(b, w)
		}
	}
	return b
}
