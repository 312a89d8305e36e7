package enginetest

import (
	"flag"
	"os"
	"testing"
)

// DepthVariable is the environment variable that sets how deep the tests go when -enginetest.depth does not:
// RULEBOOK_TEST_DEPTH=long is CI's long run, which plays more games and loads the server longer than the plain go
// test; go test -short goes shallower still where a test says so (ByDepth).
const DepthVariable = "RULEBOOK_TEST_DEPTH"

// Depth is how many playouts Run plays of each setup of a game.
type Depth int

const (
	// Quick plays every check on every setup, on a playout or two of each, checking the first FullyChecked states of
	// a playout and every fourth after (and the last): the depth of a plain go test.
	Quick Depth = iota
	// Long plays the playouts each setup declares: the depth of CI.
	Long
)

// String returns the depth's name, as the flag takes it.
func (d Depth) String() string {
	if d == Long {
		return "long"
	}
	return "quick"
}

// depthFlag names the depth of the conformance suite; RULEBOOK_TEST_DEPTH does when it is not given.
var depthFlag = flag.String("enginetest.depth", "", "depth of the conformance suite: quick or long "+
	"(default $RULEBOOK_TEST_DEPTH, else quick)")

// ChosenDepth returns the depth that -enginetest.depth names or, without the flag, the environment variable
// RULEBOOK_TEST_DEPTH: "quick" or "long". It is Quick when neither is set, and fails t for any other name.
func ChosenDepth(t testing.TB) Depth {
	t.Helper()
	d, ok := chosenDepth()
	if !ok {
		t.Fatalf("enginetest: depth %q is neither quick nor long", depthName())
	}
	return d
}

// ByDepth returns short under go test -short, long at the Long depth, and normal otherwise: the amount of work
// (games, requests, rounds) a test outside the conformance suite does at each depth. A depth name that is neither
// quick nor long counts as quick here (ChosenDepth fails the conformance tests for it).
func ByDepth[T any](short, normal, long T) T {
	switch d, _ := chosenDepth(); {
	case testing.Short():
		return short
	case d == Long:
		return long
	}
	return normal
}

// depthName returns the depth's name as the flag or, without it, the environment gives it.
func depthName() string {
	if *depthFlag != "" {
		return *depthFlag
	}
	return os.Getenv(DepthVariable)
}

// chosenDepth returns the depth depthName names, and whether it names one.
func chosenDepth() (Depth, bool) {
	switch depthName() {
	case "", "quick":
		return Quick, true
	case "long":
		return Long, true
	}
	return Quick, false
}

// checkEvery returns the Harness's CheckEvery at depth d: at Quick, the checks of every fourth state past the first
// FullyChecked of a playout (its end always checked); at Long, of every state.
func (d Depth) checkEvery() int {
	if d == Long {
		return 1
	}
	return 4
}
