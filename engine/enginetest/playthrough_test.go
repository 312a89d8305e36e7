package enginetest

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestCompactAndFlat checks the two writers of messages on a move, a score and a game's facts: the fields set, in
// declaration order, enums by name, strings quoted, lists in brackets or indexed.
func TestCompactAndFlat(t *testing.T) {
	move := &rulebookv1.Move{Player: 2, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Col: 3}}}
	if got, want := Compact(move), "{player: 2 exploze: {col: 3}}"; got != want {
		t.Errorf("Compact(move) = %s, want %s", got, want)
	}
	score := &rulebookv1.Score{GameOver: true, Winners: []int32{1}, Standings: []*rulebookv1.PlayerStanding{{Player: 1}, {Player: 2}}}
	if got, want := Compact(score), "{game_over: true winners: [1] standings: [{player: 1}, {player: 2}]}"; got != want {
		t.Errorf("Compact(score) = %s, want %s", got, want)
	}
	if got := Compact(&rulebookv1.GameOptions{}); got != "{}" {
		t.Errorf("Compact of no field = %s, want {}", got)
	}
	info := &rulebookv1.GameInfo{Id: "x", Options: []*rulebookv1.OptionInfo{{Name: "rows", Type: rulebookv1.OptionType_OPTION_TYPE_INTEGER}},
		Information: rulebookv1.Information_INFORMATION_HIDDEN}
	want := `info.id = "x"
info.options[0].name = "rows"
info.options[0].type = OPTION_TYPE_INTEGER
info.information = INFORMATION_HIDDEN
`
	if got := Flat("info", info); got != want {
		t.Errorf("Flat(info) =\n%s\nwant\n%s", got, want)
	}
}

// TestWritePlaythrough plays small games of a game of perfect information and of one that hides information twice
// each, and checks that the two writings are equal and hold the header, the views where information is hidden, and
// the result.
func TestWritePlaythrough(t *testing.T) {
	for _, c := range []struct {
		name    string
		play    func(*bytes.Buffer) error
		views   bool
		wantOne string
	}{
		{name: "exploze", views: false, wantOne: `info.id = "exploze"`, play: func(b *bytes.Buffer) error {
			return WritePlaythrough(b, exploze.Game{}, Notation{State: compactState}, Playthrough{Seed: 3,
				Options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{Rows: 2, Cols: 2}}}})
		}},
		{name: "micropul", views: true, wantOne: `info.information = INFORMATION_HIDDEN`, play: func(b *bytes.Buffer) error {
			return WritePlaythrough(b, micropul.Game{}, Notation{State: compactState, Legal: 2}, Playthrough{Seed: 3})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var first, second bytes.Buffer
			if err := c.play(&first); err != nil {
				t.Fatal(err)
			}
			if err := c.play(&second); err != nil {
				t.Fatal(err)
			}
			text := first.String()
			if text != second.String() {
				t.Error("two playthroughs of the same seed differ")
			}
			for _, want := range []string{c.wantOne, "\nseed = 3\n", "\n== ply 0\nstate:\n", "\n== result after "} {
				if !strings.Contains(text, want) {
					t.Errorf("the playthrough has no %q", want)
				}
			}
			if got := strings.Contains(text, "\nview of 1:\n"); got != c.views {
				t.Errorf("the playthrough shows views: %v, want %v", got, c.views)
			}
		})
	}
}

// TestWritePlaythroughRefusedMove checks that a policy's move that Apply refuses fails the playthrough, naming the ply.
func TestWritePlaythroughRefusedMove(t *testing.T) {
	outOfTurn := Policy{Name: "the other player", Choose: func(_ *rulebookv1.GameState, legal []*rulebookv1.Move,
		_ *rand.Rand) (*rulebookv1.Move, error) {
		return &rulebookv1.Move{Player: 3 - legal[0].GetPlayer(), Game: legal[0].GetGame()}, nil
	}}
	err := WritePlaythrough(&bytes.Buffer{}, exploze.Game{}, Notation{State: compactState}, Playthrough{Policy: outOfTurn})
	if err == nil || !strings.Contains(err.Error(), "ply 0: Apply(") {
		t.Errorf("a move out of turn: %v, want the refusal of Apply at ply 0", err)
	}
}

// compactState renders a state as Compact does, for the tests of WritePlaythrough.
func compactState(s *rulebookv1.GameState) (string, error) { return Compact(s), nil }
