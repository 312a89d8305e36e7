package colour

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// TestAllowed checks the decision: colour only on a terminal, and not there once NO_COLOR has any value.
func TestAllowed(t *testing.T) {
	for _, tt := range []struct {
		name     string
		terminal bool
		noColor  string
		want     bool
	}{
		{"terminal", true, "", true},
		{"terminal with NO_COLOR=1", true, "1", false},
		{"terminal with NO_COLOR=0", true, "0", false},
		{"terminal with NO_COLOR=false", true, "false", false},
		{"file or pipe", false, "", false},
		{"file or pipe with NO_COLOR", false, "1", false},
	} {
		if got := Allowed(tt.terminal, tt.noColor); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestFor checks that what is not a terminal gets no colour: a file, a pipe, a buffer.
func TestFor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	file, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, out := range map[string]io.Writer{"file": file, "pipe": w, "buffer": &bytes.Buffer{}} {
		if For(out) {
			t.Errorf("%s: colour, want none", name)
		}
	}
}
