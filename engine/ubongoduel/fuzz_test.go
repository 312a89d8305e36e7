package ubongoduel

import (
	"math/rand/v2"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// ubongoDuelCodec converts states to and from their messages, for the fuzz helpers.
var ubongoDuelCodec = enginetest.Codec[*State, *rulebookv1.UbongoDuelState]{Encode: (*State).Proto, Decode: FromProto}

// FuzzFromProto decodes arbitrary bytes as an UbongoDuelState. Whatever FromProto accepts must be a working state:
// it survives a round trip, its views decode, and every playable move (legal moves and witness solutions) applies to
// a state that decodes. The seed inputs add, for two sets of options, the start of a game and the state after a
// solution.
func FuzzFromProto(f *testing.F) {
	var corpus []*rulebookv1.UbongoDuelState
	for _, opts := range []Options{DefaultOptions(), {Side: SideB, TieWindowMS: 10, CatchUp: true}} {
		s := newGame(f, opts, 1)
		solved, _ := apply(f, s, mustWitness(f, s, 1, 1))
		corpus = append(corpus, s.Proto(), solved.Proto())
	}
	enginetest.FuzzDecode(f, ubongoDuelCodec, corpus, func(t *testing.T, s *State) {
		for viewer := engine.Player(0); viewer <= Players; viewer++ {
			if _, err := FromProto(s.View(viewer).Proto()); err != nil {
				t.Fatalf("view of %d does not decode: %v", viewer, err)
			}
		}
		if !s.IsView() {
			enginetest.CheckMovesApply(t, ubongoDuelCodec, s, playable(s), (*State).Apply)
		}
	})
}

// FuzzApply plays a seeded random game for a fuzzed number of plies, then applies an arbitrary move: a fuzzed
// action, player and receive time, and a submission built from the witness of the mover's task with fuzzed
// mutations (pieces renamed, cells moved, placements dropped or repeated) or from raw fuzzed cells. Apply must never
// panic, must agree with Validate, and must return a state that decodes and an event or a well-formed refusal, and
// leave its input unchanged (enginetest.CheckApply).
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(0), uint8(1), uint8(1), int64(5), uint8(0), uint8(0), int8(0), int8(0), []byte{})
	f.Add(uint64(2), uint8(9), uint8(7), uint8(2), uint8(1), int64(0), uint8(3), uint8(1), int8(1), int8(0), []byte{1, 2})
	f.Fuzz(func(t *testing.T, seed uint64, plies, optBits, player, action uint8, at int64, mutation, which uint8,
		dx, dy int8, raw []byte) {
		opts := Options{Side: SideChoice(1 + optBits%2), TieWindowMS: int(optBits>>1%4) * 20, CatchUp: optBits&8 != 0}
		s := newGame(t, opts, seed)
		rng := rand.New(rand.NewPCG(seed, 0))
		for range plies % 64 {
			if s.Over() {
				break
			}
			moves := playable(s)
			s, _ = apply(t, s, moves[rng.IntN(len(moves))])
		}
		m := Move{Player: engine.Player(player % 4), Action: Action(action % 5), ReceivedAt: at}
		if task, _, ok := s.CurrentTask(engine.Player(1 + player%2)); ok {
			m.Placements = clonePlacements(task.Witness)
		}
		if n := len(m.Placements); n > 0 {
			i := int(which) % n
			switch mutation % 6 {
			case 1:
				m.Placements[i].Piece = string(rune('A' + int(dx)%26))
			case 2:
				for k := range m.Placements[i].Cells {
					m.Placements[i].Cells[k].X += int(dx)
					m.Placements[i].Cells[k].Y += int(dy)
				}
			case 3:
				m.Placements = append(m.Placements[:i], m.Placements[i+1:]...)
			case 4:
				m.Placements = append(m.Placements, m.Placements[i])
			case 5:
				m.Placements[i].Cells[int(dx)&0xff%len(m.Placements[i].Cells)] = polyomino.Cell{X: int(dy), Y: int(dx)}
			}
		}
		if len(raw) > 0 {
			var cells polyomino.Cells
			for k := 0; k+1 < len(raw); k += 2 {
				cells = append(cells, polyomino.Cell{X: int(int8(raw[k])), Y: int(int8(raw[k+1]))})
			}
			m.Placements = append(m.Placements, Placement{Piece: string(rune('A' + int(raw[0])%22)), Cells: cells})
		}
		if events, ok := enginetest.CheckApply(t, ubongoDuelCodec, s, m, (*State).Validate, (*State).Apply); ok &&
			len(events) == 0 {
			t.Fatalf("Apply(%v) reported no event", m)
		}
	})
}
