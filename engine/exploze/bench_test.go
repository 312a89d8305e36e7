package exploze

import (
	"math/rand/v2"
	"testing"
)

// benchPosition is a position to benchmark, with two of its legal moves: the first that sets off no explosion, and
// the one that sets off the most.
type benchPosition struct {
	name         string
	s            *State
	quiet, chain Move
}

// benchPositions returns a mid-game 6x6 position and a 32x32 one, each reached by seeded random moves.
func benchPositions(b *testing.B) []benchPosition {
	var out []benchPosition
	for _, c := range []struct {
		name  string
		opts  Options
		plies int
	}{
		{"6x6", DefaultOptions(), 30},
		{"32x32", Options{Rows: 32, Cols: 32}, 1500},
	} {
		rng := rand.New(rand.NewPCG(1, uint64(c.plies)))
		s := newGame(b, c.opts)
		for range c.plies {
			legal := s.Legal(s.ToMove())
			s, _ = play(b, s, coordOf(legal[rng.IntN(len(legal))]))
		}
		if s.Over() {
			b.Fatalf("%s: the game ended before the benchmark position", c.name)
		}
		p := benchPosition{name: c.name, s: s}
		quiet, most := false, -1
		for _, m := range s.Legal(s.ToMove()) {
			_, events := play(b, s, coordOf(m))
			explosions, _ := chainCounts(events)
			if explosions == 0 && !quiet {
				p.quiet, quiet = m, true
			}
			if explosions > most {
				p.chain, most = m, explosions
			}
		}
		out = append(out, p)
	}
	return out
}

// BenchmarkApply applies moves to the benchmark positions (the same move each time: states are immutable), and the
// move of the longest chain of TestChainFarBelowCap, reporting the explosions of each.
func BenchmarkApply(b *testing.B) {
	type bench struct {
		name string
		s    *State
		m    Move
	}
	var benches []bench
	for _, p := range benchPositions(b) {
		benches = append(benches, bench{p.name + "-quiet", p.s, p.quiet}, bench{p.name + "-chain", p.s, p.chain})
	}
	s, m := longestChain(b)
	benches = append(benches, bench{"32x32-longest-chain", s, m})
	for _, c := range benches {
		b.Run(c.name, func(b *testing.B) {
			var events []Event
			for b.Loop() {
				var err error
				if _, events, err = c.s.Apply(c.m); err != nil {
					b.Fatal(err)
				}
			}
			explosions, _ := chainCounts(events)
			b.ReportMetric(float64(explosions), "explosions/op")
		})
	}
}

// BenchmarkLegal lists the legal moves of the player to move in each benchmark position.
func BenchmarkLegal(b *testing.B) {
	for _, p := range benchPositions(b) {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				p.s.Legal(p.s.ToMove())
			}
		})
	}
}

// BenchmarkCloneBaseline copies each benchmark position: the copy of the board that every Apply makes, as a
// baseline for Apply and Legal, which also visit every cell once.
func BenchmarkCloneBaseline(b *testing.B) {
	for _, p := range benchPositions(b) {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				p.s.clone()
			}
		})
	}
}
