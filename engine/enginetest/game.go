package enginetest

import (
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameHarness adapts a game seen through its protobuf envelopes, as the service drives it, to the suite: the states
// and moves are the envelopes themselves, so Run checks the engine.Game adapter (its decoding, its errors, that it
// never changes the messages it is given) on top of the engine. options set up every game (nil for the defaults);
// candidates lists the moves to probe in a state, and may be nil. It has no view checks: the typed harness of the
// engine has them.
func GameHarness(g engine.Game, options *rulebookv1.GameOptions,
	candidates func(s *rulebookv1.GameState) []*rulebookv1.Move) Harness[*rulebookv1.GameState, *rulebookv1.Move] {
	maxPlayers := engine.Player(g.Info().GetMaxPlayers())
	check := func(s *rulebookv1.GameState) error {
		_, err := g.Score(s)
		return err
	}
	return Harness[*rulebookv1.GameState, *rulebookv1.Move]{
		New: func(seed uint64) (*rulebookv1.GameState, error) { return g.New(options, seed) },
		// Legal lists the moves of every player in seat order; an error leaves the list short, and Check reports
		// the state that caused it.
		Legal: func(s *rulebookv1.GameState) []*rulebookv1.Move {
			var moves []*rulebookv1.Move
			for p := engine.Player(1); p <= maxPlayers; p++ {
				m, _ := g.Legal(s, p)
				moves = append(moves, m...)
			}
			return moves
		},
		Candidates: candidates,
		Validate:   g.Validate,
		Apply: func(s *rulebookv1.GameState, m *rulebookv1.Move) (*rulebookv1.GameState, error) {
			next, _, err := g.Apply(s, m)
			return next, err
		},
		Over: func(s *rulebookv1.GameState) bool {
			score, err := g.Score(s)
			return err == nil && score.GetGameOver()
		},
		Check:  check,
		Encode: func(s *rulebookv1.GameState) proto.Message { return s },
		Decode: func(m proto.Message) (*rulebookv1.GameState, error) {
			s, _ := m.(*rulebookv1.GameState)
			return s, check(s)
		},
		EncodeMove: func(m *rulebookv1.Move) proto.Message { return m },
	}
}
