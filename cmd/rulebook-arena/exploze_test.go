package main

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// explozeArranged is an arranged Exploze position of a test table: board (in the notation of exploze.ParseBoard),
// players players, toMove to move.
type explozeArranged struct {
	name    string
	players int
	toMove  engine.Player
	board   string
}

// position returns the position of a, decoded from its envelope as the service decodes a caller's state.
func (a explozeArranged) position(t *testing.T) engine.Position {
	t.Helper()
	cells, rows, cols, err := exploze.ParseBoard(a.board)
	if err != nil {
		t.Fatal(err)
	}
	moves := 0
	for _, c := range cells {
		moves += c.Stones
	}
	s, err := exploze.NewState(exploze.Options{Rows: rows, Cols: cols, Players: a.players}, moves, a.toMove, cells)
	if err != nil {
		t.Fatalf("%q: %v", a.board, err)
	}
	p, err := matches["exploze"].game.Decode(&rulebookv1.GameState{Game: &rulebookv1.GameState_Exploze{Exploze: s.Proto()}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExplozeWorth checks the positional worth of each player on arranged boards.
func TestExplozeWorth(t *testing.T) {
	for _, c := range []struct {
		explozeArranged
		want []float64 // by player
	}{
		// A loaded corner each, unthreatened: a stone, the corner's 3 and the loaded cell's 2.
		{explozeArranged{"corners", 2, 1, "A1 .0 | .0 B1"}, []float64{6, 6}},
		// Two loaded cells side by side threaten each other: A's edge cell loses 5-3, B's corner 5-2.
		{explozeArranged{"threatened", 2, 2, "B1 A2 .0 | .0 .0 .0 | .0 .0 .0"}, []float64{0, -2}},
		// A's loaded corner and edge are a chain (2 each); B's edge cell next to A's loaded corner is threatened.
		{explozeArranged{"chain", 2, 2, "A1 A2 .0 | B1 .0 .0 | .0 .0 B1"}, []float64{16, 5}},
		// An inside cell short of loaded is worth its stones alone.
		{explozeArranged{"inside", 3, 1, "A1 .0 .0 | .0 B1 .0 | .0 .0 C1"}, []float64{6, 1, 6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := explozeBoardOf(c.position(t))
			for p, want := range c.want {
				if got := b.worth(engine.Player(p + 1)); got != want {
					t.Errorf("player %d: worth %v, want %v", p+1, got, want)
				}
			}
		})
	}
}

// TestPositionalGreedy checks the positional greedy's choice in arranged positions, whatever its seed: the move that
// wins when one does, the one that puts an opponent out, and a corner that makes a chain rather than one an
// opponent's loaded corner threatens.
func TestPositionalGreedy(t *testing.T) {
	for _, c := range []struct {
		explozeArranged
		want string // "win", or the cell it must play, or "" for any legal move
	}{
		{explozeArranged{"wins", 2, 1, "A1 .0 B1 | B1 A2 B1"}, "win"},
		{explozeArranged{"first move", 2, 1, ".0 .0 .0 | .0 .0 .0 | .0 .0 .0"}, ""},
		{explozeArranged{"safe chain", 2, 1, "A1 .0 .0 | .0 .0 B1"}, "(1,0)"},
		{explozeArranged{"eliminates", 3, 1, "A1 B1 C1 | .0 .0 .0 | .0 .0 .0"}, "(0,0)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pos := c.position(t)
			for seed := range uint64(5) {
				m, err := positionalGreedy{rand.New(rand.NewPCG(seed, 0))}.choose(pos, c.toMove)
				if err != nil {
					t.Fatal(err)
				}
				next, _, err := pos.Apply(m)
				if err != nil {
					t.Fatalf("seed %d: %v is not legal: %v", seed, m, err)
				}
				cell := fmt.Sprintf("(%d,%d)", m.GetExploze().GetRow(), m.GetExploze().GetCol())
				switch {
				case c.want == "win" && !next.Score().GetGameOver():
					t.Errorf("seed %d: played %s, which does not win", seed, cell)
				case c.want != "win" && c.want != "" && cell != c.want:
					t.Errorf("seed %d: played %s, want %s", seed, cell, c.want)
				}
			}
		})
	}
}
