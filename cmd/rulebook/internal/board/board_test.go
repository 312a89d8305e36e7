package board

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/hosted"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestDraw draws a game of every hosted game after a few seeded random moves, as seat 1 sees it, and compares the
// text with a golden file, once plain and once in colour: it fails for a hosted game that Draw cannot draw.
func TestDraw(t *testing.T) {
	moves := map[string]int{"exploze": 14, "kipicot": 24, "micropul": 12, "ubongo-duel": 0} // 12 for another game
	for _, g := range hosted.Games() {
		id := g.Info().GetId()
		t.Run(id, func(t *testing.T) {
			n, ok := moves[id]
			if !ok {
				n = 12
			}
			seen, err := play(t, g, n).View(1)
			if err != nil {
				t.Fatal(err)
			}
			view := seen.Encode()
			plain := Draw(view, 1, Style{})
			if plain == Draw(&rulebookv1.GameState{}, 1, Style{}) {
				t.Fatalf("Draw draws nothing of %s: add its drawing to Draw", id)
			}
			if strings.Contains(plain, "\x1b[") {
				t.Errorf("a plain board holds an escape:\n%s", plain)
			}
			enginetest.Golden(t, filepath.Join("testdata", id+".txt"), []byte(plain))
			colored := Draw(view, 1, Style{Color: true})
			if !strings.Contains(colored, "\x1b[") {
				t.Errorf("a board in colour holds no escape:\n%s", colored)
			}
			enginetest.Golden(t, filepath.Join("testdata", id+"-color.txt"), []byte(colored))
		})
	}
}

// TestDrawNothing draws a state that holds no game.
func TestDrawNothing(t *testing.T) {
	if got := Draw(&rulebookv1.GameState{}, 0, Style{}); got != "(no game to draw)\n" {
		t.Errorf("Draw = %q", got)
	}
}

// play returns a game of g from seed 1 after n random legal moves (fewer if it ends).
func play(t *testing.T, g engine.Game, n int) engine.Position {
	t.Helper()
	state, err := g.New(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		legal, err := state.Legal(engine.NoPlayer)
		if err != nil {
			t.Fatal(err)
		}
		if len(legal) == 0 {
			break
		}
		if state, _, err = state.Apply(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	return state
}

// TestDrawExplozeUneven draws Exploze states whose lists do not fill the board or differ in length, with owners out
// of range: each row stops where either list does, and nothing panics.
func TestDrawExplozeUneven(t *testing.T) {
	options := &rulebookv1.ExplozeOptions{Rows: 2, Cols: 2, Players: 2}
	for _, c := range []struct {
		state *rulebookv1.ExplozeState
		want  string
	}{
		{&rulebookv1.ExplozeState{Options: options, Owners: []int32{1}, Stones: []uint32{1, 2, 3}}, "  1 A1  \n  2 \n"},
		{&rulebookv1.ExplozeState{Options: options, Owners: []int32{9, -1, 2, 0}, Stones: []uint32{1}}, "  1 ?1  \n  2 \n"},
	} {
		got := Draw(&rulebookv1.GameState{Game: &rulebookv1.GameState_Exploze{Exploze: c.state}}, 1, Style{})
		if !strings.Contains(got, c.want) {
			t.Errorf("Draw(%v) =\n%s\nwant it to hold %q", c.state, got, c.want)
		}
	}
}
