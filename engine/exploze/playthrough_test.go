package exploze

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
)

// TestPlaythrough plays a seeded random 6x6 game to the end and compares each move, its events, the board and the
// legal moves with testdata/playthrough_6x6.golden. After a deliberate change of the engine, regenerate the file
// with go test ./engine/exploze -run Playthrough -update and review the difference like code.
func TestPlaythrough(t *testing.T) {
	const seed1, seed2 = 2024, 6
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Exploze playthrough: default options, each move drawn uniformly from Legal with math/rand/v2 "+
		"PCG(%d, %d).\n", seed1, seed2)
	fmt.Fprintf(&b, "# Regenerate with: go test ./engine/exploze -run Playthrough -update\n\n")
	rng := rand.New(rand.NewPCG(seed1, seed2))
	s := newGame(t, DefaultOptions())
	writeState(&b, s)
	for !s.Over() {
		legal := s.Legal(s.ToMove())
		m := legal[rng.IntN(len(legal))]
		next, events, err := s.Apply(m)
		if err != nil {
			t.Fatalf("move %d, %v: %v", s.MovesPlayed()+1, m, err)
		}
		fmt.Fprintf(&b, "\nmove %d: %v\n", next.MovesPlayed(), m)
		for _, e := range events {
			fmt.Fprintf(&b, "  %v\n", e)
		}
		s = next
		writeState(&b, s)
	}
	fmt.Fprintf(&b, "\nscore: %+v\n", s.Score())

	path := filepath.Join("testdata", "playthrough_6x6.golden")
	enginetest.Golden(t, path, b.Bytes())
}

// writeState writes s and the legal moves of the player to move, as in the golden playthrough.
func writeState(b *bytes.Buffer, s *State) {
	b.WriteString(s.String())
	b.WriteString("legal:")
	for _, m := range s.Legal(s.ToMove()) {
		b.WriteString(" " + Coord{Row: m.Row, Col: m.Col}.String())
	}
	b.WriteString("\n")
}
