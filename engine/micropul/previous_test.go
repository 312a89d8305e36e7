package micropul

import (
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
)

// previousForms holds the held forms of states in the private form of the tokens of an earlier release.
const previousForms = "testdata/previous_form.txt"

// TestPreviousForm checks that the tokens of an earlier release, which held the previous private form, still open.
func TestPreviousForm(t *testing.T) { enginetest.PreviousForms(t, Spec, previousForms) }

// TestReadPreviousFormRefuses checks that bytes no earlier release wrote are an error.
func TestReadPreviousFormRefuses(t *testing.T) {
	start := enginetest.PreviousForms(t, Spec, previousForms)[0][1:] // a game's start, after engine.PrivateForm
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"other version", append([]byte{packVersion + 1}, start[1:]...)},
		{"cut short", start[:len(start)-1]},
		{"bytes left over", append(append([]byte{}, start...), 0)},
		{"header only", start[:8]},
		{"too many players", append([]byte{packVersion, MaxPlayers + 1}, start[2:]...)},
		{"a board longer than the tiles", []byte{packVersion, 2, 1, 1, 0, 0, 0, 0, NumTiles + 1}},
		{"a coordinate beyond int32", []byte{packVersion, 2, 1, 1, 0, 0, 0, 0, 1, 40,
			0xff, 0xff, 0xff, 0xff, 0x1f, 0, 0}},
	} {
		if s, err := (definition{}).ReadPreviousForm(c.b); err == nil {
			t.Errorf("%s: read % x as %v", c.name, c.b, s)
		}
	}
}

// FuzzPreviousForm opens arbitrary bytes as a token's held form (enginetest.FuzzPreviousForm).
func FuzzPreviousForm(f *testing.F) {
	enginetest.FuzzPreviousForm(f, Spec, enginetest.PreviousForms(f, Spec, previousForms))
}
