package micropul

import (
	"math"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// checkWireViews checks the wire form of s, a full state, and of every view of it: each seat's and the spectator's.
func checkWireViews(t *testing.T, s *State) {
	t.Helper()
	enginetest.CheckStateWire(t, definition{}, s)
	for viewer := engine.NoPlayer; int(viewer) <= s.opts.Players; viewer++ {
		enginetest.CheckStateWire(t, definition{}, s.View(viewer))
	}
}

// TestStateWire plays seeded random games to the end (two players under each rule set, and solo) and checks the
// wire form of the state, and of every view of it, at every ply.
func TestStateWire(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, opts := range []Options{DefaultOptions(), {Players: 2, Rules: Original2004}, {Players: 1}} {
		for _, seed := range seeds {
			s := newGame(t, opts, seed)
			rng := rand.New(rand.NewPCG(seed, 0))
			for ply := 0; ; ply++ {
				checkWireViews(t, s)
				legal := s.Legal(s.ToMove())
				if s.Over() || len(legal) == 0 {
					break
				}
				if ply > maxPlies {
					t.Fatalf("%+v, seed %d: no end after %d plies", opts, seed, maxPlies)
				}
				s, _ = apply(t, s, legal[rng.IntN(len(legal))])
			}
		}
	}
}

// TestStateWireBeyondPlay checks the wire form of states no game reaches, built field by field without NewState's
// checks: values a varint writes in more than one byte, negative and truncated ints, lists and messages longer than
// 127 bytes, and empty messages and lists, so that every branch AppendStateWire takes agrees with protobuf.
func TestStateWireBeyondPlay(t *testing.T) {
	long := make([]int, 200)
	for i := range long {
		long[i] = i * 7
	}
	for _, c := range []struct {
		name string
		s    *State
	}{
		{"empty", &State{}},
		{"empty messages", &State{board: make([]Placed, 2), stones: make([]Stone, 1), seats: make([]Seat, 2)}},
		{"negative ints", &State{opts: Options{Players: -1, Rules: -2}, toMove: -3, end: -4, loser: -5, viewer: -6,
			board:  []Placed{{Tile: 1, At: Coord{-1, -47}, Rotation: 3}, {At: Coord{-128, -129}}},
			stones: []Stone{{Player: -1, At: Coord{-2, 5}, Quadrant: BL}}}},
		{"ints beyond 32 bits", &State{opts: Options{Players: math.MaxInt32 + 2}, toMove: math.MinInt32 - 1,
			coreCount: math.MaxUint32 + 3, pending: -1, board: []Placed{{Tile: -1, At: Coord{math.MaxInt64, 1 << 40}}},
			seats: []Seat{{HandCount: 1 << 33, SupplyCount: -7}}}},
		{"varints of several bytes", &State{opts: Options{Players: 300, Rules: 1 << 20}, coreCount: 128,
			toMove: 200, pending: 470, end: 1000, loser: 1 << 30, viewer: 129,
			board:  []Placed{{Tile: 128, At: Coord{1 << 14, 300}, Rotation: 1 << 21}},
			stones: []Stone{{Player: 1 << 16, At: Coord{127, 128}, Quadrant: math.MaxUint8}},
			seats:  []Seat{{Hand: []int{127, 128, 1 << 14, -1}, HandCount: 4}}}},
		{"lists longer than 127 bytes", &State{core: long, coreCount: len(long), seats: []Seat{{Supply: long,
			SupplyCount: len(long)}, {Hand: long[:20], HandCount: 20}}}},
		{"booleans", &State{extraTurn: true, view: true}},
	} {
		t.Run(c.name, func(t *testing.T) { enginetest.CheckStateWire(t, definition{}, c.s) })
	}
}

// FuzzStateWire checks AppendStateWire against protobuf's encoding on every state that arbitrary bytes unpack to,
// and on every view of it.
func FuzzStateWire(f *testing.F) {
	f.Add(definition{}.PackState(nil, newGame(f, DefaultOptions(), 1)))
	f.Add(definition{}.PackState(nil, newGame(f, Options{Players: 1}, 2)))
	f.Add(definition{}.PackState(nil, playedTo(f, DefaultOptions(), 30)))
	f.Add(definition{}.PackState(nil, playedTo(f, Options{Players: 2, Rules: Original2004}, 200)))
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := (definition{}).UnpackState(b); err == nil {
			checkWireViews(t, s)
		}
	})
}

// TestWireFieldNumbers checks the field numbers AppendStateWire writes against the messages' descriptors, and that
// it writes every field of each message: a field added to one fails the test until AppendStateWire writes it.
func TestWireFieldNumbers(t *testing.T) {
	state, options := &rulebookv1.MicropulState{}, &rulebookv1.MicropulOptions{}
	placed, stone, player := &rulebookv1.MicropulPlacedTile{}, &rulebookv1.MicropulStone{}, &rulebookv1.MicropulPlayer{}
	for _, c := range []struct {
		msg   proto.Message
		field protoreflect.Name
		want  protowire.Number
	}{
		{&rulebookv1.GameState{}, "micropul", fieldGameStateMicropul},
		{state, "rules_version", fieldStateRulesVersion},
		{state, "options", fieldStateOptions},
		{state, "board", fieldStateBoard},
		{state, "stones", fieldStateStones},
		{state, "players", fieldStatePlayers},
		{state, "core", fieldStateCore},
		{state, "core_count", fieldStateCoreCount},
		{state, "to_move", fieldStateToMove},
		{state, "extra_turn", fieldStateExtraTurn},
		{state, "extra_turns_pending", fieldStateExtraTurnsPending},
		{state, "end", fieldStateEnd},
		{state, "loser", fieldStateLoser},
		{state, "is_view", fieldStateIsView},
		{state, "viewer", fieldStateViewer},
		{options, "players", fieldOptionsPlayers},
		{options, "rule_set", fieldOptionsRuleSet},
		{placed, "tile", fieldPlacedTile},
		{placed, "x", fieldPlacedX},
		{placed, "y", fieldPlacedY},
		{placed, "rotation", fieldPlacedRotation},
		{stone, "player", fieldStonePlayer},
		{stone, "x", fieldStoneX},
		{stone, "y", fieldStoneY},
		{stone, "quadrant", fieldStoneQuadrant},
		{player, "hand", fieldPlayerHand},
		{player, "hand_count", fieldPlayerHandCount},
		{player, "supply", fieldPlayerSupply},
		{player, "supply_count", fieldPlayerSupplyCount},
	} {
		md := c.msg.ProtoReflect().Descriptor()
		if fd := md.Fields().ByName(c.field); fd == nil || fd.Number() != c.want {
			t.Errorf("%s.%s: field %v, AppendStateWire writes %d", md.FullName(), c.field, fd, c.want)
		}
	}
	for msg, written := range map[proto.Message]int{state: 14, options: 2, placed: 4, stone: 4, player: 4} {
		if md := msg.ProtoReflect().Descriptor(); md.Fields().Len() != written {
			t.Errorf("%s has %d fields; AppendStateWire writes %d", md.FullName(), md.Fields().Len(), written)
		}
	}
	for _, c := range []struct {
		msg   proto.Message
		field protoreflect.Name
	}{{state, "core"}, {player, "hand"}, {player, "supply"}} {
		if fd := c.msg.ProtoReflect().Descriptor().Fields().ByName(c.field); !fd.IsPacked() {
			t.Errorf("%s is not packed; AppendStateWire packs it", fd.FullName())
		}
	}
}

// BenchmarkStateWire writes the wire form of a state 30 plies into a game (state=full) and of player 1's view of it
// (state=view, what the gRPC server answers a seat's ApplyMove with): encoder=wire with AppendStateWire, and
// encoder=message (the baseline, in the same run) with EncodeState and protobuf's deterministic encoding, as the
// server encoded them before.
func BenchmarkStateWire(b *testing.B) {
	full, _ := midGame(b)
	for _, s := range []struct {
		name  string
		state *State
	}{{"full", full}, {"view", full.View(1)}} {
		b.Run("state="+s.name+"/encoder=message", func(b *testing.B) {
			for b.Loop() {
				if _, err := (proto.MarshalOptions{Deterministic: true}).Marshal(definition{}.EncodeState(s.state)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("state="+s.name+"/encoder=wire", func(b *testing.B) {
			for b.Loop() {
				definition{}.AppendStateWire(nil, s.state)
			}
		})
	}
}
