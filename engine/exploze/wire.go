package exploze

import (
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// The field numbers of the messages AppendStateWire writes: GameState's exploze, ExplozeState's fields, and
// ExplozeOptions' and ExplozeCell's (rulebook/v1/game.proto and exploze.proto). Each is below 16, so each tag is one
// byte. TestWireFieldNumbers checks them against the descriptors.
const (
	fieldGameStateExploze protowire.Number = 1

	fieldStateRulesVersion protowire.Number = 1
	fieldStateOptions      protowire.Number = 2
	fieldStateMovesPlayed  protowire.Number = 3
	fieldStateToMove       protowire.Number = 4
	fieldStateCells        protowire.Number = 5

	fieldOptionsRows    protowire.Number = 1
	fieldOptionsCols    protowire.Number = 2
	fieldOptionsPlayers protowire.Number = 3

	fieldCellOwner  protowire.Number = 1
	fieldCellStones protowire.Number = 2
)

// AppendStateWire appends the wire form of s's GameState envelope (EncodeState's message) to b, byte for byte what
// protobuf's deterministic encoding of it gives, without building a message per cell: fields in number order, a
// proto3 zero left out, int32 values sign-extended as protobuf encodes them.
func (definition) AppendStateWire(b []byte, s *State) []byte {
	options := varintSize(int32Wire(s.opts.Rows)) + varintSize(int32Wire(s.opts.Cols)) +
		varintSize(int32Wire(s.opts.Players))
	state := varintSize(RulesVersion) + 1 + protowire.SizeVarint(uint64(options)) + options +
		varintSize(uint64(uint32(s.moves))) + varintSize(int32Wire(int(s.toMove)))
	for _, c := range s.cells {
		state += cellFieldSize(c)
	}
	b = slices.Grow(b, 1+protowire.SizeVarint(uint64(state))+state)
	b = protowire.AppendTag(b, fieldGameStateExploze, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(state))
	b = appendVarintField(b, fieldStateRulesVersion, RulesVersion)
	b = protowire.AppendTag(b, fieldStateOptions, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(options))
	b = appendVarintField(b, fieldOptionsRows, int32Wire(s.opts.Rows))
	b = appendVarintField(b, fieldOptionsCols, int32Wire(s.opts.Cols))
	b = appendVarintField(b, fieldOptionsPlayers, int32Wire(s.opts.Players))
	b = appendVarintField(b, fieldStateMovesPlayed, uint64(uint32(s.moves)))
	b = appendVarintField(b, fieldStateToMove, int32Wire(int(s.toMove)))
	for _, c := range s.cells {
		b = appendCell(b, c)
	}
	return b
}

// The tags of a cell of the board and of its fields: each a one-byte varint.
const (
	cellTag   = byte(fieldStateCells<<3 | protowire.Number(protowire.BytesType))
	ownerTag  = byte(fieldCellOwner<<3 | protowire.Number(protowire.VarintType))
	stonesTag = byte(fieldCellStones<<3 | protowire.Number(protowire.VarintType))
)

// small reports whether c's owner and stones are each a one-byte varint on the wire, as on every board of a game in
// play: then its message is at most 4 bytes, written without protowire.
func small(c Cell) bool {
	return c.Owner >= 0 && c.Owner < 0x80 && c.Stones >= 0 && c.Stones < 0x80
}

// appendCell appends c as a cells field of ExplozeState: its tag, its length, and its message.
func appendCell(b []byte, c Cell) []byte {
	if !small(c) {
		b = protowire.AppendTag(b, fieldStateCells, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(cellSize(c)))
		b = appendVarintField(b, fieldCellOwner, int32Wire(int(c.Owner)))
		return appendVarintField(b, fieldCellStones, uint64(uint32(c.Stones)))
	}
	switch {
	case c.Owner == 0 && c.Stones == 0:
		return append(b, cellTag, 0)
	case c.Stones == 0:
		return append(b, cellTag, 2, ownerTag, byte(c.Owner))
	case c.Owner == 0:
		return append(b, cellTag, 2, stonesTag, byte(c.Stones))
	}
	return append(b, cellTag, 4, ownerTag, byte(c.Owner), stonesTag, byte(c.Stones))
}

// cellFieldSize is the size of c as a cells field on the wire: its tag, its length and its message.
func cellFieldSize(c Cell) int {
	if !small(c) {
		n := cellSize(c)
		return 1 + protowire.SizeVarint(uint64(n)) + n
	}
	n := 2
	if c.Owner != 0 {
		n += 2
	}
	if c.Stones != 0 {
		n += 2
	}
	return n
}

// cellSize is the size of c's ExplozeCell message on the wire.
func cellSize(c Cell) int {
	return varintSize(int32Wire(int(c.Owner))) + varintSize(uint64(uint32(c.Stones)))
}

// int32Wire is n as protobuf puts an int32 field on the wire: converted to int32 (as Proto converts it), then
// sign-extended to 64 bits.
func int32Wire(n int) uint64 { return uint64(int64(int32(n))) }

// varintSize is the size of a varint field numbered below 16 that holds v: none for 0, which proto3 leaves out.
func varintSize(v uint64) int {
	if v == 0 {
		return 0
	}
	return 1 + protowire.SizeVarint(v)
}

// appendVarintField appends the varint field num holding v to b, unless v is 0 (proto3 leaves it out).
func appendVarintField(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
}
