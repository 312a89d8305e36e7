// Command rulebook-arena measures the strength of the games' bots (SuggestMove's search): it plays tournaments in
// process, with no transport, between the bot and a uniformly random player and a one-ply greedy one, seats
// alternated, at each think time a move, and prints win rates with 95% confidence intervals (Wilson's); for Micropul
// solo, the mean score of each player. Usage:
//
//	go run ./cmd/rulebook-arena [-games 100] [-think 10ms,50ms,250ms] [-matches exploze,kipicot,micropul,micropul-solo]
//
// -iterations N searches N iterations a move instead of a think time (deterministic, for tests). The bot thinks on
// the wall clock: run it on an idle machine, one tournament at a time.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// match is a game the arena plays: its engine, its options and its number of players.
type match struct {
	game    engine.Game
	options *rulebookv1.GameOptions
	players int
}

// matches are the games the arena knows, by the name -matches takes.
var matches = map[string]match{
	"exploze": {exploze.Game{}, &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{
		Exploze: &rulebookv1.ExplozeOptions{Rows: 6, Cols: 6, Players: 2}}}, 2},
	"kipicot": {kipicot.Game{}, nil, 2},
	"micropul": {micropul.Game{}, &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{
		Micropul: &rulebookv1.MicropulOptions{Players: 2}}}, 2},
	"micropul-solo": {micropul.Game{}, &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{
		Micropul: &rulebookv1.MicropulOptions{Players: 1}}}, 1},
}

// maxMoves ends a game that has not ended by then, as a draw.
const maxMoves = 20000

// config is a tournament: games per pairing, the think times (or iterations) of the bot, the matches and the seed.
type config struct {
	games      int
	thinks     []time.Duration
	iterations int
	matches    []string
	seed       uint64
}

func main() {
	var c config
	var thinks, names string
	flag.IntVar(&c.games, "games", 100, "games per pairing")
	flag.StringVar(&thinks, "think", "10ms,50ms,250ms", "the bot's think times a move, comma-separated")
	flag.IntVar(&c.iterations, "iterations", 0, "iterations a move instead of a think time")
	flag.StringVar(&names, "matches", "exploze,kipicot,micropul,micropul-solo", "the games to play, comma-separated")
	flag.Uint64Var(&c.seed, "seed", 1, "seed of the games, the players and the bot")
	flag.Parse()
	c.matches = strings.Split(names, ",")
	for _, t := range strings.Split(thinks, ",") {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			fmt.Fprintf(os.Stderr, "rulebook-arena: -think: %q is not a positive duration\n", t)
			os.Exit(2)
		}
		c.thinks = append(c.thinks, d)
	}
	if c.iterations > 0 {
		c.thinks = []time.Duration{0}
	}
	if err := run(os.Stdout, c); err != nil {
		fmt.Fprintln(os.Stderr, "rulebook-arena:", err)
		os.Exit(1)
	}
}

// run plays the tournaments of c and prints their results to w, one line a pairing.
func run(w io.Writer, c config) error {
	if c.games < 1 {
		return fmt.Errorf("-games must be at least 1")
	}
	for _, name := range c.matches {
		m, ok := matches[name]
		if !ok {
			return fmt.Errorf("no match %q", name)
		}
		if m.players == 1 {
			if err := solo(w, c, name, m); err != nil {
				return err
			}
			continue
		}
		for _, think := range c.thinks {
			for _, opponent := range []string{"random", "greedy"} {
				if err := pairing(w, c, name, m, think, opponent); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// budgetName names the bot's budget a move.
func budgetName(c config, think time.Duration) string {
	if think == 0 {
		return fmt.Sprintf("%d iterations", c.iterations)
	}
	return think.String()
}

// opponentOf returns the player named name, seeded with seed.
func opponentOf(name string, seed uint64) player {
	rng := rand.New(rand.NewPCG(seed, 2))
	if name == "greedy" {
		return greedy{rng}
	}
	return random{rng}
}

// pairing plays c.games games of m between the bot, thinking think a move, and opponent, the bot in seat 1 in even
// games and seat 2 in odd ones, and prints the bot's score.
func pairing(w io.Writer, c config, name string, m match, think time.Duration, opponent string) error {
	var searched, moves int64
	points := 0.0
	for i := range c.games {
		seed := c.seed + uint64(i)
		b := bot{think: think, iterations: c.iterations, seed: seed, searched: &searched, moves: &moves}
		seats := []player{b, opponentOf(opponent, seed)}
		botSeat := engine.Player(1)
		if i%2 == 1 {
			seats[0], seats[1], botSeat = seats[1], seats[0], 2
		}
		score, err := playGame(m, seed, seats)
		if err != nil {
			return fmt.Errorf("%s game %d: %w", name, i, err)
		}
		points += outcome(score, botSeat)
	}
	lo, hi := wilson(points, float64(c.games))
	fmt.Fprintf(w, "%-8s %-14s bot vs %-6s  %5.1f/%d = %5.1f%%  [95%% CI %5.1f%%, %5.1f%%]  %d iterations a move\n",
		name, budgetName(c, think), opponent, points, c.games, 100*points/float64(c.games), 100*lo, 100*hi,
		searched/max(moves, 1))
	return nil
}

// solo plays c.games solo games of m for each player (random, greedy, the bot at each think time) and prints each
// one's mean score with its 95% confidence interval.
func solo(w io.Writer, c config, name string, m match) error {
	type entrant struct {
		label string
		of    func(seed uint64) player
	}
	var searched, moves int64
	entrants := []entrant{
		{"random", func(seed uint64) player { return opponentOf("random", seed) }},
		{"greedy", func(seed uint64) player { return opponentOf("greedy", seed) }},
	}
	for _, think := range c.thinks {
		entrants = append(entrants, entrant{"bot " + budgetName(c, think), func(seed uint64) player {
			return bot{think: think, iterations: c.iterations, seed: seed, searched: &searched, moves: &moves}
		}})
	}
	for _, e := range entrants {
		searched, moves = 0, 0
		var sum, sumSq float64
		for i := range c.games {
			seed := c.seed + uint64(i)
			score, err := playGame(m, seed, []player{e.of(seed)})
			if err != nil {
				return fmt.Errorf("%s game %d: %w", name, i, err)
			}
			p := float64(score.GetStandings()[0].GetPoints())
			sum, sumSq = sum+p, sumSq+p*p
		}
		n := float64(c.games)
		mean := sum / n
		half := 1.96 * math.Sqrt(max(sumSq/n-mean*mean, 0)/n)
		line := fmt.Sprintf("%-13s %-20s mean score %6.1f  [95%% CI %6.1f, %6.1f]", name, e.label, mean, mean-half, mean+half)
		if moves > 0 {
			line += fmt.Sprintf("  %d iterations a move", searched/moves)
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

// playGame plays a game of m from seed, seats[p-1] choosing the moves of seat p, and returns its final score.
func playGame(m match, seed uint64, seats []player) (*rulebookv1.Score, error) {
	state, err := m.game.New(m.options, seed)
	if err != nil {
		return nil, err
	}
	for range maxMoves {
		score, err := m.game.Score(state)
		if err != nil || score.GetGameOver() {
			return score, err
		}
		legal, err := m.game.Legal(state, engine.NoPlayer)
		if err != nil {
			return nil, err
		}
		seat := engine.Player(legal[0].GetPlayer())
		move, err := seats[seat-1].choose(m.game, state, seat)
		if err != nil {
			return nil, fmt.Errorf("%s as player %d: %w", seats[seat-1].name(), seat, err)
		}
		if state, _, err = m.game.Apply(state, move); err != nil {
			return nil, fmt.Errorf("%s as player %d played %v: %w", seats[seat-1].name(), seat, move, err)
		}
	}
	return m.game.Score(state) // unfinished: a draw
}

// outcome returns what a game's final score is worth to seat: 1 for a win, 1/2 for a draw (or a shared win, or an
// unfinished game), 0 for a loss.
func outcome(score *rulebookv1.Score, seat engine.Player) float64 {
	winners := score.GetWinners()
	if !score.GetGameOver() || len(winners) == 0 {
		return 0.5
	}
	for _, w := range winners {
		if engine.Player(w) == seat {
			return 1 / float64(len(winners))
		}
	}
	return 0
}

// wilson returns Wilson's 95% score interval of a proportion of wins out of n.
func wilson(wins, n float64) (lo, hi float64) {
	const z = 1.96
	p := wins / n
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return max(centre-half, 0), min(centre+half, 1)
}
