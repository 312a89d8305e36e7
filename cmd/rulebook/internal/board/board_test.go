package board

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
	"github.com/rulebook/rulebook/engine/ubongoduel"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestDraw draws a game of each kind after a few seeded random moves, as seat 1 sees it, and compares the text with
// a golden file, once plain and once in colour.
func TestDraw(t *testing.T) {
	games := []struct {
		name  string
		game  engine.Game
		moves int
	}{
		{"exploze", exploze.Game{}, 14},
		{"kipicot", kipicot.Game{}, 24},
		{"micropul", micropul.Game{}, 12},
		{"ubongo-duel", ubongoduel.Game{}, 0},
	}
	for _, g := range games {
		t.Run(g.name, func(t *testing.T) {
			state := play(t, g.game, g.moves)
			view, err := g.game.View(state, 1)
			if err != nil {
				t.Fatal(err)
			}
			plain := Draw(view, 1, Style{})
			if strings.Contains(plain, "\x1b[") {
				t.Errorf("a plain board holds an escape:\n%s", plain)
			}
			checkGolden(t, g.name+".txt", plain)
			colored := Draw(view, 1, Style{Color: true})
			if !strings.Contains(colored, "\x1b[") {
				t.Errorf("a board in colour holds no escape:\n%s", colored)
			}
			checkGolden(t, g.name+"-color.txt", colored)
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
func play(t *testing.T, g engine.Game, n int) *rulebookv1.GameState {
	t.Helper()
	state, err := g.New(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		legal, err := g.Legal(state, engine.NoPlayer)
		if err != nil {
			t.Fatal(err)
		}
		if len(legal) == 0 {
			break
		}
		if state, _, err = g.Apply(state, legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	return state
}

// checkGolden compares got with testdata/name, or with -update rewrites the file.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("board differs from %s (run the test with -update to accept it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
