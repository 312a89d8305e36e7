// Command rulebook-arena measures the strength of the games' bots (SuggestMove's search): it plays tournaments in
// process, with no transport, between the bot and simple players (a uniformly random one, a one-ply greedy one, and
// each game's own strongest simple player), seats rotated, at each think time a move, and prints win rates with 95%
// confidence intervals (Wilson's); for Micropul solo, the mean score of each player. Usage:
//
//	go run ./cmd/rulebook-arena [-games 100] [-think 10ms,50ms,250ms | -iterations N | -levels easy,medium,hard] [-matches exploze,kipicot,micropul,micropul-solo] [-opponents random,greedy] [-challenger bot] [-workers 1]
//
// The matches are every hosted game (engine/hosted) with its default options, named by its id, but those the arena
// cannot play (unplayed says why), and micropul-solo and exploze-8x8-4 (four players on an 8 x 8 board); -matches
// takes them all by default.
//
// -opponents names the players the challenger meets, every one that plays the match by default (in Micropul solo,
// the players whose scores are printed beside the bot's); in a game of more than two seats, the challenger takes one
// seat and copies of the opponent the others. -challenger names the player that takes the challenger's seat: the bot
// by default, or one of the opponents, to measure two simple players head to head. -iterations N searches N
// iterations a move instead of a think time (deterministic, for tests); -levels plays the bot at each level SuggestMove
// offers, as it plays there (its level's iterations a move). The bot thinks on the wall clock: run it on an
// idle machine, one tournament at a time. -workers N plays N games at a time, each on its own goroutine: a bot's think
// time stays the same, the tournament's wall time shrinks when N cores are free (each search gets fewer iterations if
// they are not).
package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/hosted"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// match is a game the arena plays: its engine, its options and its number of players.
type match struct {
	game    engine.Game
	options *rulebookv1.GameOptions
	players int
}

// unplayed are the hosted games the arena does not play, with why.
var unplayed = map[string]string{
	"ubongo-duel": "a race: Legal lists no solution, so the random and greedy players could only give up",
}

// matches are the games the arena knows, by the name -matches takes: each hosted game but those unplayed, with its
// default options and players, and Micropul solo.
var matches = func() map[string]match {
	out := map[string]match{}
	for _, g := range hosted.Games() {
		if info := g.Info(); unplayed[info.GetId()] == "" {
			out[info.GetId()] = match{g, nil, int(info.GetDefaultPlayers())}
		}
	}
	out["micropul-solo"] = match{out["micropul"].game, &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{
		Micropul: &rulebookv1.MicropulOptions{Players: 1}}}, 1}
	out["exploze-8x8-4"] = match{out["exploze"].game, &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{
		Exploze: &rulebookv1.ExplozeOptions{Rows: 8, Cols: 8, Players: 4}}}, 4}
	return out
}()

// maxMoves ends a game that has not ended by then, as a draw.
const maxMoves = 20000

// config is a tournament: games per pairing, the bot's budgets a move, the matches, the players and the seed.
type config struct {
	games      int
	budgets    []budget
	matches    []string
	opponents  []string // every opponent that plays the match when empty
	challenger string   // the bot when empty
	seed       uint64
	workers    int
}

func main() {
	var c config
	var thinks, names, opponents, levels string
	var iterations int
	flag.IntVar(&c.games, "games", 100, "games per pairing")
	flag.StringVar(&thinks, "think", "10ms,50ms,250ms", "the bot's think times a move, comma-separated")
	flag.IntVar(&iterations, "iterations", 0, "iterations a move instead of a think time")
	flag.StringVar(&levels, "levels", "", "the bot's levels (easy, medium, hard), comma-separated, instead of a think time")
	flag.StringVar(&names, "matches", strings.Join(slices.Sorted(maps.Keys(matches)), ","),
		"the games to play, comma-separated")
	flag.Uint64Var(&c.seed, "seed", 1, "seed of the games, the players and the bot")
	flag.IntVar(&c.workers, "workers", 1, "games played at a time")
	flag.StringVar(&opponents, "opponents", "", "the challenger's opponents, comma-separated (default every one that plays the match)")
	flag.StringVar(&c.challenger, "challenger", "bot", "the player that meets the opponents: the bot or an opponent's name")
	flag.Parse()
	c.matches = strings.Split(names, ",")
	if opponents != "" {
		c.opponents = strings.Split(opponents, ",")
	}
	var err error
	if c.budgets, err = budgets(thinks, iterations, levels); err != nil {
		fmt.Fprintln(os.Stderr, "rulebook-arena:", err)
		os.Exit(2)
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
	if c.workers < 1 {
		c.workers = 1
	}
	for _, name := range append([]string{c.challenger}, c.opponents...) {
		if _, ok := opponents[name]; !ok && name != "" && name != "bot" {
			return fmt.Errorf("no player %q (%s)", name, strings.Join(slices.Sorted(maps.Keys(opponents)), ", "))
		}
	}
	for _, name := range c.matches {
		m, ok := matches[name]
		if !ok {
			return fmt.Errorf("no match %q", name)
		}
		if c.challenger != "" && c.challenger != "bot" && !opponents[c.challenger].plays(name) {
			return fmt.Errorf("%s does not play %s", c.challenger, name)
		}
		against := c.opponents
		if against == nil {
			against = playersOf(name)
		}
		for _, o := range against {
			if !opponents[o].plays(name) {
				return fmt.Errorf("%s does not play %s", o, name)
			}
		}
		if m.players == 1 {
			if err := solo(w, c, name, m, against); err != nil {
				return err
			}
			continue
		}
		spends := c.budgets
		if c.challenger != "" && c.challenger != "bot" {
			spends = []budget{{}} // a simple player's choice takes no budget
		}
		for _, b := range spends {
			for _, opponent := range against {
				if err := pairing(w, c, name, m, b, opponent); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// budget is what the bot may spend a move: a think time on the wall clock, or iterations, at a level.
type budget struct {
	think      time.Duration
	iterations int
	level      engine.Level
	named      bool // the budget of level, named by it
}

// String names b: its level, its think time or its iterations; "-" for none (a simple player's).
func (b budget) String() string {
	switch {
	case b.named:
		return strings.ToUpper(levelNames[b.level])
	case b.think > 0:
		return b.think.String()
	case b.iterations > 0:
		return fmt.Sprintf("%d iterations", b.iterations)
	}
	return "-"
}

// in returns b as the bot spends it in m: a level's iterations are those of m's game (engine.Iterations).
func (b budget) in(m match) budget {
	if b.named {
		b.iterations = engine.Iterations(m.game.Info(), b.level)
	}
	return b
}

// levelNames are the levels -levels takes.
var levelNames = map[engine.Level]string{engine.Easy: "easy", engine.Medium: "medium", engine.Hard: "hard"}

// budgets returns the bot's budgets that the flags ask for: each level of levels (comma-separated), else iterations
// a move, else each think time of thinks (comma-separated).
func budgets(thinks string, iterations int, levels string) ([]budget, error) {
	var out []budget
	switch {
	case levels != "":
		for _, name := range strings.Split(levels, ",") {
			l := engine.Level(0)
			for level, n := range levelNames {
				if n == strings.ToLower(name) {
					l = level
				}
			}
			if l == 0 {
				return nil, fmt.Errorf("-levels: no level %q (easy, medium or hard)", name)
			}
			out = append(out, budget{level: l, named: true})
		}
	case iterations > 0:
		out = append(out, budget{iterations: iterations, level: engine.Medium})
	default:
		for _, t := range strings.Split(thinks, ",") {
			d, err := time.ParseDuration(t)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("-think: %q is not a positive duration", t)
			}
			out = append(out, budget{think: d, level: engine.Medium})
		}
	}
	return out, nil
}

// challengerOf returns the challenger of c for a game from seed: b, or the opponent c names.
func challengerOf(c config, seed uint64, b bot) player {
	if c.challenger == "" || c.challenger == "bot" {
		return b
	}
	return opponents[c.challenger].seated(seed, 1)
}

// pairing plays c.games games of m between the challenger (the bot spending b a move, unless c names another)
// and opponent, which takes every other seat: in game i the challenger sits in seat i mod m.players + 1. It prints the
// challenger's score.
func pairing(w io.Writer, c config, name string, m match, b budget, opponent string) error {
	games, err := playAll(c, func(i int, seed uint64, b bot) (game, error) {
		seat := i % m.players
		seats := make([]player, m.players)
		for s := range seats {
			seats[s] = opponents[opponent].seated(seed, uint64(2+s))
		}
		seats[seat] = challengerOf(c, seed, b)
		score, err := playGame(m, seed, seats)
		return game{points: outcome(score, engine.Player(seat+1))}, err
	}, b.in(m))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var t tally
	for _, g := range games {
		t.add(g)
	}
	lo, hi := wilson(t.sum, float64(c.games))
	line := fmt.Sprintf("%-13s %-14s %s vs %-17s  %5.1f/%d = %5.1f%%  [95%% CI %5.1f%%, %5.1f%%]",
		name, b, cmp.Or(c.challenger, "bot"), opponent, t.sum, c.games, 100*t.sum/float64(c.games),
		100*lo, 100*hi)
	if t.moves > 0 {
		line += fmt.Sprintf("  %d iterations a move", t.searched/t.moves)
	}
	fmt.Fprintln(w, line)
	return nil
}

// solo plays c.games solo games of m for each player (against, then the bot at each think time unless c names
// another challenger) and prints
// each one's mean score with its 95% confidence interval.
func solo(w io.Writer, c config, name string, m match, against []string) error {
	type entrant struct {
		label  string
		budget budget
		of     func(seed uint64, b bot) player
	}
	var entrants []entrant
	for _, o := range against {
		entrants = append(entrants, entrant{o, budget{}, func(seed uint64, _ bot) player { return opponents[o].seated(seed, 2) }})
	}
	for _, b := range c.budgets {
		if c.challenger != "" && c.challenger != "bot" {
			break
		}
		entrants = append(entrants, entrant{"bot " + b.String(), b,
			func(_ uint64, b bot) player { return b }})
	}
	for _, e := range entrants {
		games, err := playAll(c, func(_ int, seed uint64, b bot) (game, error) {
			score, err := playGame(m, seed, []player{e.of(seed, b)})
			if err != nil {
				return game{}, err
			}
			return game{points: float64(score.GetStandings()[0].GetPoints())}, nil
		}, e.budget.in(m))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		var t tally
		for _, g := range games {
			t.add(g)
		}
		n := float64(c.games)
		mean := t.sum / n
		half := 1.96 * math.Sqrt(max(t.sumSq/n-mean*mean, 0)/n)
		line := fmt.Sprintf("%-13s %-20s mean score %6.1f  [95%% CI %6.1f, %6.1f]", name, e.label, mean, mean-half, mean+half)
		if t.moves > 0 {
			line += fmt.Sprintf("  %d iterations a move", t.searched/t.moves)
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

// game is what one game of a tournament gave: the points it is worth (a pairing's outcome for the bot, or a solo
// score), and the iterations the bot searched over its moves.
type game struct {
	points          float64
	searched, moves int64
}

// tally sums a tournament's games.
type tally struct {
	sum, sumSq      float64
	searched, moves int64
}

// add counts g.
func (t *tally) add(g game) {
	t.sum, t.sumSq = t.sum+g.points, t.sumSq+g.points*g.points
	t.searched, t.moves = t.searched+g.searched, t.moves+g.moves
}

// playAll plays c.games games on c.workers goroutines, game i from seed c.seed+i with a bot of its own spending
// spend a move, and returns them in order; the first error (by game) ends it.
func playAll(c config, play func(i int, seed uint64, b bot) (game, error), spend budget) ([]game, error) {
	games := make([]game, c.games)
	errs := make([]error, c.games)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(c.workers, c.games) {
		wg.Go(func() {
			for i := range next {
				seed := c.seed + uint64(i)
				b := bot{budget: spend, seed: seed, searched: new(int64), moves: new(int64)}
				games[i], errs[i] = play(i, seed, b)
				games[i].searched, games[i].moves = *b.searched, *b.moves
			}
		})
	}
	for i := range c.games {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i, err)
		}
	}
	return games, nil
}

// playGame plays a game of m from seed, seats[p-1] choosing the moves of seat p, and returns its final score.
func playGame(m match, seed uint64, seats []player) (*rulebookv1.Score, error) {
	state, err := m.game.New(m.options, seed)
	if err != nil {
		return nil, err
	}
	for range maxMoves {
		if score := state.Score(); score.GetGameOver() {
			return score, nil
		}
		seat := state.ToMove()[0]
		move, err := seats[seat-1].choose(state, seat)
		if err != nil {
			return nil, fmt.Errorf("%s as player %d: %w", seats[seat-1].name(), seat, err)
		}
		if state, _, err = state.Apply(move); err != nil {
			return nil, fmt.Errorf("%s as player %d played %v: %w", seats[seat-1].name(), seat, move, err)
		}
	}
	return state.Score(), nil // unfinished: a draw
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
