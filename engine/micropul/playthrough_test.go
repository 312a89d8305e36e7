package micropul

import (
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestPlaythrough plays seeded random games (two players under the 2004 rules, and solo) to the end and compares
// them with testdata/*.golden, in the format of enginetest.WritePlaythrough. After a deliberate change, regenerate
// the files with go test ./engine/micropul -run Playthrough -update and review the difference like code.
func TestPlaythrough(t *testing.T) {
	enginetest.Playthroughs(t, Game{}, enginetest.StringNotation(Spec), []enginetest.Playthrough{
		{Name: "playthrough_2p", Seed: 2024, Options: playthroughOptions(Options{Players: 2, Rules: Original2004})},
		{Name: "playthrough_solo", Seed: 7, Options: playthroughOptions(Options{Players: 1, Rules: DefaultRules})},
	})
}

// playthroughOptions returns opts in an envelope.
func playthroughOptions(opts Options) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{Micropul: opts.Proto()}}
}
