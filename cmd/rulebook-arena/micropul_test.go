package main

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// twoGroups is a Micropul position after two placements, player 1 to move with three stones and no catalyst in
// reach: the start tile's blacks joined by tile 47 (BBBB) south of it, a group of 6 micropuls along 5 empty positions,
// and its whites by tile 0 (W...) north of it, 3 micropuls along 3 empty positions. stones are on the board.
func twoGroups(t *testing.T, stones ...micropul.Stone) engine.Position {
	t.Helper()
	board := []micropul.Placed{{Tile: micropul.StartTile}, {Tile: 47, At: micropul.Coord{Y: 1}},
		{Tile: 0, At: micropul.Coord{Y: -1}, Rotation: 3}}
	hands := [][]int{{1, 26, 27, 34, 46}, {4, 28, 29, 35, 41}}
	var core []int
	for id := range micropul.NumTiles {
		if !slices.ContainsFunc(board, func(p micropul.Placed) bool { return p.Tile == id }) &&
			!slices.Contains(hands[0], id) && !slices.Contains(hands[1], id) {
			core = append(core, id)
		}
	}
	s, err := micropul.NewState(micropul.Position{Options: micropul.Options{Players: 2}, Board: board, Stones: stones,
		Hands: hands, Supplies: [][]int{nil, nil}, Core: core, ToMove: 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := micropul.Spec.Decode(&rulebookv1.GameState{Game: &rulebookv1.GameState_Micropul{Micropul: s.Proto()}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenGroups checks the open groups groupGreedy counts: their micropuls, the empty positions along them and the
// players of their stones.
func TestOpenGroups(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stones []micropul.Stone
		want   []openGroup
	}{
		{"no stone", nil, []openGroup{{micropuls: 3, open: 3}, {micropuls: 6, open: 5}}},
		{"a stone on each", []micropul.Stone{{Player: 2, At: micropul.Coord{Y: 1}, Quadrant: micropul.BR},
			{Player: 1, At: micropul.Coord{Y: -1}, Quadrant: micropul.BL}},
			[]openGroup{{micropuls: 3, open: 3, stones: []int32{1}}, {micropuls: 6, open: 5, stones: []int32{2}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := twoGroups(t, tc.stones...).Encode().GetMicropul()
			got := openGroups(s.GetBoard(), s.GetStones())
			if !slices.EqualFunc(got, tc.want, func(a, b openGroup) bool {
				return a.micropuls == b.micropuls && a.open == b.open && slices.Equal(a.stones, b.stones)
			}) {
				t.Errorf("open groups %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestGroupGreedyClaimsTheBiggerGroup checks that groupGreedy, with no catalyst in reach, puts a stone on the bigger
// group, whatever its seed.
func TestGroupGreedyClaimsTheBiggerGroup(t *testing.T) {
	p := twoGroups(t)
	for seed := range uint64(4) {
		m, err := groupGreedy{rand.New(rand.NewPCG(seed, 0))}.choose(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		st := m.GetMicropul().GetPlaceStone()
		if st == nil || st.GetY() < 0 || st.GetY() == 0 && st.GetQuadrant() <= rulebookv1.MicropulQuadrant_MICROPUL_QUADRANT_TOP_RIGHT {
			t.Errorf("seed %d: %v, want a stone on the black group", seed, m)
		}
	}
}

// TestGroupGreedyPlays plays whole games of groupGreedy against greedy, two players and solo, and checks that they
// end, the same for the same seed.
func TestGroupGreedyPlays(t *testing.T) {
	for _, name := range []string{"micropul", "micropul-solo"} {
		m := matches[name]
		var first *rulebookv1.Score
		for range 2 {
			seats := []player{opponents["group-greedy"].seated(7, 2), opponents["greedy"].seated(7, 3)}
			score, err := playGame(m, 7, seats[:m.players])
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !score.GetGameOver() {
				t.Errorf("%s: the game did not end", name)
			}
			if first != nil && !slices.Equal(pointsOf(first), pointsOf(score)) {
				t.Errorf("%s: %v, then %v from the same seed", name, pointsOf(first), pointsOf(score))
			}
			first = score
		}
	}
}

// pointsOf returns each standing's points.
func pointsOf(score *rulebookv1.Score) []int32 {
	var out []int32
	for _, st := range score.GetStandings() {
		out = append(out, st.GetPoints())
	}
	return out
}
