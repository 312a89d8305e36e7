package micropul

import (
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/wirefield"
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
// size pass, then an append pass (see package wirefield); fields in number order, a proto3 zero or empty list left
// out, int32 and enum values sign-extended as protobuf encodes them, the lists of tile ids packed.
func (definition) AppendStateWire(b []byte, s *State) []byte {
	options := optionsSize(s.opts)
	state := wirefield.VarintSize(RulesVersion) + wirefield.MessageSize(options)
	for _, p := range s.board {
		state += wirefield.MessageSize(placedSize(p))
	}
	for _, st := range s.stones {
		state += wirefield.MessageSize(stoneSize(st))
	}
	for _, seat := range s.seats {
		state += wirefield.MessageSize(seatSize(seat))
	}
	state += wirefield.PackedSize(s.core)
	for _, f := range s.scalars() {
		state += wirefield.VarintSize(f.v)
	}

	b = slices.Grow(b, wirefield.MessageSize(state))
	b = wirefield.AppendMessage(b, fieldGameStateMicropul, state)
	b = wirefield.AppendVarint(b, fieldStateRulesVersion, RulesVersion)
	b = wirefield.AppendMessage(b, fieldStateOptions, options)
	b = wirefield.AppendVarint(b, fieldOptionsPlayers, wirefield.Int32(s.opts.Players))
	b = wirefield.AppendVarint(b, fieldOptionsRuleSet, wirefield.Int32(int(s.opts.Rules)))
	for _, p := range s.board {
		b = wirefield.AppendMessage(b, fieldStateBoard, placedSize(p))
		b = wirefield.AppendVarint(b, fieldPlacedTile, wirefield.Uint32(p.Tile))
		b = wirefield.AppendVarint(b, fieldPlacedX, wirefield.Int32(p.At.X))
		b = wirefield.AppendVarint(b, fieldPlacedY, wirefield.Int32(p.At.Y))
		b = wirefield.AppendVarint(b, fieldPlacedRotation, wirefield.Uint32(p.Rotation))
	}
	for _, st := range s.stones {
		b = wirefield.AppendMessage(b, fieldStateStones, stoneSize(st))
		b = wirefield.AppendVarint(b, fieldStonePlayer, wirefield.Int32(int(st.Player)))
		b = wirefield.AppendVarint(b, fieldStoneX, wirefield.Int32(st.At.X))
		b = wirefield.AppendVarint(b, fieldStoneY, wirefield.Int32(st.At.Y))
		b = wirefield.AppendVarint(b, fieldStoneQuadrant, quadrantWire(st.Quadrant))
	}
	for _, seat := range s.seats {
		b = wirefield.AppendMessage(b, fieldStatePlayers, seatSize(seat))
		b = wirefield.AppendPacked(b, fieldPlayerHand, seat.Hand)
		b = wirefield.AppendVarint(b, fieldPlayerHandCount, wirefield.Uint32(seat.HandCount))
		b = wirefield.AppendPacked(b, fieldPlayerSupply, seat.Supply)
		b = wirefield.AppendVarint(b, fieldPlayerSupplyCount, wirefield.Uint32(seat.SupplyCount))
	}
	b = wirefield.AppendPacked(b, fieldStateCore, s.core)
	for _, f := range s.scalars() {
		b = wirefield.AppendVarint(b, f.num, f.v)
	}
	return b
}

var _ engine.WireEncoder[*State] = definition{}

// varintField is a varint field of a message: its number and its value.
type varintField struct {
	num protowire.Number
	v   uint64
}

// scalars returns MicropulState's fields after core, in number order: core_count to viewer.
func (s *State) scalars() [8]varintField {
	return [...]varintField{
		{fieldStateCoreCount, wirefield.Uint32(s.coreCount)},
		{fieldStateToMove, wirefield.Int32(int(s.toMove))},
		{fieldStateExtraTurn, wirefield.Bool(s.extraTurn)},
		{fieldStateExtraTurnsPending, wirefield.Uint32(s.pending)},
		{fieldStateEnd, wirefield.Int32(int(s.end))},
		{fieldStateLoser, wirefield.Int32(int(s.loser))},
		{fieldStateIsView, wirefield.Bool(s.view)},
		{fieldStateViewer, wirefield.Int32(int(s.viewer))},
	}
}

// optionsSize is the size of o's MicropulOptions message on the wire.
func optionsSize(o Options) int {
	return wirefield.VarintSize(wirefield.Int32(o.Players)) + wirefield.VarintSize(wirefield.Int32(int(o.Rules)))
}

// placedSize is the size of p's MicropulPlacedTile message on the wire.
func placedSize(p Placed) int {
	return wirefield.VarintSize(wirefield.Uint32(p.Tile)) + wirefield.VarintSize(wirefield.Int32(p.At.X)) +
		wirefield.VarintSize(wirefield.Int32(p.At.Y)) + wirefield.VarintSize(wirefield.Uint32(p.Rotation))
}

// stoneSize is the size of st's MicropulStone message on the wire.
func stoneSize(st Stone) int {
	return wirefield.VarintSize(wirefield.Int32(int(st.Player))) + wirefield.VarintSize(wirefield.Int32(st.At.X)) +
		wirefield.VarintSize(wirefield.Int32(st.At.Y)) + wirefield.VarintSize(quadrantWire(st.Quadrant))
}

// seatSize is the size of seat's MicropulPlayer message on the wire.
func seatSize(seat Seat) int {
	return wirefield.PackedSize(seat.Hand) + wirefield.VarintSize(wirefield.Uint32(seat.HandCount)) +
		wirefield.PackedSize(seat.Supply) + wirefield.VarintSize(wirefield.Uint32(seat.SupplyCount))
}

// quadrantWire is q as its enum (quadrantProto) on the wire.
func quadrantWire(q Quadrant) uint64 { return wirefield.Int32(int(quadrantProto(q))) }
