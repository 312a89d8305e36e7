package exploze

import (
	"flag"
	"math"
	"testing"
	"time"

	"github.com/rulebook/rulebook/engine"
)

var (
	duelGames = flag.Int("duel", 0, "TestDuel: games of alpha-beta against MCTS (0 skips it)")
	duelThink = flag.Duration("duel-think", 50*time.Millisecond, "TestDuel: each bot's think time a move")
)

// TestDuel measures the two searches of the bot against each other on a 6 x 6 board, two players: -duel N games of
// alpha-beta against MCTS, each thinking -duel-think a move on the wall clock, seats alternated (alpha-beta first in
// even games). It logs alpha-beta's wins with a Wilson 95% interval and each search's iterations a move; it asserts
// only that every game ends. Run it on a quiet machine, alone:
//
//	go test ./engine/exploze -run TestDuel -duel 60 -v
func TestDuel(t *testing.T) {
	if *duelGames == 0 {
		t.Skip("a measurement: run with -duel N")
	}
	wins := 0
	var iterations, moves [2]int64 // by search: MCTS, alpha-beta
	for game := range *duelGames {
		s := newGame(t, Options{Rows: 6, Cols: 6, Players: 2})
		abSeat := engine.Player(1 + game%2)
		for ply := 0; !s.Over(); ply++ {
			if ply > 2000 {
				t.Fatalf("game %d: no end after %d moves", game, ply)
			}
			stopAt := time.Now().Add(*duelThink)
			b := engine.Budget{Stop: func() bool { return !time.Now().Before(stopAt) }, Seed: uint64(game)}
			ab := s.ToMove() == abSeat
			plan, err := suggest(s, s.ToMove(), b, ab)
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			if ab {
				k = 1
			}
			iterations[k] += plan.Iterations
			moves[k]++
			if s, _, err = s.Apply(plan.Move); err != nil {
				t.Fatal(err)
			}
		}
		if s.Winner() == abSeat {
			wins++
		}
	}
	n, p := float64(*duelGames), float64(wins)/float64(*duelGames)
	const z = 1.96
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	t.Logf("%v a move: alpha-beta won %d of %d = %.1f%% [95%% CI %.1f%%, %.1f%%]; iterations a move: alpha-beta %d "+
		"nodes, MCTS %d playouts", *duelThink, wins, *duelGames, 100*p, 100*max(centre-half, 0),
		100*min(centre+half, 1), iterations[1]/max(moves[1], 1), iterations[0]/max(moves[0], 1))
}
