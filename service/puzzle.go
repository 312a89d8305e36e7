package service

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
)

// Reason codes of SolvePuzzle, besides those of package polyomino (EMPTY_SHAPE, SHAPE_TOO_LARGE, AREA_MISMATCH, ...).
const (
	// ReasonUnknownPieceSet: named_set is not a set the service knows.
	ReasonUnknownPieceSet = "UNKNOWN_PIECE_SET"
	// ReasonUnknownPiece: select names a piece that is not in the set, or names one twice.
	ReasonUnknownPiece = "UNKNOWN_PIECE"
	// ReasonSearchTooLarge: the search needed more work than the server allows a call.
	ReasonSearchTooLarge = "SEARCH_TOO_LARGE"
)

// defaultPuzzleNodeLimit bounds the pieces one SolvePuzzle call may place while searching: enough to count every
// tiling of a 6 x 10 rectangle by the 12 pentominoes several times over, and a few seconds of one core at most.
const defaultPuzzleNodeLimit = 200_000_000

// namedSets are the piece sets SolvePuzzle knows by name.
var namedSets = map[string]func() polyomino.Set{"pentominoes": polyomino.Pentominoes, "ubongo": polyomino.Ubongo}

// SolvePuzzle tiles a shape with a set of pieces: one solution, or the number of solutions.
func (s *Service) SolvePuzzle(ctx context.Context, req *rulebookv1.SolvePuzzleRequest) (*rulebookv1.SolvePuzzleResponse, error) {
	if err := s.validate(req); err != nil {
		return nil, err
	}
	if n := len(req.GetShape()); n > polyomino.MaxShapeCells {
		return nil, refusal.Field(polyomino.ReasonShapeTooLarge, "shape",
			"the shape has "+strconv.Itoa(n)+" cells, more than "+strconv.Itoa(polyomino.MaxShapeCells))
	}
	shape := cellsFromProto(req.GetShape())
	if err := polyomino.CheckShape(shape); err != nil {
		return nil, puzzleError(err, "shape")
	}
	set, err := pieceSet(req)
	if err != nil {
		return nil, err
	}
	var explored int64
	defer func() { s.cfg.Observer.PuzzleSearched(explored) }()
	// One goroutine a search: a heavy call takes one CPU, so that a server's limit on heavy calls is their share of
	// its CPUs (a count on every CPU would leave light calls none).
	opts := polyomino.Options{NodeLimit: s.cfg.PuzzleNodeLimit, Explored: &explored, Workers: 1}
	if req.GetGoal() == rulebookv1.PuzzleGoal_PUZZLE_GOAL_COUNT {
		n, err := polyomino.Count(ctx, shape, set, opts)
		if err != nil {
			return nil, puzzleError(err, "pieces")
		}
		return &rulebookv1.SolvePuzzleResponse{Solvable: n > 0, Count: uint64(n)}, nil
	}
	solution, ok, err := polyomino.Find(ctx, shape, set, opts)
	if err != nil {
		return nil, puzzleError(err, "pieces")
	}
	resp := &rulebookv1.SolvePuzzleResponse{Solvable: ok}
	for i, cells := range solution {
		if cells != nil {
			resp.Solution = append(resp.Solution, &rulebookv1.PuzzlePiece{Name: set.Pieces[i].Name, Cells: cellsProto(cells)})
		}
	}
	return resp, nil
}

// ListPieceSets lists the named piece sets, ordered by name, each with its pieces in the set's order and their cells
// as SolvePuzzle reads a custom piece's.
func (s *Service) ListPieceSets(context.Context, *rulebookv1.ListPieceSetsRequest) (*rulebookv1.ListPieceSetsResponse, error) {
	resp := &rulebookv1.ListPieceSetsResponse{}
	for _, name := range slices.Sorted(maps.Keys(namedSets)) {
		set := &rulebookv1.PuzzleNamedSet{Name: name}
		for _, p := range namedSets[name]().Pieces {
			set.Pieces = append(set.Pieces, &rulebookv1.PuzzlePiece{Name: p.Name, Cells: cellsProto(p.Cells)})
		}
		resp.Sets = append(resp.Sets, set)
	}
	return resp, nil
}

// pieceSet returns the pieces a request asks for, checked.
func pieceSet(req *rulebookv1.SolvePuzzleRequest) (polyomino.Set, error) {
	var set polyomino.Set
	switch p := req.GetPieces().(type) {
	case *rulebookv1.SolvePuzzleRequest_NamedSet:
		named, ok := namedSets[p.NamedSet]
		if !ok {
			return set, refusal.Field(ReasonUnknownPieceSet, "namedSet", `unknown piece set `+strconv.Quote(p.NamedSet)+
				`; the named sets are "pentominoes" and "ubongo"`)
		}
		set = named()
	case *rulebookv1.SolvePuzzleRequest_Custom:
		if n := len(p.Custom.GetPieces()); n > polyomino.MaxPieces {
			return set, refusal.Field(polyomino.ReasonTooManyPieces, "custom.pieces",
				"the set has "+strconv.Itoa(n)+" pieces, more than "+strconv.Itoa(polyomino.MaxPieces))
		}
		set.Name = "custom"
		for i, piece := range p.Custom.GetPieces() {
			if n := len(piece.GetCells()); n > polyomino.MaxShapeCells {
				return set, refusal.Field(polyomino.ReasonPieceTooLarge, "custom.pieces["+strconv.Itoa(i)+"].cells",
					"the piece has "+strconv.Itoa(n)+" cells, more than any shape")
			}
			set.Pieces = append(set.Pieces, polyomino.Piece{Name: piece.GetName(), Cells: cellsFromProto(piece.GetCells())})
		}
	default:
		return set, missingField("pieces")
	}
	set.Mirror = !req.GetNoReflection()
	if selected := req.GetSelect(); len(selected) > 0 {
		indexes := make([]int, 0, len(selected))
		for i, name := range selected {
			k := slices.IndexFunc(set.Pieces, func(p polyomino.Piece) bool { return p.Name == name })
			if k < 0 || slices.Contains(indexes, k) {
				return set, refusal.Field(ReasonUnknownPiece, "select["+strconv.Itoa(i)+"]",
					"piece "+strconv.Quote(name)+" is not in the set, or is selected twice")
			}
			indexes = append(indexes, k)
		}
		set = set.Subset(indexes...)
	}
	if err := set.Check(); err != nil {
		return set, puzzleError(err, "pieces")
	}
	return set, nil
}

// puzzleError turns a failure of package polyomino about field into the caller's status: INVALID_ARGUMENT for a
// malformed puzzle, FAILED_PRECONDITION past the node limit (the same
// puzzle is refused again: a retry cannot help), and the context's own code when the deadline passed.
func puzzleError(err error, field string) error {
	var e *polyomino.Error
	switch {
	case errors.As(err, &e) && e.Reason == polyomino.ReasonNodeLimitReached:
		return refusal.New(codes.FailedPrecondition, ReasonSearchTooLarge, "the search needs more work than a call may do", nil)
	case errors.As(err, &e):
		return refusal.Field(e.Reason, field, e.Message)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return status.FromContextError(err).Err()
	}
	return ErrInternal
}

// cellsFromProto converts cells of a request.
func cellsFromProto(cells []*rulebookv1.PuzzleCell) polyomino.Cells {
	out := make(polyomino.Cells, len(cells))
	for i, c := range cells {
		out[i] = polyomino.Cell{X: int(c.GetX()), Y: int(c.GetY())}
	}
	return out
}

// cellsProto converts cells for a response.
func cellsProto(cells polyomino.Cells) []*rulebookv1.PuzzleCell {
	out := make([]*rulebookv1.PuzzleCell, len(cells))
	for i, c := range cells {
		out[i] = &rulebookv1.PuzzleCell{X: int32(c.X), Y: int32(c.Y)}
	}
	return out
}
