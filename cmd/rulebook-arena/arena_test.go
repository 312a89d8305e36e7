package main

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/hosted"
)

// TestRun plays a small tournament of two matches at a few iterations a move, and checks a line for each pairing
// and each solo player, with its rate or mean and interval, and that 2 workers print the same.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	c := config{games: 2, budgets: []budget{{iterations: 4, level: engine.Medium}}, seed: 1, matches: []string{"exploze", "micropul-solo"},
		opponents: []string{"random", "greedy"}}
	if err := run(&out, c); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^exploze +4 iterations +bot vs random +[0-9.]+/2 = +[0-9.]+% +\[95% CI +[0-9.]+%, +[0-9.]+%\] +[0-9]+ iterations a move$`), // alpha-beta: nodes
		regexp.MustCompile(`^exploze +4 iterations +bot vs greedy `),
		regexp.MustCompile(`^micropul-solo +random +mean score +[0-9.]+ +\[95% CI`),
		regexp.MustCompile(`^micropul-solo +greedy +mean score`),
		regexp.MustCompile(`^micropul-solo +bot 4 iterations +mean score .* 4 iterations a move$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %v", i+1, lines[i], re)
		}
	}
	c.workers = 2
	var parallel bytes.Buffer
	if err := run(&parallel, c); err != nil {
		t.Fatal(err)
	}
	if parallel.String() != out.String() {
		t.Errorf("on 2 workers:\n%s\nwant what 1 worker printed:\n%s", parallel.String(), out.String())
	}
	if err := run(&out, config{games: 1, matches: []string{"chess"}}); err == nil {
		t.Error("an unknown match: no error")
	}
	for _, bad := range []config{
		{games: 1, matches: []string{"exploze"}, opponents: []string{"perfect"}},
		{games: 1, matches: []string{"exploze"}, challenger: "perfect"},
	} {
		if err := run(&out, bad); err == nil {
			t.Errorf("an unknown player in %+v: no error", bad)
		}
	}
	out.Reset()
	c.workers, c.opponents = 1, []string{"greedy"}
	if err := run(&out, c); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 3 || !want[1].MatchString(lines[0]) ||
		!want[3].MatchString(lines[1]) || !want[4].MatchString(lines[2]) {
		t.Errorf("greedy alone:\n%s", out.String())
	}
}

// TestBudgets checks the bot's budgets that the flags ask for, and their names in the tables.
func TestBudgets(t *testing.T) {
	for _, tc := range []struct {
		thinks, levels string
		iterations     int
		want           []string // the budgets' names; nil for an error
	}{
		{thinks: "10ms,1s", want: []string{"10ms", "1s"}},
		{thinks: "10ms", iterations: 40, want: []string{"40 iterations"}},
		{thinks: "10ms", iterations: 40, levels: "easy,HARD", want: []string{"EASY", "HARD"}},
		{thinks: "0s"},
		{thinks: "soon"},
		{levels: "expert"},
	} {
		got, err := budgets(tc.thinks, tc.iterations, tc.levels)
		var names []string
		for _, b := range got {
			names = append(names, b.String())
		}
		if (err != nil) != (tc.want == nil) || !slices.Equal(names, tc.want) {
			t.Errorf("budgets(%q, %d, %q) = %q, %v; want %q", tc.thinks, tc.iterations, tc.levels, names, err, tc.want)
		}
	}
	m := matches["kipicot"]
	if b, _ := budgets("", 0, "easy"); b[0].in(m).iterations != engine.Iterations(m.game.Info(), engine.Easy) ||
		b[0].in(m).iterations == 0 || b[0].level != engine.Easy {
		t.Errorf("the easy level's budget in Kipicot is %+v, want its level's iterations there", b[0].in(m))
	}
}

// TestChallenger checks a tournament of two simple players head to head, one line a pairing with no budget, and a
// match of four seats, in which the challenger meets three copies of its opponent.
func TestChallenger(t *testing.T) {
	var out bytes.Buffer
	c := config{games: 4, seed: 1, matches: []string{"exploze", "exploze-8x8-4"}, challenger: "greedy",
		opponents: []string{"random"}}
	if err := run(&out, c); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^exploze +- +greedy vs random +[0-9.]+/4 = +[0-9.]+% +\[95% CI +[0-9.]+%, +[0-9.]+%\]$`),
		regexp.MustCompile(`^exploze-8x8-4 +- +greedy vs random +[0-9.]+/4 `),
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %v", i+1, lines[i], re)
		}
	}
}

// TestPlayersOf checks that every opponent plays some match, and that the players of a match all play it.
func TestPlayersOf(t *testing.T) {
	played := map[string]bool{}
	for name := range matches {
		for _, o := range playersOf(name) {
			played[o] = true
		}
	}
	for name := range opponents {
		if !played[name] {
			t.Errorf("opponent %s plays no match", name)
		}
	}
}

// TestMatches checks that the arena plays every hosted game (docs/adding-a-game.md), or says in unplayed why not, and
// that unplayed names only hosted games.
func TestMatches(t *testing.T) {
	ids := map[string]bool{}
	for _, g := range hosted.Games() {
		id := g.Info().GetId()
		ids[id] = true
		if _, ok := matches[id]; !ok && unplayed[id] == "" {
			t.Errorf("%s: neither a match nor unplayed", id)
		}
	}
	for id := range unplayed {
		if !ids[id] {
			t.Errorf("unplayed %s is not hosted", id)
		}
	}
}
