package exploze_test

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/exploze"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestConformance runs the shared conformance suite on boards of several sizes and player counts. The larger the
// board, the fewer the playouts: a state costs in proportion to its cells times its players.
func TestConformance(t *testing.T) {
	for _, c := range []struct {
		rows, cols, players, playouts int
	}{
		{2, 2, 2, 100}, {2, 3, 2, 100}, {3, 3, 2, 100}, {2, 2, 4, 100}, {3, 3, 3, 50}, {4, 4, 2, 30},
		{4, 4, 4, 30}, {5, 5, 2, 20}, {6, 6, 2, 10}, {5, 7, 3, 10}, {6, 6, 8, 6}, {8, 8, 2, 3}, {8, 8, 5, 3},
		{12, 12, 2, 1}, {2, 32, 2, 2},
	} {
		opts := exploze.Options{Rows: c.rows, Cols: c.cols, Players: c.players}
		t.Run(fmt.Sprintf("%dx%dx%d", c.rows, c.cols, c.players), func(t *testing.T) {
			t.Parallel()
			h := harness(opts)
			h.Playouts = c.playouts
			enginetest.Run(t, h)
		})
	}
}

// TestConformanceGame runs the suite on the engine.Game adapter, as the service drives it: envelopes in and out.
func TestConformanceGame(t *testing.T) {
	for _, c := range []struct {
		rows, cols, players, playouts int
	}{
		{2, 2, 2, 100}, {3, 3, 3, 50}, {4, 4, 2, 20}, {6, 6, 2, 5}, {5, 7, 3, 3},
	} {
		opts := exploze.Options{Rows: c.rows, Cols: c.cols, Players: c.players}
		t.Run(fmt.Sprintf("%dx%dx%d", c.rows, c.cols, c.players), func(t *testing.T) {
			t.Parallel()
			h := enginetest.GameHarness(exploze.Game{},
				&rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: opts.Proto()}},
				func(s *rulebookv1.GameState) []*rulebookv1.Move {
					typed, err := exploze.FromProto(s.GetExploze())
					if err != nil {
						return nil
					}
					var moves []*rulebookv1.Move
					for _, m := range candidates(typed) {
						moves = append(moves, m.Proto())
					}
					// An envelope with no move, and one with no Exploze move.
					return append(moves, nil, &rulebookv1.Move{Player: 1})
				}, nil)
			h.MaxPlies, h.Playouts = maxPlies(opts), c.playouts
			enginetest.Run(t, h)
		})
	}
}

// maxPlies returns the longest game on a board of opts. A game that is not over has a stable board, with at most
// Σ(critical - 1) = 2 x edges - cells stones, and each move adds one stone: one move more ends any game.
func maxPlies(opts exploze.Options) int {
	return 2*(opts.Rows*(opts.Cols-1)+opts.Cols*(opts.Rows-1)) - opts.Rows*opts.Cols + 1
}

// harness adapts the engine, on games with opts, to the conformance suite.
func harness(opts exploze.Options) enginetest.Harness[*exploze.State, exploze.Move] {
	return enginetest.Harness[*exploze.State, exploze.Move]{
		New:        func(uint64) (*exploze.State, error) { return exploze.New(opts) },
		Legal:      func(s *exploze.State) []exploze.Move { return s.Legal(s.ToMove()) },
		Candidates: candidates,
		Validate:   (*exploze.State).Validate,
		Apply: func(s *exploze.State, m exploze.Move) (*exploze.State, error) {
			next, _, err := s.Apply(m)
			return next, err
		},
		Over: (*exploze.State).Over,
		Check: func(s *exploze.State) error {
			_, err := exploze.FromProto(s.Proto())
			return err
		},
		Encode: func(s *exploze.State) proto.Message { return s.Proto() },
		Decode: func(m proto.Message) (*exploze.State, error) {
			return exploze.FromProto(m.(*rulebookv1.ExplozeState))
		},
		EncodeMove: func(m exploze.Move) proto.Message { return m.Proto() },
		MaxPlies:   maxPlies(opts),
		Players: func(s *exploze.State) []engine.Player {
			var ps []engine.Player
			for p := 1; p <= s.Options().Players; p++ {
				ps = append(ps, engine.Player(p))
			}
			return ps
		},
		View: (*exploze.State).View,
	}
}

// candidates returns every cell for every player, a move of a player out of range, and cells just off each side.
func candidates(s *exploze.State) []exploze.Move {
	o := s.Options()
	var moves []exploze.Move
	for p := engine.Player(1); p <= engine.Player(o.Players); p++ {
		for r := range o.Rows {
			for c := range o.Cols {
				moves = append(moves, exploze.Move{Player: p, Row: r, Col: c})
			}
		}
	}
	to := max(s.ToMove(), 1)
	return append(moves,
		exploze.Move{Player: engine.NoPlayer, Row: 0, Col: 0},
		exploze.Move{Player: engine.Player(o.Players + 1), Row: 0, Col: 0},
		exploze.Move{Player: to, Row: -1, Col: 0},
		exploze.Move{Player: to, Row: 0, Col: -1},
		exploze.Move{Player: to, Row: o.Rows, Col: 0},
		exploze.Move{Player: to, Row: 0, Col: o.Cols},
	)
}
