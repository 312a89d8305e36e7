package exploze

import (
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestPlaythrough plays seeded random games to the end and compares them with testdata/*.golden, in the format of
// enginetest.WritePlaythrough. After a deliberate change of the engine, regenerate the files with
// go test ./engine/exploze -run Playthrough -update and review the difference like code.
func TestPlaythrough(t *testing.T) {
	enginetest.Playthroughs(t, Game{}, enginetest.StringNotation(Spec), []enginetest.Playthrough{
		{Name: "playthrough_6x6", Seed: 2024},
		{Name: "playthrough_3p_4x5", Seed: 7, Options: playthroughOptions(Options{Rows: 4, Cols: 5, Players: 3})},
	})
}

// playthroughOptions returns opts in an envelope.
func playthroughOptions(opts Options) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: opts.Proto()}}
}
