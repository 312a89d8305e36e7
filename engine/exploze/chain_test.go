package exploze

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
)

// chainCounts returns the explosions and the waves among events.
func chainCounts(events []Event) (explosions, waves int) {
	for _, e := range events {
		if w, ok := e.(Wave); ok {
			explosions += len(w.Exploded)
			waves++
		}
	}
	return explosions, waves
}

// fullBoard returns a rows x cols board where player A holds every cell one stone short of its critical number,
// except for the cells of holes, left empty, and for a single stone of player B at enemy; A is to move. No game
// reaches it (B, who would have moved last, holds one stone): it is built as arranged does.
func fullBoard(t *testing.T, rows, cols int, enemy Coord, holes ...Coord) *State {
	t.Helper()
	s := newGame(t, Options{Rows: rows, Cols: cols}).clone()
	for i := range s.cells {
		s.cells[i] = Cell{Owner: 1, Stones: s.critical(i) - 1}
	}
	for _, h := range holes {
		s.cells[h.Row*cols+h.Col] = Cell{}
	}
	s.cells[enemy.Row*cols+enemy.Col] = Cell{Owner: 2, Stones: 1}
	return arrangedCells(s.opts, 1, s.cells)
}

// readPosition reads a two-player position from a file of testdata: lines starting with "#" are comments, the rest
// is the board in the notation of ParseBoard; player A is to move. Built as arranged does: these boards were
// searched for long chains, not reached by play.
func readPosition(t testing.TB, name string) *State {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var board strings.Builder
	for line := range strings.Lines(string(text)) {
		if !strings.HasPrefix(line, "#") {
			board.WriteString(line)
		}
	}
	return arranged(t, 2, 1, board.String())
}

// longestChain returns the position of testdata with the most explosions known for one move, and that move.
func longestChain(t testing.TB) (*State, Move) {
	return readPosition(t, "chain_32x32_explosions.txt"), Move{Player: 1, Row: MaxSize / 2, Col: MaxSize / 2}
}

// TestChainFarBelowCap plays the longest chains we know on the largest board and checks that they stay far below
// the cap on explosions (see explosionCap), reporting their explosions and waves. The counts are pinned: a change
// means the chain rules changed.
//
// The boards of testdata/chain_32x32_*.txt were found by a hill-climbing search: from a random board held by A with
// one stone of B in the corner (31,31), behind two empty cells, change one random cell at a time and keep the change
// when the chain of A's move at (16,16) gets longer (in explosions, or in waves). Such chains are long because the
// board is just dense enough to keep reacting, while the stones that would reach B's corner keep being spread
// elsewhere.
func TestChainFarBelowCap(t *testing.T) {
	const n = MaxSize
	corner, moat := Coord{n - 1, n - 1}, []Coord{{n - 2, n - 1}, {n - 1, n - 2}}
	for _, c := range []struct {
		name              string
		state             func(t *testing.T) *State
		move              Coord
		explosions, waves int
	}{
		{
			// The fullest board: every cell at its critical number minus one, one enemy stone in the far corner.
			name:  "full board, enemy in the far corner",
			state: func(t *testing.T) *State { return fullBoard(t, n, n, corner) },
			move:  Coord{0, 0}, explosions: 16128, waves: 62,
		},
		{
			// The same with an empty moat around the enemy, which must fill before a neighbour of the enemy fires.
			name:  "full board, enemy behind a moat",
			state: func(t *testing.T) *State { return fullBoard(t, n, n, corner, moat...) },
			move:  Coord{0, 0}, explosions: 17148, waves: 64,
		},
		{
			name:  "searched for explosions",
			state: func(t *testing.T) *State { return readPosition(t, "chain_32x32_explosions.txt") },
			move:  Coord{n / 2, n / 2}, explosions: 100_076, waves: 1532,
		},
		{
			name:  "searched for waves",
			state: func(t *testing.T) *State { return readPosition(t, "chain_32x32_waves.txt") },
			move:  Coord{n / 2, n / 2}, explosions: 17_520, waves: 13_823,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.state(t)
			_, events := play(t, s, c.move)
			explosions, waves := chainCounts(events)
			limit := explosionCap(s.opts, s.moves+1)
			t.Logf("%d stones: %d explosions in %d waves; the cap, %d, is %.0f times more", s.moves+1, explosions,
				waves, limit, float64(limit)/float64(explosions))
			if explosions != c.explosions || waves != c.waves {
				t.Errorf("%d explosions in %d waves, want %d in %d", explosions, waves, c.explosions, c.waves)
			}
			if explosions*100 > limit {
				t.Errorf("%d explosions, within a factor 100 of the cap %d", explosions, limit)
			}
		})
	}
}

// TestExplosionCap checks the cap's values and that a chain that passes it is an Internal error.
func TestExplosionCap(t *testing.T) {
	for _, c := range []struct {
		opts   Options
		stones int
		want   int
	}{
		{Options{Rows: 32, Cols: 32}, Options{Rows: 32, Cols: 32}.maxMoves(), 93_487_104},
		{Options{Rows: 6, Cols: 6}, 85, 85*36*10/2 + 36},
		{Options{Rows: 2, Cols: 2}, 5, 5*4*2/2 + 4},
	} {
		if got := explosionCap(c.opts, c.stones); got != c.want {
			t.Errorf("explosionCap(%+v, %d) = %d, want %d", c.opts, c.stones, got, c.want)
		}
	}

	// The second worked example's last move explodes once; the third's three times in all.
	s := arranged(t, 2, 1, "A1 A2 .0 | A2 A3 .0 | .0 .0 B1")
	s.cells[0].Stones++
	s.moves++
	_, err := s.clone().react(0, 1, 4, nil, true)
	enginetest.WantError(t, err, engine.Internal, ReasonExplosionCapExceeded, "")
	if e, _ := engine.AsError(err); e.Facts["wave"] != "3" || e.Facts["explosions"] != "5" || e.Facts["cap"] != "4" {
		t.Errorf("facts %v, want wave 3, explosions 5, cap 4", e.Facts)
	}
	if _, err := s.clone().react(0, 1, 5, nil, true); err != nil {
		t.Errorf("a chain of exactly the cap was refused: %v", err)
	}
}
