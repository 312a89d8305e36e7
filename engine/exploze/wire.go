package exploze

import (
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/rulebook/rulebook/engine/wirefield"
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
// protobuf's deterministic encoding of it gives, without building a message per cell (see engine/wirefield).
func (definition) AppendStateWire(b []byte, s *State) []byte {
	rows, cols, players := wirefield.Int32(s.opts.Rows), wirefield.Int32(s.opts.Cols), wirefield.Int32(s.opts.Players)
	moves, toMove := wirefield.Uint32(s.moves), wirefield.Int32(int(s.toMove))
	options := wirefield.VarintSize(rows) + wirefield.VarintSize(cols) + wirefield.VarintSize(players)
	state := wirefield.VarintSize(RulesVersion) + wirefield.MessageSize(options) + wirefield.VarintSize(moves) +
		wirefield.VarintSize(toMove)
	for _, c := range s.cells {
		state += cellFieldSize(c)
	}
	b = slices.Grow(b, wirefield.MessageSize(state))
	b = wirefield.AppendMessage(b, fieldGameStateExploze, state)
	b = wirefield.AppendVarint(b, fieldStateRulesVersion, RulesVersion)
	b = wirefield.AppendMessage(b, fieldStateOptions, options)
	b = wirefield.AppendVarint(b, fieldOptionsRows, rows)
	b = wirefield.AppendVarint(b, fieldOptionsCols, cols)
	b = wirefield.AppendVarint(b, fieldOptionsPlayers, players)
	b = wirefield.AppendVarint(b, fieldStateMovesPlayed, moves)
	b = wirefield.AppendVarint(b, fieldStateToMove, toMove)
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
// play: then its message is at most 4 bytes, written in one append.
func small(c Cell) bool {
	return c.Owner >= 0 && c.Owner < 0x80 && c.Stones >= 0 && c.Stones < 0x80
}

// appendCell appends c as a cells field of ExplozeState: its tag, its length, and its message.
func appendCell(b []byte, c Cell) []byte {
	if !small(c) {
		owner, stones := wirefield.Int32(int(c.Owner)), wirefield.Uint32(c.Stones)
		b = wirefield.AppendMessage(b, fieldStateCells, wirefield.VarintSize(owner)+wirefield.VarintSize(stones))
		return wirefield.AppendVarint(wirefield.AppendVarint(b, fieldCellOwner, owner), fieldCellStones, stones)
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
		return wirefield.MessageSize(wirefield.VarintSize(wirefield.Int32(int(c.Owner))) +
			wirefield.VarintSize(wirefield.Uint32(c.Stones)))
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
