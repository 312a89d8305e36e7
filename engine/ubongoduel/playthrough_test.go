package ubongoduel

import (
	"math/rand/v2"
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestPlaythrough plays seeded random games to the end and compares them with testdata/*.golden, in the format of
// enginetest.WritePlaythrough, with the moves of playthroughPolicy. After a deliberate change, regenerate the files
// with go test ./engine/ubongoduel -run Playthrough -update and review the difference like code.
func TestPlaythrough(t *testing.T) {
	enginetest.Playthroughs(t, Game{}, enginetest.StringNotation(Spec), []enginetest.Playthrough{
		{Name: "playthrough_a", Seed: 5, Policy: playthroughPolicy,
			Options: playthroughOptions(Options{Side: SideA, TieWindowMS: 100})},
		{Name: "playthrough_b_catchup", Seed: 5, Policy: playthroughPolicy,
			Options: playthroughOptions(Options{Side: SideB, TieWindowMS: 60, CatchUp: true})},
	})
}

// playthroughPolicy draws each move from the legal moves and the witness solutions (playable), then stamps it with a
// receive time 0 to 1.5 tie windows after the last one (never before the move's own earliest time), so that ties,
// late solutions and closed windows all occur.
var playthroughPolicy = enginetest.Policy{
	Name: "uniform over the legal moves and the witness solutions, received 0 to 1.5 tie windows after the last move",
	Choose: func(state *rulebookv1.GameState, _ []*rulebookv1.Move, rng *rand.Rand) (*rulebookv1.Move, error) {
		s, err := definition{}.DecodeState(state)
		if err != nil {
			return nil, err
		}
		moves := playable(s)
		m := moves[rng.IntN(len(moves))]
		m.ReceivedAt = max(m.ReceivedAt, s.last+rng.Int64N(int64(s.opts.TieWindowMS)*ms*3/2+1))
		return m.Proto(), nil
	},
}

// playthroughOptions returns opts in an envelope.
func playthroughOptions(opts Options) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_UbongoDuel{UbongoDuel: opts.Proto()}}
}
