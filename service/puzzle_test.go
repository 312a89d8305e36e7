package service

import (
	"context"
	"crypto/rand"
	"testing"

	"go.uber.org/zap"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service/seal"
)

// TestSolvePuzzleNodeLimit checks that a search needing more work than a call may do is refused with
// RESOURCE_EXHAUSTED and the reason SEARCH_TOO_LARGE.
func TestSolvePuzzleNodeLimit(t *testing.T) {
	key, err := seal.GenerateKey("test", rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := seal.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(zap.NewNop(), Config{Keys: keys, PuzzleNodeLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var shape []*rulebookv1.PuzzleCell
	for y := range 6 {
		for x := range 10 {
			shape = append(shape, &rulebookv1.PuzzleCell{X: int32(x), Y: int32(y)})
		}
	}
	_, err = s.SolvePuzzle(context.Background(), &rulebookv1.SolvePuzzleRequest{Shape: shape,
		Pieces: &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: "pentominoes"}, Goal: rulebookv1.PuzzleGoal_PUZZLE_GOAL_COUNT})
	st := status.Convert(err)
	var reason string
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			reason = info.GetReason()
		}
	}
	if st.Code() != codes.ResourceExhausted || reason != ReasonSearchTooLarge {
		t.Errorf("a search over its node limit: %v (reason %q), want RESOURCE_EXHAUSTED %s", err, reason, ReasonSearchTooLarge)
	}
}
