package kipicot

import (
	"math/rand/v2"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// benchState returns a mid-game position, reached by seeded random moves, at step 2 (the phase with the most legal
// moves), and one of its legal placements.
func benchState(b *testing.B) (*State, Move) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := newGame(b, DefaultOptions())
	for ply := 0; ply < 60 || s.Phase() != PhaseAction; ply++ {
		legal := s.Legal(s.ToMove())
		s, _ = play(b, s, legal[rng.IntN(len(legal))].Step)
		if s.Over() {
			b.Fatal("the game ended before the benchmark position")
		}
	}
	return s, s.Legal(s.ToMove())[0]
}

// BenchmarkLegal lists the legal moves at step 2 of a mid-game position.
func BenchmarkLegal(b *testing.B) {
	s, _ := benchState(b)
	b.ReportMetric(float64(len(s.Legal(s.ToMove()))), "moves")
	for b.Loop() {
		s.Legal(s.ToMove())
	}
}

// BenchmarkApply applies a placement at step 2 of a mid-game position, and a whole turn from step 1.
func BenchmarkApply(b *testing.B) {
	s, m := benchState(b)
	b.Run("step", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := s.Apply(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	next, _ := play(b, s, m.Step)
	turn := Move{Player: s.ToMove(), Turn: []Step{m.Step, next.Legal(next.ToMove())[0].Step}}
	b.Run("turn", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := s.Apply(turn); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCloneBaseline copies the benchmark position, as every Apply does: a baseline for Apply and Legal.
func BenchmarkCloneBaseline(b *testing.B) {
	s, _ := benchState(b)
	var sink *State
	for b.Loop() {
		c := *s
		sink = &c
	}
	_ = sink
}

// BenchmarkBestCatch rates the most the player to move catches in a whole turn from step 1 of a mid-game position.
func BenchmarkBestCatch(b *testing.B) {
	s, _ := benchState(b)
	for s.Phase() != PhaseOptionalMove {
		s, _ = play(b, s, s.Legal(s.ToMove())[0].Step)
	}
	b.Run("bestCatch", func(b *testing.B) {
		for b.Loop() {
			s.bestCatch(100)
		}
	})
	b.Run("turnsOf", func(b *testing.B) {
		for b.Loop() {
			turnsOf(s)
		}
	})
	b.Run("suggest100", func(b *testing.B) {
		for b.Loop() {
			definition{}.Suggest(s, s.ToMove(), engine.Budget{Iterations: 100})
		}
	})
}
