package exploze_test

import (
	"fmt"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/exploze"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestConformance runs the conformance suite on boards of several sizes and player counts. The larger the board, the
// fewer the playouts: a state costs in proportion to its cells times its players, and the two largest boards are
// played at the long depth only.
func TestConformance(t *testing.T) {
	enginetest.Run(t, exploze.Spec, battery, enginetest.ChosenDepth(t))
}

// battery is what the conformance suite needs to know of Exploze beyond its spec.
var battery = enginetest.Battery[*exploze.State, exploze.Move]{
	Setups: []enginetest.Setup{
		setup(2, 2, 2, 100), setup(2, 3, 2, 100), setup(3, 3, 2, 100), setup(2, 2, 4, 100), setup(3, 3, 3, 50),
		setup(4, 4, 2, 30), setup(4, 4, 4, 30), setup(5, 5, 2, 20), setup(6, 6, 2, 10), setup(5, 7, 3, 10),
		setup(6, 6, 8, 6), setup(8, 8, 2, 3), setup(2, 32, 2, 2),
		larger(setup(8, 8, 5, 3)), larger(setup(12, 12, 2, 1)),
	},
	Candidates: candidates,
}

// setup returns the setup of a rows x cols board for players, worth playouts.
func setup(rows, cols, players, playouts int) enginetest.Setup {
	opts := exploze.Options{Rows: rows, Cols: cols, Players: players}
	return enginetest.Setup{Name: fmt.Sprintf("%dx%dx%d", rows, cols, players), Playouts: playouts,
		Options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: opts.Proto()}}}
}

// larger returns s, a larger board than the others, played at the long depth only.
func larger(s enginetest.Setup) enginetest.Setup {
	s.LongOnly = true
	return s
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
