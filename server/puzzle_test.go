package server

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// pentominoes asks for the 12 pentominoes.
var pentominoes = &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: "pentominoes"}

// TestSolvePuzzle solves and counts pentomino rectangles over gRPC and REST, and checks each solution cell by cell.
func TestSolvePuzzle(t *testing.T) {
	ts := startServer(t, testConfig())
	solve := map[string]func(*rulebookv1.SolvePuzzleRequest) *rulebookv1.SolvePuzzleResponse{
		"gRPC": func(req *rulebookv1.SolvePuzzleRequest) *rulebookv1.SolvePuzzleResponse {
			return servertest.Succeeded(ts.RPC.SolvePuzzle(servertest.CallContext(t), req))(t)
		},
		"REST": func(req *rulebookv1.SolvePuzzleRequest) *rulebookv1.SolvePuzzleResponse {
			resp := &rulebookv1.SolvePuzzleResponse{}
			ts.PostProto(t, "/v1/puzzles:solve", req, resp)
			return resp
		},
	}
	for name, call := range solve {
		t.Run(name, func(t *testing.T) {
			count := call(&rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(20, 3), Pieces: pentominoes,
				Goal: rulebookv1.PuzzleGoal_PUZZLE_GOAL_COUNT})
			if !count.GetSolvable() || count.GetCount() != 8 {
				t.Errorf("3 x 20 by the pentominoes: %v, want 8 tilings", count)
			}
			found := call(&rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(10, 6), Pieces: pentominoes})
			checkSolution(t, servertest.Rect(10, 6), found)
			chiral := call(&rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(20, 3), Pieces: pentominoes, NoReflection: true,
				Goal: rulebookv1.PuzzleGoal_PUZZLE_GOAL_COUNT})
			if chiral.GetSolvable() {
				t.Errorf("3 x 20 without turning pieces over: %v, want no tiling", chiral)
			}
			two := call(&rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(5, 2), Pieces: pentominoes, Select: []string{"I", "L"}})
			if two.GetSolvable() {
				t.Errorf("2 x 5 by I and L: %v, want no tiling", two)
			}
		})
	}
}

// checkSolution checks that a solution covers shape exactly, one piece per cell.
func checkSolution(t *testing.T, shape []*rulebookv1.PuzzleCell, resp *rulebookv1.SolvePuzzleResponse) {
	t.Helper()
	if !resp.GetSolvable() || len(resp.GetSolution()) == 0 {
		t.Fatalf("no solution: %v", resp)
	}
	want := map[polyomino.Cell]bool{}
	for _, c := range shape {
		want[polyomino.Cell{X: int(c.GetX()), Y: int(c.GetY())}] = true
	}
	covered := map[polyomino.Cell]string{}
	for _, p := range resp.GetSolution() {
		for _, c := range p.GetCells() {
			cell := polyomino.Cell{X: int(c.GetX()), Y: int(c.GetY())}
			if !want[cell] || covered[cell] != "" {
				t.Errorf("piece %s covers %v, outside the shape or twice", p.GetName(), cell)
			}
			covered[cell] = p.GetName()
		}
	}
	if len(covered) != len(want) {
		t.Errorf("the solution covers %d of %d cells", len(covered), len(want))
	}
}

// TestSolvePuzzleErrors checks each way a puzzle request is refused, over gRPC and REST.
func TestSolvePuzzleErrors(t *testing.T) {
	ts := startServer(t, testConfig())
	tests := []struct {
		name string
		req  *rulebookv1.SolvePuzzleRequest
		want servertest.WantError
	}{
		{"no pieces", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2)},
			servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "MISSING_FIELD", Field: "pieces"}},
		{"empty shape", &rulebookv1.SolvePuzzleRequest{Pieces: pentominoes},
			servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "EMPTY_SHAPE", Field: "shape"}},
		{"shape too large", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(13, 5), Pieces: pentominoes},
			servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "SHAPE_TOO_LARGE", Field: "shape"}},
		{"unknown set", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2),
			Pieces: &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: "tetrominoes"}},
			servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "UNKNOWN_PIECE_SET", Field: "namedSet"}},
		{"unknown piece", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(5, 1), Pieces: pentominoes, Select: []string{"Q"}},
			servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "UNKNOWN_PIECE", Field: "select[0]"}},
		{"area mismatch", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(3, 3), Pieces: pentominoes, Select: []string{"I"}},
			servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "AREA_MISMATCH", Field: "pieces"}},
		{"disconnected piece", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 1), Pieces: &rulebookv1.SolvePuzzleRequest_Custom{
			Custom: &rulebookv1.PuzzlePieceSet{Pieces: []*rulebookv1.PuzzlePiece{{Name: "gap", Cells: []*rulebookv1.PuzzleCell{{X: 0}, {X: 2}}}}}}},
			servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "PIECE_DISCONNECTED", Field: "pieces"}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/gRPC", func(t *testing.T) {
			_, err := ts.RPC.SolvePuzzle(servertest.CallContext(t), tt.req)
			servertest.CheckStatus(t, status.Convert(err).Proto(), tt.want.Code, tt.want)
		})
		t.Run(tt.name+"/REST", func(t *testing.T) {
			body, err := protojson.Marshal(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			code, out := ts.Post(t, "/v1/puzzles:solve", string(body))
			if code != tt.want.HTTPCode {
				t.Errorf("HTTP %d, want %d: %s", code, tt.want.HTTPCode, out)
			}
		})
	}
}

// TestSolvePuzzleDeadline checks that a search stops at the caller's deadline.
func TestSolvePuzzleDeadline(t *testing.T) {
	ts := startServer(t, testConfig())
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err := ts.RPC.SolvePuzzle(ctx, &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(10, 6), Pieces: pentominoes,
		Goal: rulebookv1.PuzzleGoal_PUZZLE_GOAL_COUNT})
	if code := status.Code(err); code != codes.DeadlineExceeded {
		t.Errorf("counting 6 x 10 within a millisecond: %v, want DEADLINE_EXCEEDED", err)
	}
}

// TestListPieceSets lists the named piece sets over gRPC and over REST: the same answer, the sets by name with their
// pieces (12 pentominoes, 21 Ubongo pieces).
func TestListPieceSets(t *testing.T) {
	ts := startServer(t, testConfig())
	viaRPC := servertest.Succeeded(ts.RPC.ListPieceSets(servertest.CallContext(t), &rulebookv1.ListPieceSetsRequest{}))(t)
	code, body := ts.Get(t, "/v1/puzzles/pieceSets")
	if code != http.StatusOK {
		t.Fatalf("GET /v1/puzzles/pieceSets: HTTP %d: %s", code, body)
	}
	viaREST := &rulebookv1.ListPieceSetsResponse{}
	if err := protojson.Unmarshal(body, viaREST); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if !proto.Equal(viaRPC, viaREST) {
		t.Errorf("gRPC answers %v, REST %v", viaRPC, viaREST)
	}
	var got []string
	for _, set := range viaRPC.GetSets() {
		got = append(got, set.GetName()+":"+strconv.Itoa(len(set.GetPieces())))
	}
	if want := []string{"pentominoes:12", "ubongo:21"}; !slices.Equal(got, want) {
		t.Errorf("sets %v, want %v", got, want)
	}
}
