package main

import (
	"math"
	"math/rand/v2"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// positionalGreedy is Exploze's positional greedy player: one ply deep, it plays the legal move after which its
// position is worth the most against the best of the others' (see explozeBoard.worth), a win first, ties broken at
// random. It reads the board from the state's envelope, as a user's program reads it from the REST API.
type positionalGreedy struct{ rng *rand.Rand }

func (positionalGreedy) name() string { return "positional-greedy" }

// choose picks seat's legal move of the best positional margin after it.
func (g positionalGreedy) choose(state engine.Position, seat engine.Player) (*rulebookv1.Move, error) {
	before := explozeBoardOf(state)
	return onePly(state, seat, g.rng, func(next engine.Position) (float64, error) {
		return explozeBoardOf(next).margin(seat, before), nil
	})
}

// explozeBoard is an Exploze board as the state's envelope gives it: owners (0 for an empty cell) and stones, row
// by row.
type explozeBoard struct {
	rows, cols, players int
	owners              []int32
	stones              []uint32
	over                bool
}

// explozeBoardOf reads the board of an Exploze position.
func explozeBoardOf(p engine.Position) explozeBoard {
	st := p.Encode().GetExploze()
	o := st.GetOptions()
	return explozeBoard{rows: int(o.GetRows()), cols: int(o.GetCols()), players: int(o.GetPlayers()),
		owners: st.GetOwners(), stones: st.GetStones(), over: p.Score().GetGameOver()}
}

// The weights of explozeBoard.worth, in stones.
const (
	cornerWorth      = 3  // an own corner no opponent's loaded cell threatens
	edgeWorth        = 2  // an own edge cell no opponent's loaded cell threatens
	loadedWorth      = 2  // an own loaded cell (one stone short of exploding) not threatened
	chainWorth       = 2  // each cell of a chain of two or more own loaded cells, side by side
	eliminationWorth = 20 // each opponent the move put out of the game
)

// critical returns the critical number of cell i: its number of orthogonal neighbours.
func (b explozeBoard) critical(i int) int {
	return len(b.around(i, nil))
}

// around appends the orthogonal neighbours of cell i to buf and returns them.
func (b explozeBoard) around(i int, buf []int) []int {
	r, c := i/b.cols, i%b.cols
	if r > 0 {
		buf = append(buf, i-b.cols)
	}
	if r < b.rows-1 {
		buf = append(buf, i+b.cols)
	}
	if c > 0 {
		buf = append(buf, i-1)
	}
	if c < b.cols-1 {
		buf = append(buf, i+1)
	}
	return buf
}

// loaded reports whether cell i is one stone short of its critical number.
func (b explozeBoard) loaded(i int) bool {
	return b.owners[i] != 0 && int(b.stones[i]) == b.critical(i)-1
}

// worth returns what player p's position is worth: its stones; for each of its cells next to an opponent's loaded
// cell, minus 5 less the cell's critical number for each such neighbour (a corner is lost the most cheaply); for each
// cell no such neighbour threatens, a bonus for a corner or an edge and for being loaded; and a bonus for each cell
// of a chain of p's loaded cells (two or more side by side), which explode together.
func (b explozeBoard) worth(p engine.Player) float64 {
	worth := 0.0
	var buf [4]int
	for i, owner := range b.owners {
		if engine.Player(owner) != p {
			continue
		}
		worth += float64(b.stones[i])
		k := b.critical(i)
		threatened := false
		for _, j := range b.around(i, buf[:0]) {
			if o := engine.Player(b.owners[j]); o != p && b.loaded(j) {
				worth -= float64(5 - k)
				threatened = true
			}
		}
		if threatened {
			continue
		}
		switch k {
		case 2:
			worth += cornerWorth
		case 3:
			worth += edgeWorth
		}
		if b.loaded(i) {
			worth += loadedWorth
		}
	}
	for _, size := range b.chains(p) {
		if size > 1 {
			worth += float64(chainWorth * size)
		}
	}
	return worth
}

// chains returns the sizes of the groups of p's loaded cells connected side by side.
func (b explozeBoard) chains(p engine.Player) []int {
	seen := make([]bool, len(b.owners))
	var sizes, stack []int
	var buf [4]int
	for i := range b.owners {
		if seen[i] || engine.Player(b.owners[i]) != p || !b.loaded(i) {
			continue
		}
		size := 0
		seen[i] = true
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			for _, j := range b.around(c, buf[:0]) {
				if !seen[j] && engine.Player(b.owners[j]) == p && b.loaded(j) {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		sizes = append(sizes, size)
	}
	return sizes
}

// holds reports whether player p has a stone on the board.
func (b explozeBoard) holds(p engine.Player) bool {
	for _, o := range b.owners {
		if engine.Player(o) == p {
			return true
		}
	}
	return false
}

// margin returns what seat's move, which led from before to b, is worth to it: infinite for a win; else its worth less
// the best of the others' on the board (0 if none has placed yet), plus a bonus for each opponent the move put out.
func (b explozeBoard) margin(seat engine.Player, before explozeBoard) float64 {
	if b.over {
		return math.Inf(1)
	}
	others := math.Inf(-1)
	out := 0
	for p := engine.Player(1); int(p) <= b.players; p++ {
		switch {
		case p == seat:
		case b.holds(p):
			others = max(others, b.worth(p))
		case before.holds(p):
			out++
		}
	}
	if math.IsInf(others, -1) { // round one: nobody else has placed yet
		others = 0
	}
	return b.worth(seat) - others + float64(eliminationWorth*out)
}
