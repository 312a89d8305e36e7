package ubongoduel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
)

// TestPlaythrough plays seeded random games to the end and compares each move, its events, the state and the legal
// moves with testdata/*.golden. Each move is drawn from the legal moves and the witness solutions (playable), then
// stamped with a receive time 0 to 1.5 tie windows after the last one (never before the move's own earliest time), so that
// ties, late solutions and closed windows all occur. After a deliberate change, regenerate with
// go test ./engine/ubongoduel -run Playthrough -update and review the diff.
func TestPlaythrough(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
		seed uint64
	}{
		{"playthrough_a", Options{Side: SideA, TieWindowMS: 100}, 5},
		{"playthrough_b_catchup", Options{Side: SideB, TieWindowMS: 60, CatchUp: true}, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			fmt.Fprintf(&b, "# Ubongo Duel playthrough: %+v, seed %d; moves drawn from the legal moves and the "+
				"witness solutions with math/rand/v2 PCG(%d, 4).\n# Regenerate with: go test ./engine/ubongoduel "+
				"-run Playthrough -update\n\n", c.opts, c.seed, c.seed)
			rng := rand.New(rand.NewPCG(c.seed, 4))
			s := newGame(t, c.opts, c.seed)
			writeState(&b, s)
			for ply := 1; !s.Over(); ply++ {
				if ply > 500 {
					t.Fatal("the playthrough does not end")
				}
				moves := playable(s)
				m := moves[rng.IntN(len(moves))]
				m.ReceivedAt = max(m.ReceivedAt, s.last+rng.Int64N(int64(c.opts.TieWindowMS)*ms*3/2+1))
				next, events := apply(t, s, m)
				fmt.Fprintf(&b, "\nply %d: %v\n", ply, brief(m))
				for _, e := range events {
					fmt.Fprintf(&b, "  %v\n", e)
				}
				s = next
				writeState(&b, s)
			}
			fmt.Fprintf(&b, "\nscore: %+v\n", s.Score())
			path := filepath.Join("testdata", c.name+".golden")
			enginetest.Golden(t, path, b.Bytes())
		})
	}
}

// brief returns the move in one line, a submission by its pieces only.
func brief(m Move) string {
	if m.Action != Submit {
		return m.String()
	}
	s := fmt.Sprintf("P%d @%d submit", m.Player, m.ReceivedAt)
	for _, p := range m.Placements {
		s += " " + p.Piece
	}
	return s
}

// writeState writes s and its legal moves.
func writeState(b *bytes.Buffer, s *State) {
	b.WriteString(s.String())
	b.WriteString("legal:")
	for p := 1; p <= Players; p++ {
		for _, m := range s.Legal(engineP(p)) {
			b.WriteString(" " + m.String() + ";")
		}
	}
	b.WriteString("\n")
}
