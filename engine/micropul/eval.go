package micropul

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rulebook/rulebook/engine"
)

// The weights of worth.
const (
	// stoneWorth is what a stone not yet played is worth while the core is full: a claim on a group to come.
	stoneWorth = 1
	// openToHalve is the number of empty positions along an open group at which worth counts half its micropuls.
	openToHalve = 6
	// lateCore is the core's size at which worth counts half of what is not scored yet (open groups, stones left):
	// with fewer tiles left, fewer groups close and fewer stones find one.
	lateCore = 3
)

// worth writes into w each seat's worth in s, a game that goes on (w[p-1] is seat p's): its points, plus, for each
// open group carrying one stone, the seat's, the group's micropuls discounted by its empty positions (half at
// openToHalve), plus stoneWorth for each stone it has left, what is not scored yet scaled by the core's size (half at
// lateCore). The player to move gets, besides, what a stone of theirs would gain on the unclaimed group worth most to
// them (its worth less a stone's), if they have one left. (Crediting them, too, with the catalysts in reach of one
// empty position made the bot weaker: it shunned drawing tiles.) It reads only what every player sees: the board,
// the stones and the counts.
func (s *State) worth(w []float64) {
	core := float64(s.coreCount)
	late := core / (core + lateCore)
	for i, seat := range s.seats {
		w[i] = float64(2*seat.SupplyCount+seat.HandCount) + late*stoneWorth*float64(s.StonesLeft(engine.Player(i+1)))
	}
	groups, _ := s.groups()
	claim := 0.0 // the most a stone of the player to move gains
	for _, g := range groups {
		if len(g.stones) > 1 {
			continue
		}
		v := float64(g.micropuls)
		if !g.closed {
			v = late * v / (1 + float64(s.openPositions(g))/openToHalve)
		}
		switch {
		case len(g.stones) == 1:
			w[s.stones[g.stones[0]].Player-1] += v
		case s.toMove != engine.NoPlayer && s.stoneRefusal(g) == "" && s.StonesLeft(s.toMove) > 0:
			claim = max(claim, v-late*stoneWorth)
		}
	}
	if s.toMove != engine.NoPlayer {
		w[s.toMove-1] += claim
	}
}

// openPositions returns the number of empty positions next to the micropuls of g.
func (s *State) openPositions(g group) int {
	var open []Coord
	for _, node := range g.nodes {
		p := s.board[node/4]
		for _, d := range externalSides[node%4] {
			if c := p.At.add(step[d]); !s.index.has(c) && !slices.Contains(open, c) {
				open = append(open, c)
			}
		}
	}
	return len(open)
}

// playoutCandidates is how many moves a playout's policy rates before it plays the best (or, playoutEpsilon of the
// time, the first).
const playoutCandidates = 6

// playoutEpsilon is the chance that a playout plays its first candidate, a random one, instead of the best rated.
const playoutEpsilon = 0.1

// policy draws a move of s's mover for a playout: up to playoutCandidates random placements, and a random stone
// when the mover has one left, rated by the mover's lead in worth after each; the best, or the first with chance
// playoutEpsilon. ok is false when it found no candidate.
func (s *State) policy(rng *rand.Rand) (Move, bool) {
	var cand [playoutCandidates + 1]Move
	n := 0
	for range playoutCandidates {
		m, ok := s.samplePlacement(rng)
		if !ok {
			break
		}
		cand[n] = m
		n++
	}
	if stones := s.stoneMoves(s.toMove, false); len(stones) > 0 {
		cand[n] = stones[rng.IntN(len(stones))]
		n++
	}
	if n <= 1 || rng.Float64() < playoutEpsilon {
		return cand[0], n > 0
	}
	w := make([]float64, len(s.seats))
	best, bestLead := 0, math.Inf(-1)
	for i, m := range cand[:n] {
		if next, _, err := s.Apply(m); err == nil { // every candidate is legal: err is nil
			if lead := next.leadOf(m.Player, w); lead > bestLead {
				best, bestLead = i, lead
			}
		}
	}
	return cand[best], true
}

// leadOf returns p's worth in s less the best of the others' (its worth alone in solo); in a game over, points,
// a player who lost counting minus infinity. w is scratch space, one entry a seat.
func (s *State) leadOf(p engine.Player, w []float64) float64 {
	if s.Over() {
		for i, ps := range s.Score().Players {
			w[i] = float64(ps.Total)
			if ps.Lost {
				w[i] = math.Inf(-1)
			}
		}
	} else {
		s.worth(w)
	}
	others := math.Inf(-1)
	for i, v := range w {
		if engine.Player(i+1) != p {
			others = max(others, v)
		}
	}
	if math.IsInf(others, -1) {
		return w[p-1]
	}
	return w[p-1] - others
}
