package enginetest

import (
	"flag"
	"os"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that imports this package: Golden then rewrites its files.
var update = flag.Bool("update", false, "rewrite the golden files in testdata from the current engine")

// Golden compares got with the golden file at path, or, with -update, rewrites the file with got. A difference fails
// t with the first line that differs; review a rewritten file like code.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(got) == string(want) {
		return
	}
	gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gotLines), len(wantLines)) {
		if gotLines[i] != wantLines[i] {
			t.Fatalf("%s differs from line %d:\ngot  %q\nwant %q\n(run with -update after a deliberate change)",
				path, i+1, gotLines[i], wantLines[i])
		}
	}
	t.Fatalf("%s: got %d lines, want %d (run with -update after a deliberate change)", path, len(gotLines), len(wantLines))
}
