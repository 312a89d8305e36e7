package exploze

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
	start := enginetest.PreviousForms(t, Spec, previousForms)[0][1:] // a 2 x 2 board, after engine.PrivateForm
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"other version", append([]byte{packVersion + 1}, start[1:]...)},
		{"header cut short", start[:3]},
		{"cells cut short", start[:len(start)-1]},
		{"bytes left over", append(append([]byte{}, start...), 0)},
		{"no rows", []byte{packVersion, 0, 2, 2, 0, 1, 0, 0, 0, 0}},
		{"rows above the largest board", []byte{packVersion, MaxSize + 1, 2, 2, 0, 1}},
		{"varint too long", []byte{packVersion, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
		{"a stone without an owner", []byte{packVersion, 2, 2, 2, 1, 2, cellBase, 0, 0, 0}},
		{"an owner out of range", []byte{packVersion, 2, 2, 2, 1, 2, cellBase + 5, 0, 0, 0}},
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
