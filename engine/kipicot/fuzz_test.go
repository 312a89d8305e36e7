package kipicot

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// FuzzFromProto decodes arbitrary bytes as a KipicotState. Whatever FromProto accepts must be a working state: it
// survives a round trip, has a legal move unless it is over, and every legal move applies to a state that decodes.
func FuzzFromProto(f *testing.F) {
	f.Fuzz(func(t *testing.T, wire []byte) {
		var m rulebookv1.KipicotState
		if err := proto.Unmarshal(wire, &m); err != nil {
			return
		}
		s, err := FromProto(&m)
		if err != nil {
			enginetest.CheckError(t, err)
			return
		}
		back, err := FromProto(s.Proto())
		if err != nil || *back != *s {
			t.Fatalf("round trip of %v: %v", s, err)
		}
		legal := s.Legal(s.ToMove())
		if len(legal) == 0 != s.Over() {
			t.Fatalf("%d legal moves, over %v\n%v", len(legal), s.Over(), s)
		}
		for _, mv := range legal {
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

// FuzzApply plays a seeded random game on fuzzed options for a fuzzed number of plies, then applies a move with
// fuzzed fields (a whole turn of two steps when turn is set). Apply must never panic, must agree with Validate, and
// must return either a state that decodes or a well-formed *engine.Error.
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
		next, _, err := s.Apply(m)
		if verr := s.Validate(m); (verr == nil) != (err == nil) {
			t.Fatalf("Validate(%v) = %v but Apply returned %v", m, verr, err)
		}
		if err != nil {
			enginetest.CheckError(t, err)
			return
		}
		if _, err := FromProto(next.Proto()); err != nil {
			t.Fatalf("after %v the state does not decode: %v\n%v", m, err, next)
		}
	})
}
