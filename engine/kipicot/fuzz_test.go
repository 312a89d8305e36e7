package kipicot

import (
	"math/rand/v2"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// kipicotCodec converts states to and from their messages, for the fuzz helpers.
var kipicotCodec = enginetest.Codec[*State, *rulebookv1.KipicotState]{Encode: (*State).Proto, Decode: FromProto}

// FuzzFromProto decodes arbitrary bytes as a KipicotState. Whatever FromProto accepts must be a working state: it
// survives a round trip, has a legal move unless it is over, and every legal move applies to a state that decodes.
func FuzzFromProto(f *testing.F) {
	enginetest.FuzzDecode(f, kipicotCodec, nil, func(t *testing.T, s *State) {
		legal := s.Legal(s.ToMove())
		if len(legal) == 0 != s.Over() {
			t.Fatalf("%d legal moves, over %v\n%v", len(legal), s.Over(), s)
		}
		enginetest.CheckMovesApply(t, kipicotCodec, s, legal, (*State).Apply)
	})
}

// FuzzApply plays a seeded random game on fuzzed options for a fuzzed number of plies, then applies a move with
// fuzzed fields (a whole turn of two steps when turn is set). Apply must never panic, must agree with Validate, and
// must return either a state that decodes or a well-formed *engine.Error (enginetest.CheckApply).
func FuzzApply(f *testing.F) {
	f.Fuzz(func(t *testing.T, seed uint64, plies uint16, variant uint8, player int, kind, color uint8,
		fr, fc, tr, tc int, turn bool) {
		opts := Options{WholeStackMoves: variant&1 != 0, PawnMayStay: variant&2 != 0,
			AntiStallRounds: int(variant>>2) % (MaxAntiStallRounds + 1), EndThreshold: int(variant>>4) % 8}
		if opts.AntiStallRounds == 0 {
			opts.AntiStallRounds = 1 // keep playouts finite
		}
		s := newGame(t, opts)
		rng := rand.New(rand.NewPCG(seed, 0))
		for range plies % 400 {
			legal := s.Legal(s.ToMove())
			if len(legal) == 0 {
				break
			}
			s, _ = play(t, s, legal[rng.IntN(len(legal))].Step)
		}
		st := Step{Kind: StepKind(kind % 7), Color: Color(color), From: Coord{fr, fc}, To: Coord{tr, tc}}
		m := Move{Player: engine.Player(player), Step: st}
		if turn {
			m = Move{Player: engine.Player(player), Turn: []Step{st, {Kind: StepPawn, To: Coord{tr, tc}}}}
		}
		enginetest.CheckApply(t, kipicotCodec, s, m, (*State).Validate, (*State).Apply)
	})
}
