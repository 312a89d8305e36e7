package polyomino

import "fmt"

// Reason codes of the errors this package returns. They are stable: callers may switch on them, and a game engine may
// pass them on as the reasons of its own refusals.
const (
	// ReasonEmptyShape: the shape has no cell.
	ReasonEmptyShape = "EMPTY_SHAPE"
	// ReasonShapeTooLarge: the shape has more than MaxShapeCells cells.
	ReasonShapeTooLarge = "SHAPE_TOO_LARGE"
	// ReasonDuplicateCell: a shape or a piece lists a cell twice.
	ReasonDuplicateCell = "DUPLICATE_CELL"
	// ReasonCoordinateOutOfRange: a coordinate is outside -MaxCoord..MaxCoord.
	ReasonCoordinateOutOfRange = "COORDINATE_OUT_OF_RANGE"
	// ReasonEmptyPiece: a piece has no cell.
	ReasonEmptyPiece = "EMPTY_PIECE"
	// ReasonPieceTooLarge: a piece has more than MaxShapeCells cells, so it fits no shape.
	ReasonPieceTooLarge = "PIECE_TOO_LARGE"
	// ReasonPieceDisconnected: a piece's cells are not connected through shared edges.
	ReasonPieceDisconnected = "PIECE_DISCONNECTED"
	// ReasonNoPieces: the piece set is empty.
	ReasonNoPieces = "NO_PIECES"
	// ReasonTooManyPieces: the piece set has more than MaxPieces pieces.
	ReasonTooManyPieces = "TOO_MANY_PIECES"
	// ReasonAreaMismatch: Count or Find got pieces whose total area differs from the shape's.
	ReasonAreaMismatch = "AREA_MISMATCH"
	// ReasonSubsetSizeOutOfRange: TilingSubsets got k outside 1..len(pieces).
	ReasonSubsetSizeOutOfRange = "SUBSET_SIZE_OUT_OF_RANGE"
	// ReasonNodeLimitReached: the search needed more nodes than Options.NodeLimit.
	ReasonNodeLimitReached = "NODE_LIMIT_REACHED"
)

// Error is a refusal of this package: a stable reason code and a sentence for people. Cancellation is not an Error:
// a search stopped by its context returns ctx.Err() itself.
type Error struct {
	// Reason is one of the Reason constants.
	Reason string
	// Message is a human sentence naming the facts.
	Message string
}

// Error returns the human sentence.
func (e *Error) Error() string { return e.Message }

// errorf returns an *Error with the given reason and a formatted message.
func errorf(reason, format string, args ...any) *Error {
	return &Error{Reason: reason, Message: "polyomino: " + fmt.Sprintf(format, args...)}
}
