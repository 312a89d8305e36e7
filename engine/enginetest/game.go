package enginetest

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameHarness adapts a game seen through its protobuf envelopes, as the service drives it, to the suite: the states
// and moves are the envelopes themselves, so Run checks the engine.Game adapter (its decoding, its errors, that it
// never changes the messages it is given) on top of the engine. options set up every game (nil for the defaults);
// candidates lists the moves to probe in a state, and may be nil. The seats are those of the score's standings, and
// View is the game's (Check fails a state that Score or View refuses). hidden is nil for a game of perfect
// information; for a game with hidden information it adds the re-deals of CheckViews and CheckSeatAnswers.
func GameHarness(g engine.Game, options *rulebookv1.GameOptions,
	candidates func(s *rulebookv1.GameState) []*rulebookv1.Move,
	hidden *Hidden) Harness[*rulebookv1.GameState, *rulebookv1.Move] {
	maxPlayers := engine.Player(g.Info().GetMaxPlayers())
	check := func(s *rulebookv1.GameState) error {
		score, err := g.Score(s)
		if err != nil {
			return err
		}
		for _, viewer := range append([]engine.Player{engine.NoPlayer}, seats(score)...) {
			if _, err := g.View(s, viewer); err != nil {
				return fmt.Errorf("View(s, %d): %w", viewer, err)
			}
		}
		return nil
	}
	h := Harness[*rulebookv1.GameState, *rulebookv1.Move]{
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
		Players: func(s *rulebookv1.GameState) []engine.Player {
			score, _ := g.Score(s)
			return seats(score)
		},
		// View gives nil for a state the game refuses to show, which Check reports.
		View: func(s *rulebookv1.GameState, viewer engine.Player) *rulebookv1.GameState {
			v, _ := g.View(s, viewer)
			return v
		},
	}
	if hidden != nil {
		h.Redeal = hidden.Redeal
		h.seats = seatCheck{g: g, reveals: hidden.Reveals}.check
	}
	return h
}

// Hidden is, for GameHarness, how a game hides information.
type Hidden struct {
	// Redeal returns s with everything viewer may not see dealt anew from seed, keeping all that viewer sees: the
	// Redeal of the game's Harness, on envelopes.
	Redeal func(s *rulebookv1.GameState, viewer engine.Player, seed uint64) *rulebookv1.GameState
	// Reveals reports whether the events of a move, in full, make public something hidden: a chance outcome (a die
	// rolled, a card turned up) or what a rule shows (a game ended because no hand can be played). What a seat is
	// told of such a move may differ between re-deals, so CheckSeatAnswers leaves the move out. Nil: no move does.
	Reveals func(events []*rulebookv1.Event) bool
}

// seats returns the players of score's standings, in seat order.
func seats(score *rulebookv1.Score) []engine.Player {
	ps := make([]engine.Player, len(score.GetStandings()))
	for i, st := range score.GetStandings() {
		ps[i] = engine.Player(st.GetPlayer())
	}
	return ps
}
