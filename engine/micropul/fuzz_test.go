package micropul

import (
	"math/rand/v2"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// micropulCodec converts states to and from their messages, for the fuzz helpers.
var micropulCodec = enginetest.Codec[*State, *rulebookv1.MicropulState]{Encode: (*State).Proto, Decode: FromProto}

// FuzzFromProto decodes arbitrary bytes as a MicropulState. Whatever FromProto accepts must be a working state: it
// survives a round trip, its view decodes, and every legal move applies to a state that decodes. The seed inputs
// add the start of two games to the corpus.
func FuzzFromProto(f *testing.F) {
	var starts []*rulebookv1.MicropulState
	for _, seed := range []uint64{1, 2} {
		starts = append(starts, newGame(f, DefaultOptions(), seed).Proto())
	}
	enginetest.FuzzDecode(f, micropulCodec, starts, func(t *testing.T, s *State) {
		if _, err := FromProto(s.View(1).Proto()); err != nil {
			t.Fatalf("view does not decode: %v", err)
		}
		enginetest.CheckMovesApply(t, micropulCodec, s, s.Legal(s.ToMove()), (*State).Apply)
	})
}

// FuzzApply plays a seeded random game for a fuzzed number of plies, then applies a move with fuzzed fields. Apply
// must never panic, must agree with Validate, and must return a state that decodes and an event or a well-formed
// refusal (enginetest.CheckApply).
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
		if events, ok := enginetest.CheckApply(t, micropulCodec, s, m, (*State).Validate, (*State).Apply); ok &&
			len(events) == 0 {
			t.Fatalf("Apply(%v) reported no event", m)
		}
	})
}
