package main

import (
	"math"
	"math/rand/v2"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// The weights of groupGreedy's value.
const (
	// stoneWorth is what a stone in supply is worth while the core is full: a claim on a group to come.
	stoneWorth = 1
	// sidesToHalve is the number of empty positions along an open group at which its chance to close is 1/2.
	sidesToHalve = 6
	// lateCore is the core's size at which what is not yet scored counts half: with fewer tiles left, fewer groups
	// close and fewer stones find one.
	lateCore = 3
)

// groupGreedy plays Micropul one ply deep, as a user's own one-ply program would through the API: it tries every legal
// move and keeps the one after which its value leads the other player's by the most (its value alone in solo; a win
// first), ties broken at random. A seat's value is its points, plus, for each open group carrying one stone, the
// seat's, the group's micropuls times its chance to close (1/2 at sidesToHalve empty positions along it), plus
// stoneWorth for each stone it has left; what is not scored yet shrinks with the core (half at lateCore tiles). (A
// bonus for an extra turn made it weaker.) The weights were tuned against greedy. It reads only what every player sees:
// the board, the stones, the counts.
type groupGreedy struct{ rng *rand.Rand }

func (groupGreedy) name() string { return "group-greedy" }

// choose picks seat's legal move of the best lead in value after it.
func (g groupGreedy) choose(state engine.Position, seat engine.Player) (*rulebookv1.Move, error) {
	return onePly(state, seat, g.rng, func(next engine.Position) (float64, error) { return micropulLead(next, seat) })
}

// micropulLead returns seat's value in the Micropul position p less the best of the others' (its value alone in
// solo), infinite for a win and minus infinite for a loss, from the spectators' view of p.
func micropulLead(p engine.Position, seat engine.Player) (float64, error) {
	score := p.Score()
	if lead := leadOf(score, seat); math.IsInf(lead, 0) {
		return lead, nil
	}
	view, err := p.View(engine.NoPlayer)
	if err != nil {
		return 0, err
	}
	values := micropulValues(view.Encode().GetMicropul(), score)
	if len(values) == 1 {
		return values[0], nil
	}
	own, others := 0.0, math.Inf(-1)
	for i, v := range values {
		if engine.Player(i+1) == seat {
			own = v
		} else {
			others = max(others, v)
		}
	}
	return own - others, nil
}

// micropulValues returns each seat's value (groupGreedy's) in the Micropul state s, whose score is score.
func micropulValues(s *rulebookv1.MicropulState, score *rulebookv1.Score) []float64 {
	values := make([]float64, len(s.GetPlayers()))
	for _, st := range score.GetStandings() {
		values[st.GetPlayer()-1] = float64(st.GetPoints())
	}
	if score.GetGameOver() {
		return values
	}
	core := float64(s.GetCoreCount())
	late := core / (core + lateCore)
	left := make([]int, len(values))
	for i := range left {
		left[i] = 3
	}
	for _, st := range s.GetStones() {
		left[st.GetPlayer()-1]--
	}
	for i, n := range left {
		values[i] += late * stoneWorth * float64(n)
	}
	for _, g := range openGroups(s.GetBoard(), s.GetStones()) {
		if len(g.stones) == 1 {
			chance := 1 / (1 + float64(g.open)/sidesToHalve)
			values[g.stones[0]-1] += late * chance * float64(g.micropuls)
		}
	}
	return values
}

// cell is a tile position of the board.
type cell struct{ x, y int32 }

// sideSteps are the neighbours of a tile, north, east, south, west.
var sideSteps = [4]cell{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

// quadrantSides are the two sides (indices of sideSteps) of its tile that each quadrant, TL TR BR BL, lies on.
var quadrantSides = [4][2]int{{0, 3}, {0, 1}, {1, 2}, {2, 3}}

// across pairs the quadrants that touch across a tile's east and south sides (each edge of the board once): the
// tile's, then its neighbour's.
var across = [...]struct {
	side  int
	pairs [2][2]int
}{{1, [2][2]int{{1, 0}, {2, 3}}}, {2, [2][2]int{{3, 0}, {2, 1}}}}

// openGroup is an open group of micropuls: their number (a big micropul counting 1), the empty positions next to
// them, and the players of its stones.
type openGroup struct {
	micropuls, open int
	stones          []int32
}

// openGroups returns the open groups of a board and its stones, in the order of their first micropul on the board.
func openGroups(board []*rulebookv1.MicropulPlacedTile, stones []*rulebookv1.MicropulStone) []openGroup {
	at := make(map[cell]int, len(board))
	quads := make([][4]micropul.Symbol, len(board))
	big := make([]bool, len(board))
	for i, p := range board {
		at[cell{p.GetX(), p.GetY()}] = i
		t, _ := micropul.TileByID(int(p.GetTile()))
		quads[i], big[i] = t.Rotated(int(p.GetRotation())), t.Big
	}
	parent := make([]int, 4*len(board))
	for i := range parent {
		parent[i] = i
	}
	find := func(n int) int {
		for parent[n] != n {
			parent[n] = parent[parent[n]]
			n = parent[n]
		}
		return n
	}
	join := func(a, b int) {
		if ra, rb := find(a), find(b); ra != rb {
			parent[max(ra, rb)] = min(ra, rb)
		}
	}
	for i, p := range board {
		q := quads[i]
		for k := range 4 {
			if q[k].IsMicropul() && q[k] == q[(k+1)&3] {
				join(4*i+k, 4*i+(k+1)&3)
			}
		}
		for _, a := range across {
			j, ok := at[cell{p.GetX() + sideSteps[a.side].x, p.GetY() + sideSteps[a.side].y}]
			if !ok {
				continue
			}
			for _, pair := range a.pairs {
				if a := q[pair[0]]; a.IsMicropul() && a == quads[j][pair[1]] {
					join(4*i+pair[0], 4*j+pair[1])
				}
			}
		}
	}
	type tally struct {
		micropuls int
		empty     map[cell]bool
		tiles     map[int]bool
		stones    []int32
	}
	byRoot := map[int]*tally{} // looked up only: the groups come in order
	var order []int
	for n := range parent {
		i, k := n/4, n%4
		if !quads[i][k].IsMicropul() {
			continue
		}
		r := find(n)
		t := byRoot[r]
		if t == nil {
			t = &tally{empty: map[cell]bool{}, tiles: map[int]bool{}}
			byRoot[r] = t
			order = append(order, r)
		}
		if !big[i] || !t.tiles[i] {
			t.micropuls++
		}
		t.tiles[i] = true
		for _, d := range quadrantSides[k] {
			c := cell{board[i].GetX() + sideSteps[d].x, board[i].GetY() + sideSteps[d].y}
			if _, ok := at[c]; !ok {
				t.empty[c] = true
			}
		}
	}
	for _, st := range stones {
		i := at[cell{st.GetX(), st.GetY()}]
		if t := byRoot[find(4*i+int(st.GetQuadrant())-1)]; t != nil {
			t.stones = append(t.stones, st.GetPlayer())
		}
	}
	var out []openGroup
	for _, r := range order {
		if t := byRoot[r]; len(t.empty) > 0 {
			out = append(out, openGroup{micropuls: t.micropuls, open: len(t.empty), stones: t.stones})
		}
	}
	return out
}
