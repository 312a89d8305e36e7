package ubongoduel

// Reason codes of the errors this package returns. They are stable: clients may switch on them.
const (
	// ReasonOptionOutOfRange (Invalid): an unknown side, or a tie window outside 0..10000 ms.
	ReasonOptionOutOfRange = "OPTION_OUT_OF_RANGE"
	// ReasonRulesVersionUnsupported (Invalid): a state made under rules this release does not play: an unknown version,
	// or version 1, whose die (a splitmix64 word) version 2 replaced.
	ReasonRulesVersionUnsupported = "RULES_VERSION_UNSUPPORTED"
	// ReasonGameMismatch (Invalid): an envelope (options, state or move) does not hold an Ubongo Duel message.
	ReasonGameMismatch = "GAME_MISMATCH"
	// ReasonStateIsView (Invalid): a view was given where a full state is needed (to move, list moves or view again).
	ReasonStateIsView = "STATE_IS_VIEW"
	// ReasonDeckVersionUnknown (Invalid): the state names a deck version this release does not have.
	ReasonDeckVersionUnknown = "DECK_VERSION_UNKNOWN"
	// ReasonPlayersMismatch (Invalid): the state has not exactly two player entries.
	ReasonPlayersMismatch = "PLAYERS_MISMATCH"
	// ReasonScoreOutOfRange (Invalid): duels won outside 0..5, both players at 5, or rolls solved beyond the duel's.
	ReasonScoreOutOfRange = "SCORE_OUT_OF_RANGE"
	// ReasonSheetOutOfRange (Invalid): a sheet outside 1..9.
	ReasonSheetOutOfRange = "SHEET_OUT_OF_RANGE"
	// ReasonSheetMismatch (Invalid): the sheet is not one more than the duels decided (the last one played once the
	// game is over).
	ReasonSheetMismatch = "SHEET_MISMATCH"
	// ReasonFaceOutOfRange (Invalid): a die face outside 1..20.
	ReasonFaceOutOfRange = "FACE_OUT_OF_RANGE"
	// ReasonRollsMismatch (Invalid): not one face in a one-roll duel and two in a catch-up duel (none once over), or a
	// leader who is not the one the scores and options make.
	ReasonRollsMismatch = "ROLLS_MISMATCH"
	// ReasonTaskMismatch (Invalid): a listed task differs from the deck's task for its face.
	ReasonTaskMismatch = "TASK_MISMATCH"
	// ReasonPhaseInvalid (Invalid): gave-up marks, a pending win, receive times or the winner that no play reaches.
	ReasonPhaseInvalid = "PHASE_INVALID"
	// ReasonViewRevealsHidden (Invalid): a view holds the die's state.
	ReasonViewRevealsHidden = "VIEW_REVEALS_HIDDEN"
	// ReasonDieStateInvalid (Invalid): a full state's die is not a ChaCha8 generator's state in its 48-byte
	// MarshalBinary encoding (missing, cut short, altered beyond what the generator can read, or in another encoding).
	ReasonDieStateInvalid = "DIE_STATE_INVALID"
	// ReasonPlayerOutOfRange (Invalid): the moving player or a viewer is not player 1 or 2 (a viewer may be 0, a
	// spectator), or a full state names a viewer.
	ReasonPlayerOutOfRange = "PLAYER_OUT_OF_RANGE"
	// ReasonMoveEmpty (Invalid): the move names no action.
	ReasonMoveEmpty = "MOVE_EMPTY"
	// ReasonReceivedAtNegative (Invalid): a receive time before 1970.
	ReasonReceivedAtNegative = "RECEIVED_AT_NEGATIVE"
	// ReasonSubmissionTooLarge (Invalid): more than 21 placements or 64 cells in a submission.
	ReasonSubmissionTooLarge = "SUBMISSION_TOO_LARGE"
	// ReasonPieceUnknown (Invalid): a placement names no Ubongo piece (A to U).
	ReasonPieceUnknown = "PIECE_UNKNOWN"

	// ReasonGameOver (Illegal): the game is over; nobody may move.
	ReasonGameOver = "GAME_OVER"
	// ReasonReceivedAtOutOfOrder (Illegal): the move was received before the state's last accepted move.
	ReasonReceivedAtOutOfOrder = "RECEIVED_AT_OUT_OF_ORDER"
	// ReasonAlreadySolved (Illegal): the mover's winning solution is pending; only closing the duel is left.
	ReasonAlreadySolved = "ALREADY_SOLVED"
	// ReasonAlreadyGaveUp (Illegal): the mover gave up this duel.
	ReasonAlreadyGaveUp = "ALREADY_GAVE_UP"
	// ReasonWrongPiece (Illegal): a placement uses a piece that is not in the mover's task.
	ReasonWrongPiece = "WRONG_PIECE"
	// ReasonPieceUsedTwice (Illegal): two placements use the same piece.
	ReasonPieceUsedTwice = "PIECE_USED_TWICE"
	// ReasonNotCongruent (Illegal): a placement's cells are not the piece, rotated or turned over.
	ReasonNotCongruent = "NOT_CONGRUENT"
	// ReasonCellOutsideShape (Illegal): a placement covers a cell outside the sheet's shape.
	ReasonCellOutsideShape = "CELL_OUTSIDE_SHAPE"
	// ReasonOverlap (Illegal): a cell is covered by two placements.
	ReasonOverlap = "OVERLAP"
	// ReasonPieceMissing (Illegal): a piece of the task is not placed.
	ReasonPieceMissing = "PIECE_MISSING"
	// ReasonNotCovered (Illegal): a cell of the shape is left uncovered although every piece is placed (only a deck
	// whose task does not have the shape's area allows it).
	ReasonNotCovered = "NOT_COVERED"
	// ReasonNoPendingWin (Illegal): closing a duel with no pending win.
	ReasonNoPendingWin = "NO_PENDING_WIN"
	// ReasonTieWindowOpen (Illegal): closing a duel before its tie window has passed.
	ReasonTieWindowOpen = "TIE_WINDOW_OPEN"
)
