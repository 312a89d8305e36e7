package kipicot

import (
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestPlaythrough plays seeded random games to the end and compares them with testdata/*.golden, in the format of
// enginetest.WritePlaythrough. After a deliberate change of the engine, regenerate the files with
// go test ./engine/kipicot -run Playthrough -update and review the difference like code.
func TestPlaythrough(t *testing.T) {
	enginetest.Playthroughs(t, Game{}, enginetest.StringNotation(Spec), []enginetest.Playthrough{
		{Name: "playthrough", Seed: 2025},
		{Name: "playthrough_variants", Seed: 3, Options: playthroughOptions(Options{WholeStackMoves: true,
			PawnMayStay: true, AntiStallRounds: 1, EndThreshold: 14})},
	})
}

// playthroughOptions returns opts in an envelope.
func playthroughOptions(opts Options) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Kipicot{Kipicot: opts.Proto()}}
}
