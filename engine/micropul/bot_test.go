package micropul

import (
	"math"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// twoGroupsBoard joins the start tile's blacks with tile 47 (BBBB) south of it, a group of 6 micropuls along 5 empty
// positions, and its whites with tile 0 (W...) north of it, 3 micropuls along 3 empty positions; no catalyst on it.
const twoGroupsBoard = "47@0,1/0 0@0,-1/3"

// twoGroupsHands hold no tile with a catalyst.
var twoGroupsHands = [][]int{{1, 26, 27, 34, 46}, {4, 28, 29, 35, 41}}

// TestWorth checks worth on arranged positions: points, open groups discounted by their empty positions, stones
// left, all that is not scored yet scaled by the core, and the best gain of one action of the player to move (1).
func TestWorth(t *testing.T) {
	core := float64(35)
	late := core / (core + lateCore)
	stones := func(n int) float64 { return float64(n) * late * stoneWorth }
	open := func(micropuls, empty int) float64 {
		return late * float64(micropuls) / (1 + float64(empty)/openToHalve)
	}
	for _, tc := range []struct {
		name string
		b    build
		want []float64
	}{
		{"no stone: player 1 may claim the blacks", build{board: twoGroupsBoard, hands: twoGroupsHands},
			[]float64{5 + stones(3) + open(6, 5) - stones(1), 5 + stones(3)}},
		{"a stone on each group", build{board: twoGroupsBoard, hands: twoGroupsHands, stones: "1@0,1:TL 2@0,-1:BL"},
			[]float64{5 + stones(2) + open(6, 5), 5 + stones(2) + open(3, 3)}},
		{"two stones on the blacks: player 1 may claim the whites",
			build{board: twoGroupsBoard, hands: twoGroupsHands, stones: "1@0,1:TL 2@0,0:BL"},
			[]float64{5 + stones(2) + open(3, 3) - stones(1), 5 + stones(2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := make([]float64, 2)
			tc.b.state(t).worth(got)
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-9 {
					t.Errorf("worth %v, want %v", got, tc.want)
					break
				}
			}
		})
	}
}

// TestBotTactics checks the bot's choice, at a fixed number of iterations, in arranged positions.
func TestBotTactics(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    build
		ok   func(Move) bool
	}{
		{"claims the bigger group", build{board: twoGroupsBoard, hands: twoGroupsHands},
			func(m Move) bool { return m.Action == PlaceStone && (m.At.Y > 0 || m.At.Y == 0 && m.Quadrant >= BR) }},
		{"closes its group", build{board: fortressOpenBoard, hands: [][]int{{0, 4}, {5}}, stones: "1@0,0:TL 2@0,0:BR"},
			func(m Move) bool { return m.Action == PlaceTile && m.At == Coord{-1, -1} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.b.state(t)
			for seed := range uint64(3) {
				plan, err := Spec.Definition.Suggest(s, 1, engine.Budget{Iterations: 300, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				if !tc.ok(plan.Move) {
					t.Errorf("seed %d: %v", seed, plan.Move)
				}
				again, _ := Spec.Definition.Suggest(s, 1, engine.Budget{Iterations: 300, Seed: seed})
				if again.Move != plan.Move {
					t.Errorf("seed %d: %v, then %v", seed, plan.Move, again.Move)
				}
			}
		})
	}
}
