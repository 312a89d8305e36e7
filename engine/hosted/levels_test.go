package hosted

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// BenchmarkSuggestLevels times one suggestion at each level of each hosted game whose levels bound a search, in a
// position of its default game after a few seeded random moves (a move of the opening is cheaper): what a level costs
// a move, to compare with the time docs/bots.md says HARD fits in.
func BenchmarkSuggestLevels(b *testing.B) {
	for _, g := range Games() {
		info := g.Info()
		pos := midGame(b, g, 16)
		for _, l := range info.GetBotLevels() {
			if l.GetIterations() == 0 {
				continue
			}
			level := engine.Level(l.GetLevel())
			name := strings.ToLower(strings.TrimPrefix(l.GetLevel().String(), "BOT_LEVEL_"))
			b.Run(info.GetId()+"/"+name, func(b *testing.B) {
				budget := engine.Budget{Level: level, Iterations: int(l.GetIterations()), Seed: 1}
				for b.Loop() {
					if _, err := pos.Suggest(engine.NoPlayer, budget); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// midGame returns g's default game after moves seeded random moves of whoever may move (fewer if it ends first).
func midGame(b *testing.B, g engine.Game, moves int) engine.Position {
	pos, err := g.New(nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range moves {
		legal, err := pos.Legal(engine.NoPlayer)
		if err != nil || len(legal) == 0 {
			break
		}
		next, _, err := pos.Apply(legal[rng.IntN(len(legal))])
		if err != nil {
			b.Fatal(err)
		}
		if next.Score().GetGameOver() {
			break
		}
		pos = next
	}
	return pos
}
