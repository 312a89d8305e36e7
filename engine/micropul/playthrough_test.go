package micropul

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
)

// TestPlaythrough plays seeded random games (two players and solo) to the end and compares each move, its events,
// the state, the number of legal moves and the moves other than placements with testdata/*.golden. After a
// deliberate change, regenerate with go test ./engine/micropul -run Playthrough -update and review the diff.
func TestPlaythrough(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
		seed uint64
	}{
		{"playthrough_2p", DefaultOptions(), 2024},
		{"playthrough_solo", Options{Players: 1}, 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			fmt.Fprintf(&b, "# Micropul playthrough: %+v, seed %d, each move drawn uniformly from Legal with "+
				"math/rand/v2 PCG(%d, 6).\n# Regenerate with: go test ./engine/micropul -run Playthrough -update\n\n",
				c.opts, c.seed, c.seed)
			rng := rand.New(rand.NewPCG(c.seed, 6))
			s := newGame(t, c.opts, c.seed)
			writeState(&b, s)
			for ply := 1; !s.Over(); ply++ {
				legal := s.Legal(s.ToMove())
				m := legal[rng.IntN(len(legal))]
				next, events := apply(t, s, m)
				fmt.Fprintf(&b, "\nply %d: %v\n", ply, m)
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

// writeState writes s, the number of legal moves and those that are not placements.
func writeState(b *bytes.Buffer, s *State) {
	b.WriteString(s.String())
	legal := s.Legal(s.ToMove())
	fmt.Fprintf(b, "legal: %d;", len(legal))
	for _, m := range legal {
		if m.Action != PlaceTile {
			b.WriteString(" " + m.String())
		}
	}
	b.WriteString("\n")
}
