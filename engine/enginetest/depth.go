package enginetest

import (
	"os"
	"testing"
)

// DepthVariable is the environment variable that sets how deep the tests go: RULEBOOK_TEST_DEPTH=long is CI's long
// run, which plays more games and loads the server longer than the plain go test; go test -short goes shallower.
const DepthVariable = "RULEBOOK_TEST_DEPTH"

// Long reports whether the tests run at the long depth (RULEBOOK_TEST_DEPTH=long).
func Long() bool { return os.Getenv(DepthVariable) == "long" }

// ByDepth returns short under go test -short, long at the long depth, and normal otherwise: the amount of work (games,
// requests, rounds) a test does at each depth.
func ByDepth[T any](short, normal, long T) T {
	switch {
	case testing.Short():
		return short
	case Long():
		return long
	}
	return normal
}
