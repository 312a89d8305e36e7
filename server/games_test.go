package server

import (
	"slices"
	"testing"
)

// TestFullGamesCover checks that TestFullGame plays every game the server hosts (docs/adding-a-game.md).
func TestFullGamesCover(t *testing.T) {
	for _, g := range Games() {
		id := g.Info().GetId()
		if !slices.ContainsFunc(fullGames, func(f fullGame) bool { return f.game == id }) {
			t.Errorf("%s: TestFullGame does not play it", id)
		}
	}
}
