package polyomino

import "fmt"

// Limits of the solver.
const (
	// MaxShapeCells is the most cells a shape may have: one bit of a uint64 each.
	MaxShapeCells = 64
	// MaxPieces is the most pieces a set may have: one bit of a uint64 each.
	MaxPieces = 64
)

// Piece is a free polyomino: a name (a label such as "F" or "A") and its cells, in any position and order. The
// solver places it in each of its fixed orientations (see Orientations), so where its cells sit does not matter.
type Piece struct {
	Name  string
	Cells Cells
}

// Orientations returns the distinct fixed orientations of p (see the function Orientations).
func (p Piece) Orientations(mirror bool) []Cells { return Orientations(p.Cells, mirror) }

// Size returns the number of cells of p.
func (p Piece) Size() int { return len(p.Cells) }

// Check returns an *Error if p is not a polyomino: no cells, more than MaxShapeCells, a cell listed twice, a
// coordinate out of range, or cells not connected through shared edges.
func (p Piece) Check() error {
	what := fmt.Sprintf("piece %q", p.Name)
	switch {
	case len(p.Cells) == 0:
		return errorf(ReasonEmptyPiece, "%s has no cell", what)
	case len(p.Cells) > MaxShapeCells:
		return errorf(ReasonPieceTooLarge, "%s has %d cells, more than %d", what, len(p.Cells), MaxShapeCells)
	}
	if err := checkCells(p.Cells, what); err != nil {
		return err
	}
	if !p.Cells.Connected() {
		return errorf(ReasonPieceDisconnected, "%s is not connected: %v", what, p.Cells)
	}
	return nil
}

// Set is a collection of pieces, each to be used at most once, and whether they may be turned over.
type Set struct {
	// Name labels the set ("pentominoes", "ubongo").
	Name string
	// Pieces are the pieces, in the order that gives them their indexes.
	Pieces []Piece
	// Mirror allows turning the pieces over: a piece is placed in its reflections as well as its rotations.
	Mirror bool
}

// Area returns the total number of cells of the pieces.
func (s Set) Area() int {
	n := 0
	for _, p := range s.Pieces {
		n += len(p.Cells)
	}
	return n
}

// Placements returns the number of distinct fixed orientations of the pieces, summed over the pieces: how many
// ways of laying down a piece, up to translation, the set offers.
func (s Set) Placements() int {
	n := 0
	for _, p := range s.Pieces {
		n += len(p.Orientations(s.Mirror))
	}
	return n
}

// Check returns an *Error if s has no pieces, more than MaxPieces, or a piece that fails Piece.Check.
func (s Set) Check() error {
	switch {
	case len(s.Pieces) == 0:
		return errorf(ReasonNoPieces, "the piece set %q has no pieces", s.Name)
	case len(s.Pieces) > MaxPieces:
		return errorf(ReasonTooManyPieces, "the piece set %q has %d pieces, more than %d", s.Name, len(s.Pieces), MaxPieces)
	}
	for _, p := range s.Pieces {
		if err := p.Check(); err != nil {
			return err
		}
	}
	return nil
}

// Subset returns the set of the pieces at the given indexes, in that order, with the same Mirror option.
func (s Set) Subset(indexes ...int) Set {
	out := Set{Name: s.Name, Mirror: s.Mirror, Pieces: make([]Piece, len(indexes))}
	for i, k := range indexes {
		out.Pieces[i] = s.Pieces[k]
	}
	return out
}
