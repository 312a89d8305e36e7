package micropul

import (
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/rulebook/rulebook/engine"
)

// The field numbers of the messages AppendStateWire writes: GameState's micropul, and the fields of MicropulState,
// MicropulOptions, MicropulPlacedTile, MicropulStone and MicropulPlayer (rulebook/v1/game.proto and micropul.proto).
// Each is below 16, so each tag is one byte. TestWireFieldNumbers checks them against the descriptors.
const (
	fieldGameStateMicropul protowire.Number = 2

	fieldStateRulesVersion      protowire.Number = 1
	fieldStateOptions           protowire.Number = 2
	fieldStateBoard             protowire.Number = 3
	fieldStateStones            protowire.Number = 4
	fieldStatePlayers           protowire.Number = 5
	fieldStateCore              protowire.Number = 6
	fieldStateCoreCount         protowire.Number = 7
	fieldStateToMove            protowire.Number = 8
	fieldStateExtraTurn         protowire.Number = 9
	fieldStateExtraTurnsPending protowire.Number = 10
	fieldStateEnd               protowire.Number = 11
	fieldStateLoser             protowire.Number = 12
	fieldStateIsView            protowire.Number = 13
	fieldStateViewer            protowire.Number = 14

	fieldOptionsPlayers protowire.Number = 1
	fieldOptionsRuleSet protowire.Number = 2

	fieldPlacedTile     protowire.Number = 1
	fieldPlacedX        protowire.Number = 2
	fieldPlacedY        protowire.Number = 3
	fieldPlacedRotation protowire.Number = 4

	fieldStonePlayer   protowire.Number = 1
	fieldStoneX        protowire.Number = 2
	fieldStoneY        protowire.Number = 3
	fieldStoneQuadrant protowire.Number = 4

	fieldPlayerHand        protowire.Number = 1
	fieldPlayerHandCount   protowire.Number = 2
	fieldPlayerSupply      protowire.Number = 3
	fieldPlayerSupplyCount protowire.Number = 4
)

// AppendStateWire appends the wire form of s's GameState envelope (EncodeState's message, for a full state or a
// view) to b, byte for byte what protobuf's deterministic encoding of it gives, without building its messages: a
// size pass, then an append pass; fields in number order, a proto3 zero or empty list left out, int32 and enum
// values sign-extended as protobuf encodes them, the lists of tile ids packed.
func (definition) AppendStateWire(b []byte, s *State) []byte {
	options := optionsSize(s.opts)
	state := varintSize(RulesVersion) + messageFieldSize(options)
	for _, p := range s.board {
		state += messageFieldSize(placedSize(p))
	}
	for _, st := range s.stones {
		state += messageFieldSize(stoneSize(st))
	}
	for _, seat := range s.seats {
		state += messageFieldSize(seatSize(seat))
	}
	state += packedSize(s.core) + varintSize(uint32Wire(s.coreCount)) + varintSize(int32Wire(int(s.toMove))) +
		varintSize(boolWire(s.extraTurn)) + varintSize(uint32Wire(s.pending)) + varintSize(int32Wire(int(s.end))) +
		varintSize(int32Wire(int(s.loser))) + varintSize(boolWire(s.view)) + varintSize(int32Wire(int(s.viewer)))

	b = slices.Grow(b, messageFieldSize(state))
	b = appendLen(b, fieldGameStateMicropul, state)
	b = appendVarintField(b, fieldStateRulesVersion, RulesVersion)
	b = appendLen(b, fieldStateOptions, options)
	b = appendVarintField(b, fieldOptionsPlayers, int32Wire(s.opts.Players))
	b = appendVarintField(b, fieldOptionsRuleSet, int32Wire(int(s.opts.Rules)))
	for _, p := range s.board {
		b = appendLen(b, fieldStateBoard, placedSize(p))
		b = appendVarintField(b, fieldPlacedTile, uint32Wire(p.Tile))
		b = appendVarintField(b, fieldPlacedX, int32Wire(p.At.X))
		b = appendVarintField(b, fieldPlacedY, int32Wire(p.At.Y))
		b = appendVarintField(b, fieldPlacedRotation, uint32Wire(p.Rotation))
	}
	for _, st := range s.stones {
		b = appendLen(b, fieldStateStones, stoneSize(st))
		b = appendVarintField(b, fieldStonePlayer, int32Wire(int(st.Player)))
		b = appendVarintField(b, fieldStoneX, int32Wire(st.At.X))
		b = appendVarintField(b, fieldStoneY, int32Wire(st.At.Y))
		b = appendVarintField(b, fieldStoneQuadrant, quadrantWire(st.Quadrant))
	}
	for _, seat := range s.seats {
		b = appendLen(b, fieldStatePlayers, seatSize(seat))
		b = appendPacked(b, fieldPlayerHand, seat.Hand)
		b = appendVarintField(b, fieldPlayerHandCount, uint32Wire(seat.HandCount))
		b = appendPacked(b, fieldPlayerSupply, seat.Supply)
		b = appendVarintField(b, fieldPlayerSupplyCount, uint32Wire(seat.SupplyCount))
	}
	b = appendPacked(b, fieldStateCore, s.core)
	b = appendVarintField(b, fieldStateCoreCount, uint32Wire(s.coreCount))
	b = appendVarintField(b, fieldStateToMove, int32Wire(int(s.toMove)))
	b = appendVarintField(b, fieldStateExtraTurn, boolWire(s.extraTurn))
	b = appendVarintField(b, fieldStateExtraTurnsPending, uint32Wire(s.pending))
	b = appendVarintField(b, fieldStateEnd, int32Wire(int(s.end)))
	b = appendVarintField(b, fieldStateLoser, int32Wire(int(s.loser)))
	b = appendVarintField(b, fieldStateIsView, boolWire(s.view))
	return appendVarintField(b, fieldStateViewer, int32Wire(int(s.viewer)))
}

var _ engine.WireEncoder[*State] = definition{}

// optionsSize is the size of o's MicropulOptions message on the wire.
func optionsSize(o Options) int {
	return varintSize(int32Wire(o.Players)) + varintSize(int32Wire(int(o.Rules)))
}

// placedSize is the size of p's MicropulPlacedTile message on the wire.
func placedSize(p Placed) int {
	return varintSize(uint32Wire(p.Tile)) + varintSize(int32Wire(p.At.X)) + varintSize(int32Wire(p.At.Y)) +
		varintSize(uint32Wire(p.Rotation))
}

// stoneSize is the size of st's MicropulStone message on the wire.
func stoneSize(st Stone) int {
	return varintSize(int32Wire(int(st.Player))) + varintSize(int32Wire(st.At.X)) + varintSize(int32Wire(st.At.Y)) +
		varintSize(quadrantWire(st.Quadrant))
}

// seatSize is the size of seat's MicropulPlayer message on the wire.
func seatSize(seat Seat) int {
	return packedSize(seat.Hand) + varintSize(uint32Wire(seat.HandCount)) + packedSize(seat.Supply) +
		varintSize(uint32Wire(seat.SupplyCount))
}

// quadrantWire is q as its enum (quadrantProto) on the wire.
func quadrantWire(q Quadrant) uint64 { return uint64(int64(quadrantProto(q))) }

// int32Wire is n as protobuf puts an int32 field on the wire: converted to int32 (as Proto converts it), then
// sign-extended to 64 bits.
func int32Wire(n int) uint64 { return uint64(int64(int32(n))) }

// boolWire is v as protobuf puts a bool field on the wire: 1 or 0.
func boolWire(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// uint32Wire is n as protobuf puts a uint32 field on the wire: converted to uint32, as Proto converts it.
func uint32Wire(n int) uint64 { return uint64(uint32(n)) }

// tag is the one-byte tag of field num (below 16) of wire type typ.
func tag(num protowire.Number, typ protowire.Type) byte { return byte(num<<3) | byte(typ) }

// varintSize is the size of a varint field numbered below 16 that holds v: none for 0, which proto3 leaves out.
func varintSize(v uint64) int {
	if v == 0 {
		return 0
	}
	return 1 + protowire.SizeVarint(v)
}

// messageFieldSize is the size of a message field numbered below 16 whose message is n bytes long: its tag, its
// length and the message. protobuf writes a set message field even when its message is empty.
func messageFieldSize(n int) int { return 1 + protowire.SizeVarint(uint64(n)) + n }

// packedSize is the size of ids as a packed repeated uint32 field numbered below 16: none for an empty list.
func packedSize(ids []int) int {
	if len(ids) == 0 {
		return 0
	}
	return messageFieldSize(idsSize(ids))
}

// idsSize is the size of the varints of ids.
func idsSize(ids []int) int {
	n := 0
	for _, id := range ids {
		n += protowire.SizeVarint(uint32Wire(id))
	}
	return n
}

// appendVarintField appends the varint field num (below 16) holding v to b, unless v is 0 (proto3 leaves it out).
// The values of a state in play take one append: below 0x80, a byte; a small negative int32 (a coordinate left of or
// above the start tile), sign-extended, the ten bytes of a varint whose bits above the seventh are all ones.
func appendVarintField(b []byte, num protowire.Number, v uint64) []byte {
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

// appendLen appends the tag of the length-delimited field num (below 16) and n, the length of what follows, to b.
func appendLen(b []byte, num protowire.Number, n int) []byte {
	if n < 0x80 {
		return append(b, tag(num, protowire.BytesType), byte(n))
	}
	return protowire.AppendVarint(append(b, tag(num, protowire.BytesType)), uint64(n))
}

// appendPacked appends ids as the packed repeated uint32 field num (below 16) to b: its tag, its length and the
// varints; nothing for an empty list.
func appendPacked(b []byte, num protowire.Number, ids []int) []byte {
	if len(ids) == 0 {
		return b
	}
	b = appendLen(b, num, idsSize(ids))
	for _, id := range ids {
		if v := uint32Wire(id); v < 0x80 {
			b = append(b, byte(v))
		} else {
			b = protowire.AppendVarint(b, v)
		}
	}
	return b
}
