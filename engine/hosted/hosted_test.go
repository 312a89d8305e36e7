package hosted

import (
	"slices"
	"strings"
	"testing"
)

// TestGames checks that the hosted games are in the order of their ids, each once.
func TestGames(t *testing.T) {
	games := Games()
	if len(games) == 0 {
		t.Fatal("no hosted game")
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.Info().GetId()
	}
	if !slices.IsSortedFunc(ids, strings.Compare) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("ids %v: want each once, in order", ids)
	}
}
