package kipicot

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
)

// TestPlaythrough plays a seeded random game with the default options to the end and compares each move, its
// events, the state and the legal moves with testdata/playthrough.golden. After a deliberate change of the engine,
// regenerate the file with go test ./engine/kipicot -run Playthrough -update and review the difference like code.
func TestPlaythrough(t *testing.T) {
	const seed1, seed2 = 2025, 2
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Kipicot playthrough: default options, each move drawn uniformly from Legal with math/rand/v2 "+
		"PCG(%d, %d).\n", seed1, seed2)
	fmt.Fprintf(&b, "# Regenerate with: go test ./engine/kipicot -run Playthrough -update\n\n")
	rng := rand.New(rand.NewPCG(seed1, seed2))
	s := newGame(t, DefaultOptions())
	writeState(&b, s)
	for ply := 1; !s.Over(); ply++ {
		legal := s.Legal(s.ToMove())
		m := legal[rng.IntN(len(legal))]
		next, events, err := s.Apply(m)
		if err != nil {
			t.Fatalf("ply %d, %v: %v", ply, m, err)
		}
		fmt.Fprintf(&b, "\nply %d: %v\n", ply, m)
		for _, e := range events {
			fmt.Fprintf(&b, "  %v\n", e)
		}
		s = next
		writeState(&b, s)
	}
	fmt.Fprintf(&b, "\nscore: %+v\n", s.Score())

	path := filepath.Join("testdata", "playthrough.golden")
	enginetest.Golden(t, path, b.Bytes())
}

// writeState writes s and the legal moves of the player to move, as in the golden playthrough.
func writeState(b *bytes.Buffer, s *State) {
	b.WriteString(s.String())
	b.WriteString("legal:")
	for _, m := range s.Legal(s.ToMove()) {
		b.WriteString(" " + m.Step.String())
	}
	b.WriteString("\n")
}
