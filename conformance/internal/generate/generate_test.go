package main

import (
	"slices"
	"testing"

	"github.com/rulebook/rulebook/conformance/internal/kit"
)

// TestSpecs checks that the generator has the spec of every game of the kit, the hosted games (docs/adding-a-game.md),
// and of no other game.
func TestSpecs(t *testing.T) {
	games := kit.Games()
	for _, game := range games {
		if _, ok := specs[game]; !ok {
			t.Errorf("%s: no spec of its cases", game)
		}
	}
	for game := range specs {
		if !slices.Contains(games, game) {
			t.Errorf("the spec of %s, a game not hosted", game)
		}
	}
}
