// Command generate writes the conformance kit: conformance/<game>.jsonl for every game rulebookd hosts, each case a
// call and the answer of rulebook's own RulesService in process (plain states, its clock at kit.Clock). It is
// deterministic: the same engines write the same bytes. Run it with scripts/conformance; see conformance/README.md.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/rulebook/rulebook/conformance/internal/kit"
	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

func main() {
	dir := flag.String("dir", "conformance", "the folder of the kit's files")
	flag.Parse()
	svc := kit.NewService()
	for _, game := range kit.Games() {
		spec, ok := specs[game]
		if !ok {
			fmt.Fprintf(os.Stderr, "generate: no cases for the game %s: add its spec to conformance/internal/generate\n", game)
			os.Exit(1)
		}
		b := newBuilder(svc, game)
		build(b, spec)
		var out bytes.Buffer
		if err := kit.Write(&out, b.cases); err != nil {
			fmt.Fprintln(os.Stderr, "generate:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(kit.File(*dir, game), out.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "generate:", err)
			os.Exit(1)
		}
	}
}

// spec is what the kit plays and tries of one game.
type spec struct {
	// plays are the game's playthroughs.
	plays []playthrough
	// candidates returns moves worth trying in a state of the game for the search of refused moves, besides the
	// legal moves of every state played and their mutations.
	candidates func(b *builder, state *rulebookv1.GameState) []*rulebookv1.Move
	// extra adds the cases made by hand, after the others.
	extra func(b *builder)
	// mutateState, if set, changes a state for the search of refused states instead of mutate: a change that keeps
	// the game's lists in step, which mutate (one field or list element at a time) seldom makes.
	mutateState func(state *rulebookv1.GameState, rng *rand.Rand) *rulebookv1.GameState
}

// playthrough is one seeded game played to its end.
type playthrough struct {
	name    string
	options *rulebookv1.GameOptions
	seed    uint64
	policy  func(b *builder) policy
}

// otherGame returns the first game of the kit that is not game, whose options, state and move a request about game
// holds in the cases of another game's message.
func otherGame(game string) string {
	for _, g := range kit.Games() {
		if g != game {
			return g
		}
	}
	panic("the kit holds no game besides " + game)
}

// stateTries is how many mutated states the search of refused states tries.
const stateTries = 20000

// build adds every case of the game's kit file: its options, its playthroughs, the requests' own refusals, then the
// searches of refused moves and states, and the cases made by hand.
func build(b *builder, s spec) {
	b.optionCases()
	for _, p := range s.plays {
		choose := policy(uniform)
		if p.policy != nil {
			choose = p.policy(b)
		}
		b.play("play "+p.name, p.options, p.seed, choose)
	}
	other := newBuilder(b.svc, otherGame(b.game))
	otherState, err := other.g.New(nil, 1)
	if err != nil {
		panic(err)
	}
	otherMoves, err := otherState.Legal(engine.NoPlayer)
	if err != nil {
		panic(err)
	}
	b.requestCases(b.states[0], b.moves[0], otherState.Encode(), otherMoves[0], other.options(nil))
	if s.extra != nil {
		s.extra(b)
	}
	var more func(*rulebookv1.GameState) []*rulebookv1.Move
	if s.candidates != nil {
		more = func(state *rulebookv1.GameState) []*rulebookv1.Move { return s.candidates(b, state) }
	}
	b.searchMoves(more, 1)
	change := mutate[*rulebookv1.GameState]
	if s.mutateState != nil {
		change = s.mutateState
	}
	b.searchStates(stateTries, 1, change)
}
