package enginetest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Playthrough is one seeded game of a golden playthrough: its options, its seed and how its moves are chosen.
type Playthrough struct {
	// Name names the sub-test and the golden file, testdata/<Name>.golden.
	Name string
	// Options set up the game; nil means every default.
	Options *rulebookv1.GameOptions
	// Seed is New's seed, and the seed of the generator the policy draws from.
	Seed uint64
	// Policy chooses the moves; the zero Policy is Uniform.
	Policy Policy
	// MaxPlies bounds the game: one that has not ended after MaxPlies moves fails. 0 means 1000.
	MaxPlies int
}

// Policy chooses each move of a playthrough.
type Policy struct {
	// Name describes the policy in the golden file's header.
	Name string
	// Choose returns the move to play in state, a full state that is not over, or why it cannot choose one. legal
	// is every legal move of whoever may move (Legal for engine.NoPlayer), never empty. The move may be one legal
	// does not hold (a solution found otherwise, a move stamped with a time), as long as Apply accepts it.
	Choose func(state *rulebookv1.GameState, legal []*rulebookv1.Move, rng *rand.Rand) (*rulebookv1.Move, error)
}

// Uniform draws each move uniformly from the legal moves.
var Uniform = Policy{
	Name: "uniform over the legal moves",
	Choose: func(_ *rulebookv1.GameState, legal []*rulebookv1.Move, rng *rand.Rand) (*rulebookv1.Move, error) {
		return legal[rng.IntN(len(legal))], nil
	},
}

// Notation is how a game's playthroughs show its messages.
type Notation struct {
	// State returns a full state or a view in a few readable lines (the game's own notation); required.
	State func(state *rulebookv1.GameState) (string, error)
	// Move returns a move on one line; nil shows it as Compact does.
	Move func(move *rulebookv1.Move) (string, error)
	// Legal is the most legal moves a ply lists; the others are counted. 0 means 12.
	Legal int
}

// Playthroughs plays each of plays with g as a sub-test of t, named by its Name, and compares what
// WritePlaythrough writes with testdata/<Name>.golden; with -update it rewrites the file (see Golden).
func Playthroughs(t *testing.T, g engine.Game, n Notation, plays []Playthrough) {
	t.Helper()
	command := regenerateCommand()
	for _, p := range plays {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			fmt.Fprintf(&b, "# %s: a playthrough of %s, in the golden format of engine/enginetest/playthrough.go.\n",
				p.Name, g.Info().GetName())
			fmt.Fprintf(&b, "# Regenerate with: %s\n", command)
			fmt.Fprintf(&b, "# Messages show the fields that are set: a field at its zero value (0, false, \"\") is left out.\n")
			if err := WritePlaythrough(&b, g, n, p); err != nil {
				t.Fatal(err)
			}
			Golden(t, filepath.Join("testdata", p.Name+".golden"), b.Bytes())
		})
	}
}

// WritePlaythrough plays p with g to the end and writes it to w: a header with the game's facts (every field of
// Info, so a field added to GameInfo shows up after -update), the options, the seed and the policy; then, for each
// ply from the first state on, the state, each seat's view when the game hides information, the score, the legal
// moves, the move chosen and its events, with what each seat is told of an event when it differs; then the final
// state and the result. The legal moves are those of whoever may move, from Legal for engine.NoPlayer.
func WritePlaythrough(w io.Writer, g engine.Game, n Notation, p Playthrough) error {
	info := g.Info()
	policy := p.Policy
	if policy.Choose == nil {
		policy = Uniform
	}
	maxPlies := p.MaxPlies
	if maxPlies <= 0 {
		maxPlies = 1000
	}
	options := p.Options
	if options == nil {
		options = &rulebookv1.GameOptions{}
	}
	pw := &playWriter{w: w, n: n, hidden: info.GetInformation() == rulebookv1.Information_INFORMATION_HIDDEN}
	pw.printf("%s", Flat("info", info))
	pw.printf("options = %s\nseed = %d\npolicy = %s\n", Compact(options), p.Seed, policy.Name)

	state, err := g.New(p.Options, p.Seed)
	if err != nil {
		return fmt.Errorf("New: %w", err)
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x706c6179))
	for ply := 0; ; ply++ {
		pw.printf("\n== ply %d\n", ply)
		score, err := pw.state(state)
		if err != nil {
			return fmt.Errorf("ply %d: %w", ply, err)
		}
		if score.GetGameOver() {
			pw.printf("\n== result after %d plies: winners %v\n", ply, score.GetWinners())
			return pw.err
		}
		if ply == maxPlies {
			return fmt.Errorf("the game is not over after %d plies", maxPlies)
		}
		legal, err := state.Legal(engine.NoPlayer)
		if err != nil {
			return fmt.Errorf("ply %d: Legal: %w", ply, err)
		}
		if len(legal) == 0 {
			return fmt.Errorf("ply %d: the game is not over and has no legal move", ply)
		}
		if err := pw.moves(legal); err != nil {
			return fmt.Errorf("ply %d: %w", ply, err)
		}
		move, err := policy.Choose(state.Encode(), legal, rng)
		if err != nil {
			return fmt.Errorf("ply %d: %s: %w", ply, policy.Name, err)
		}
		next, events, err := state.Apply(move)
		if err != nil {
			return fmt.Errorf("ply %d: Apply(%s): %w", ply, Compact(move), err)
		}
		if err := pw.move(state, move, events, score); err != nil {
			return fmt.Errorf("ply %d: %w", ply, err)
		}
		state = next
	}
}

// playWriter writes the parts of a playthrough, keeping the first write error.
type playWriter struct {
	w      io.Writer
	n      Notation
	hidden bool
	err    error
}

// printf writes to the playthrough.
func (pw *playWriter) printf(format string, args ...any) {
	if pw.err == nil {
		_, pw.err = fmt.Fprintf(pw.w, format, args...)
	}
}

// state writes a state, each seat's view of it when the game hides information, and its score, which it returns.
func (pw *playWriter) state(state engine.Position) (*rulebookv1.Score, error) {
	text, err := pw.n.State(state.Encode())
	if err != nil {
		return nil, fmt.Errorf("rendering the state: %w", err)
	}
	pw.printf("state:\n%s", indent(text))
	score := state.Score()
	if pw.hidden {
		for _, seat := range seats(score) {
			view, err := state.View(seat)
			if err != nil {
				return nil, fmt.Errorf("View(%d): %w", seat, err)
			}
			text, err := pw.n.State(view.Encode())
			if err != nil {
				return nil, fmt.Errorf("rendering the view of %d: %w", seat, err)
			}
			pw.printf("view of %d:\n%s", seat, indent(text))
		}
	}
	pw.printf("score: %s\n", Compact(score))
	return score, nil
}

// moves writes the legal moves on one line, at most Notation.Legal of them.
func (pw *playWriter) moves(legal []*rulebookv1.Move) error {
	shown := pw.n.Legal
	if shown <= 0 {
		shown = 12
	}
	texts := make([]string, 0, min(shown, len(legal))+1)
	for _, m := range legal[:min(shown, len(legal))] {
		text, err := pw.moveText(m)
		if err != nil {
			return err
		}
		texts = append(texts, text)
	}
	if len(legal) > shown {
		texts = append(texts, fmt.Sprintf("... and %d more", len(legal)-shown))
	}
	pw.printf("legal (%d): %s\n", len(legal), strings.Join(texts, "; "))
	return nil
}

// move writes the move played in state and its events, with what each seat of score is told of an event when the
// game hides information and that differs from the event.
func (pw *playWriter) move(state engine.Position, move *rulebookv1.Move, events []*rulebookv1.Event,
	score *rulebookv1.Score) error {
	text, err := pw.moveText(move)
	if err != nil {
		return err
	}
	pw.printf("move: %s\nevents:\n", text)
	told := map[engine.Player][]*rulebookv1.Event{}
	if pw.hidden {
		for _, seat := range seats(score) {
			told[seat] = state.ViewEvents(events, seat)
			if len(told[seat]) != len(events) {
				return fmt.Errorf("ViewEvents(%d) gave %d events for %d", seat, len(told[seat]), len(events))
			}
		}
	}
	for i, e := range events {
		pw.printf("  %s\n", Compact(e))
		for _, seat := range seats(score) {
			if seen := told[seat]; seen != nil && !proto.Equal(seen[i], e) {
				pw.printf("    %d is told: %s\n", seat, Compact(seen[i]))
			}
		}
	}
	return nil
}

// moveText returns a move in the game's notation, or as Compact does.
func (pw *playWriter) moveText(m *rulebookv1.Move) (string, error) {
	if pw.n.Move == nil {
		return Compact(m), nil
	}
	text, err := pw.n.Move(m)
	if err != nil {
		return "", fmt.Errorf("rendering move %s: %w", Compact(m), err)
	}
	return text, nil
}

// indent returns text with each line indented by two spaces and ending in a newline.
func indent(text string) string {
	var b strings.Builder
	for line := range strings.Lines(strings.TrimSuffix(text, "\n") + "\n") {
		b.WriteString("  " + line)
	}
	return b.String()
}

// regenerateCommand returns the command that rewrites the golden files of the package being tested (the current
// directory): go test ./<its path in the module> -run Playthrough -update.
func regenerateCommand() string {
	pkg := "."
	if dir, err := os.Getwd(); err == nil {
		for root := dir; filepath.Dir(root) != root; root = filepath.Dir(root) {
			if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
				if rel, err := filepath.Rel(root, dir); err == nil {
					pkg = "./" + filepath.ToSlash(rel)
				}
				break
			}
		}
	}
	return "go test " + pkg + " -run Playthrough -update"
}

// StringNotation is the Notation of a game whose typed states and moves say themselves in text: a state (or a view)
// and a move are decoded by spec's Definition and shown as their String methods show them.
func StringNotation[S interface {
	engine.Rules[S, M, E, C]
	fmt.Stringer
}, M interface {
	engine.Proto[*rulebookv1.Move]
	fmt.Stringer
}, E any, C engine.Proto[*rulebookv1.Score], D engine.Definition[S, M, E]](spec engine.Spec[S, M, E, C, D]) Notation {
	return Notation{
		State: func(state *rulebookv1.GameState) (string, error) {
			s, err := spec.Definition.DecodeState(state)
			if err != nil {
				return "", err
			}
			return s.String(), nil
		},
		Move: func(move *rulebookv1.Move) (string, error) {
			m, err := spec.Definition.DecodeMove(move)
			if err != nil {
				return "", err
			}
			return m.String(), nil
		},
	}
}
