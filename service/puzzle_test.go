package service

import (
	"context"
	"crypto/rand"
	"slices"
	"testing"

	"go.uber.org/zap"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service/seal"
)

// newPuzzleService returns a Service with a fresh key and the given node limit for a puzzle (0: the default).
func newPuzzleService(t *testing.T, nodeLimit int64) *Service {
	t.Helper()
	key, err := seal.GenerateKey("test", rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := seal.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(zap.NewNop(), Config{Keys: keys, PuzzleNodeLimit: nodeLimit})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSolvePuzzleNodeLimit checks that a search needing more work than a call may do is refused with
// FAILED_PRECONDITION (HTTP 400, which no client retries) and the reason SEARCH_TOO_LARGE.
func TestSolvePuzzleNodeLimit(t *testing.T) {
	s := newPuzzleService(t, 10)
	var shape []*rulebookv1.PuzzleCell
	for y := range 6 {
		for x := range 10 {
			shape = append(shape, &rulebookv1.PuzzleCell{X: int32(x), Y: int32(y)})
		}
	}
	_, err := s.SolvePuzzle(context.Background(), &rulebookv1.SolvePuzzleRequest{Shape: shape,
		Pieces: &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: "pentominoes"}, Goal: rulebookv1.PuzzleGoal_PUZZLE_GOAL_COUNT})
	st := status.Convert(err)
	var reason string
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			reason = info.GetReason()
		}
	}
	if st.Code() != codes.FailedPrecondition || reason != ReasonSearchTooLarge {
		t.Errorf("a search over its node limit: %v (reason %q), want FAILED_PRECONDITION %s", err, reason, ReasonSearchTooLarge)
	}
}

// TestListPieceSets checks that ListPieceSets lists each named set, by name, with the pieces of package polyomino in
// their order, and that each listed piece, given back to SolvePuzzle as a custom set, tiles its own cells as the
// named set's piece does.
func TestListPieceSets(t *testing.T) {
	s := newPuzzleService(t, 0)
	resp, err := s.ListPieceSets(context.Background(), &rulebookv1.ListPieceSetsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []polyomino.Set{polyomino.Pentominoes(), polyomino.Ubongo()} {
		if i >= len(resp.GetSets()) {
			t.Fatalf("%d sets listed, want 2", len(resp.GetSets()))
		}
		got := resp.GetSets()[i]
		if got.GetName() != want.Name || len(got.GetPieces()) != len(want.Pieces) {
			t.Fatalf("set %d is %q with %d pieces, want %q with %d", i, got.GetName(), len(got.GetPieces()), want.Name,
				len(want.Pieces))
		}
		for k, piece := range got.GetPieces() {
			if piece.GetName() != want.Pieces[k].Name || !slices.Equal(cellsFromProto(piece.GetCells()), want.Pieces[k].Cells) {
				t.Errorf("%s piece %d: %v, want %v", want.Name, k, piece, want.Pieces[k])
			}
			for _, req := range []*rulebookv1.SolvePuzzleRequest{
				{Pieces: &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: got.GetName()}},
				{Pieces: &rulebookv1.SolvePuzzleRequest_Custom{Custom: &rulebookv1.PuzzlePieceSet{Pieces: got.GetPieces()}}},
			} {
				req.Shape, req.Select = piece.GetCells(), []string{piece.GetName()}
				solved, err := s.SolvePuzzle(context.Background(), req)
				if err != nil || !solved.GetSolvable() {
					t.Errorf("%s piece %s on its own cells (%T): %v, %v", want.Name, piece.GetName(), req.GetPieces(),
						solved, err)
				}
			}
		}
	}
}
