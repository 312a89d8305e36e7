package micropul

import (
	"math/rand/v2"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// midGame returns a two-player position after 30 seeded random plies, and its first legal placement.
func midGame(b *testing.B) (*State, Move) {
	s := newGame(b, DefaultOptions(), 1)
	rng := rand.New(rand.NewPCG(1, 30))
	for range 30 {
		legal := s.Legal(s.ToMove())
		s, _ = apply(b, s, legal[rng.IntN(len(legal))])
	}
	if s.Over() {
		b.Fatal("the game ended before the benchmark position")
	}
	legal := s.Legal(s.ToMove())
	for _, m := range legal {
		if m.Action == PlaceTile {
			return s, m
		}
	}
	return s, legal[0]
}

// BenchmarkLegal lists the legal moves of the player to move in a mid-game position.
func BenchmarkLegal(b *testing.B) {
	s, _ := midGame(b)
	b.ReportMetric(float64(len(s.Legal(s.ToMove()))), "moves")
	for b.Loop() {
		s.Legal(s.ToMove())
	}
}

// BenchmarkApply places a tile in a mid-game position.
func BenchmarkApply(b *testing.B) {
	s, m := midGame(b)
	for b.Loop() {
		if _, _, err := s.Apply(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCloneBaseline copies the mid-game position: the copy every Apply makes, as a baseline for Apply and Legal.
func BenchmarkCloneBaseline(b *testing.B) {
	s, _ := midGame(b)
	for b.Loop() {
		s.clone()
	}
}

// BenchmarkFromProto decodes and checks the mid-game position, as every call of the service does.
func BenchmarkFromProto(b *testing.B) {
	s, _ := midGame(b)
	m := s.Proto()
	for b.Loop() {
		if _, err := FromProto(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGameApply places a tile in the mid-game position through the engine.Game adapter, as the service does:
// decode and check the state, decode and check the move, apply, encode.
func BenchmarkGameApply(b *testing.B) {
	s, m := midGame(b)
	state, move := definition{}.EncodeState(s), m.Proto()
	for b.Loop() {
		p, err := Spec.Decode(state)
		if err != nil {
			b.Fatal(err)
		}
		next, _, err := p.Apply(move)
		if err != nil {
			b.Fatal(err)
		}
		next.Encode()
	}
}

// BenchmarkSuggest runs the bot's search, the default level's iterations, in the mid-game position.
func BenchmarkSuggest(b *testing.B) {
	s, _ := midGame(b)
	budget := engine.Budget{Level: engine.Medium, Iterations: engine.Iterations(Spec.Info(), engine.Medium), Seed: 1}
	for b.Loop() {
		if _, err := (definition{}).Suggest(s, s.ToMove(), budget); err != nil {
			b.Fatal(err)
		}
	}
}
