package main

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// player chooses a move of seat in state, a full state in which seat may move.
type player interface {
	name() string
	choose(state engine.Position, seat engine.Player) (*rulebookv1.Move, error)
}

// opponent is a simple player the arena has: how to seat one, and the matches it plays.
type opponent struct {
	// games are the ids of the games whose matches it plays (all of a game's matches: micropul-solo is Micropul's);
	// every game when empty.
	games []string
	// new returns one seeded with rng.
	new func(rng *rand.Rand) player
}

// opponents are the arena's simple players, by the name -opponents and -challenger take.
var opponents = map[string]opponent{
	"random":            {new: func(rng *rand.Rand) player { return random{rng} }},
	"greedy":            {new: func(rng *rand.Rand) player { return greedy{rng} }},
	"positional-greedy": {games: []string{"exploze"}, new: func(rng *rand.Rand) player { return positionalGreedy{rng} }},
	"turn-greedy":       {games: []string{"kipicot"}, new: func(rng *rand.Rand) player { return &turnGreedy{rng: rng} }},
	"group-greedy":      {games: []string{"micropul"}, new: func(rng *rand.Rand) player { return groupGreedy{rng} }},
}

// plays reports whether o plays the match named match.
func (o opponent) plays(match string) bool {
	return o.new != nil && (o.games == nil || slices.Contains(o.games, matches[match].game.Info().GetId()))
}

// seated returns a new o for the game of seed, in the seat-th stream of that seed's randomness.
func (o opponent) seated(seed, stream uint64) player {
	return o.new(rand.New(rand.NewPCG(seed, stream)))
}

// playersOf returns the names of the opponents that play the match named match, sorted.
func playersOf(match string) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(opponents)) {
		if opponents[name].plays(match) {
			out = append(out, name)
		}
	}
	return out
}

// random plays a uniformly random legal move.
type random struct{ rng *rand.Rand }

func (random) name() string { return "random" }

// choose picks one of seat's legal moves at random.
func (r random) choose(state engine.Position, seat engine.Player) (*rulebookv1.Move, error) {
	legal, err := state.Legal(seat)
	if err != nil || len(legal) == 0 {
		return nil, err
	}
	return legal[r.rng.IntN(len(legal))], nil
}

// greedy plays the legal move after which its points lead the best of the others' by the most (a win first), one
// ply deep, ties broken at random.
type greedy struct{ rng *rand.Rand }

func (greedy) name() string { return "greedy" }

// choose picks seat's legal move of the best lead after it.
func (r greedy) choose(state engine.Position, seat engine.Player) (*rulebookv1.Move, error) {
	return onePly(state, seat, r.rng, func(next engine.Position) (float64, error) {
		return leadOf(next.Score(), seat), nil
	})
}

// onePly returns seat's legal move in state whose position after it rate values most, ties broken by rng: the
// choice of every one-ply player of the arena.
func onePly(state engine.Position, seat engine.Player, rng *rand.Rand,
	rate func(next engine.Position) (float64, error)) (*rulebookv1.Move, error) {
	legal, err := state.Legal(seat)
	if err != nil || len(legal) == 0 {
		return nil, err
	}
	var best []*rulebookv1.Move
	bestValue := math.Inf(-1)
	for _, m := range legal {
		next, _, err := state.Apply(m)
		if err != nil {
			return nil, err
		}
		value, err := rate(next)
		if err != nil {
			return nil, err
		}
		switch {
		case value > bestValue:
			best, bestValue = []*rulebookv1.Move{m}, value
		case value == bestValue:
			best = append(best, m)
		}
	}
	return best[rng.IntN(len(best))], nil
}

// leadOf returns seat's points less the best of the others' (its points alone in a solo game), infinite for a win
// and minus infinite for a loss.
func leadOf(score *rulebookv1.Score, seat engine.Player) float64 {
	if score.GetGameOver() && len(score.GetStandings()) > 1 {
		for _, w := range score.GetWinners() {
			if engine.Player(w) == seat {
				return math.Inf(1)
			}
		}
		if len(score.GetWinners()) > 0 {
			return math.Inf(-1)
		}
	}
	own, others := 0.0, math.Inf(-1)
	for _, st := range score.GetStandings() {
		if engine.Player(st.GetPlayer()) == seat {
			own = float64(st.GetPoints())
		} else {
			others = max(others, float64(st.GetPoints()))
		}
	}
	if math.IsInf(others, -1) {
		return own
	}
	return own - others
}

// bot plays the game's bot, spending its budget a move.
type bot struct {
	budget
	seed     uint64
	searched *int64 // iterations of every search, summed
	moves    *int64 // searches
}

func (bot) name() string { return "bot" }

// choose asks the game's bot.
func (b bot) choose(state engine.Position, seat engine.Player) (*rulebookv1.Move, error) {
	spend := engine.Budget{Level: b.level, Iterations: b.iterations, Seed: b.seed}
	if b.think > 0 {
		stopAt := time.Now().Add(b.think)
		spend.Stop = func() bool { return !time.Now().Before(stopAt) }
	}
	s, err := state.Suggest(seat, spend)
	if err != nil {
		return nil, err
	}
	*b.searched += s.Iterations
	*b.moves++
	return s.Move, nil
}
