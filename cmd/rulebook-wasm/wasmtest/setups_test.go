package wasmtest

import (
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine/hosted"
)

// TestSetups checks that Play plays every game the module hosts (engine/hosted; docs/adding-a-game.md), and no other.
func TestSetups(t *testing.T) {
	var ids []string
	for _, g := range hosted.Games() {
		ids = append(ids, g.Info().GetId())
	}
	for _, id := range ids {
		if !slices.ContainsFunc(setups, func(s setup) bool { return s.game == id }) {
			t.Errorf("%s: no setup of Play", id)
		}
	}
	for _, s := range setups {
		if !slices.Contains(ids, s.game) {
			t.Errorf("setup %q plays %s, a game not hosted", s.name, s.game)
		}
	}
}
