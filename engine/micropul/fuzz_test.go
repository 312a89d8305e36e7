package micropul

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// FuzzFromProto decodes arbitrary bytes as a MicropulState. Whatever FromProto accepts must be a working state: it
// survives a round trip, its view decodes, and every legal move applies to a state that decodes.
func FuzzFromProto(f *testing.F) {
	for _, seed := range []uint64{1, 2} {
		s, _ := New(DefaultOptions(), seed)
		b, _ := proto.Marshal(s.Proto())
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, wire []byte) {
		var m rulebookv1.MicropulState
		if err := proto.Unmarshal(wire, &m); err != nil {
			return
		}
		s, err := FromProto(&m)
		if err != nil {
			enginetest.CheckError(t, err)
			return
		}
		back, err := FromProto(s.Proto())
		if err != nil || !proto.Equal(back.Proto(), s.Proto()) {
			t.Fatalf("round trip of %v: %v", s, err)
		}
		if _, err := FromProto(s.View(1).Proto()); err != nil {
			t.Fatalf("view does not decode: %v", err)
		}
		for _, mv := range s.Legal(s.ToMove()) {
			next, _, err := s.Apply(mv)
			if err != nil {
				t.Fatalf("legal move %v refused: %v\n%v", mv, err, s)
			}
			if _, err := FromProto(next.Proto()); err != nil {
				t.Fatalf("after %v the state does not decode: %v\n%v", mv, err, next)
			}
		}
	})
}

// FuzzApply plays a seeded random game for a fuzzed number of plies, then applies a move with fuzzed fields. Apply
// must never panic, must agree with Validate, and must return a state that decodes or a well-formed refusal.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint16(0), uint8(2), uint8(1), int(1), uint8(1), 12, 0, -1, 0, uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, plies uint16, players, rules uint8, player int, action uint8, tile, x, y,
		rot int, quadrant uint8) {
		opts := Options{Players: 1 + int(players)%2, Rules: RuleSet(1 + int(rules)%2)}
		s := newGame(t, opts, seed)
		rng := rand.New(rand.NewPCG(seed, 0))
		for range plies % 200 {
			legal := s.Legal(s.ToMove())
			if len(legal) == 0 {
				break
			}
			s, _ = apply(t, s, legal[rng.IntN(len(legal))])
		}
		m := Move{Player: engine.Player(player), Action: Action(action % 6), Tile: tile, At: Coord{x, y},
			Rotation: rot, Quadrant: Quadrant(quadrant)}
		next, events, err := s.Apply(m)
		if verr := s.Validate(m); (verr == nil) != (err == nil) {
			t.Fatalf("Validate(%v) = %v but Apply returned %v", m, verr, err)
		}
		if err != nil {
			enginetest.CheckError(t, err)
			return
		}
		if len(events) == 0 {
			t.Fatalf("Apply(%v) reported no event", m)
		}
		if _, err := FromProto(next.Proto()); err != nil {
			t.Fatalf("after %v the state does not decode: %v\n%v", m, err, next)
		}
	})
}
