package kipicot

// Reason codes of the errors this package returns. They are stable: clients may switch on them.
const (
	// ReasonOptionOutOfRange (Invalid): antiStallRounds outside 0..10 or endThreshold outside 0..19.
	ReasonOptionOutOfRange = "OPTION_OUT_OF_RANGE"
	// ReasonRulesVersionUnsupported (Invalid): a state made under rules this release does not know.
	ReasonRulesVersionUnsupported = "RULES_VERSION_UNSUPPORTED"
	// ReasonBoardSizeMismatch (Invalid): the board does not have 25 squares.
	ReasonBoardSizeMismatch = "BOARD_SIZE_MISMATCH"
	// ReasonStackTooHigh (Invalid): a square holds more than two tokens.
	ReasonStackTooHigh = "STACK_TOO_HIGH"
	// ReasonColorInvalid (Invalid): a token, or a placement, has a colour that is neither red nor yellow.
	ReasonColorInvalid = "COLOR_INVALID"
	// ReasonStackSameColor (Invalid): a stack of two tokens of the same colour, which no placement makes.
	ReasonStackSameColor = "STACK_SAME_COLOR"
	// ReasonPawnOutOfRange (Invalid): a square's pawn is neither 0 (none) nor a player.
	ReasonPawnOutOfRange = "PAWN_OUT_OF_RANGE"
	// ReasonPawnOnEmptySquare (Invalid): a pawn stands on a square without tokens.
	ReasonPawnOnEmptySquare = "PAWN_ON_EMPTY_SQUARE"
	// ReasonPawnDuplicated (Invalid): one player's pawn stands on two squares.
	ReasonPawnDuplicated = "PAWN_DUPLICATED"
	// ReasonCapturedSizeMismatch (Invalid): the catches are not one entry per player.
	ReasonCapturedSizeMismatch = "CAPTURED_SIZE_MISMATCH"
	// ReasonCountOutOfRange (Invalid): a supply or a catch counts more tokens of a colour than the game has, or a
	// player's catch holds 1 or 2 tokens (a fishing square takes at least 3).
	ReasonCountOutOfRange = "COUNT_OUT_OF_RANGE"
	// ReasonTokenCountMismatch (Invalid): supply, board and catches do not hold exactly 20 tokens of a colour.
	ReasonTokenCountMismatch = "TOKEN_COUNT_MISMATCH"
	// ReasonPhaseInvalid (Invalid): the phase is not one of KipicotPhase's values.
	ReasonPhaseInvalid = "PHASE_INVALID"
	// ReasonToMoveInvalid (Invalid): the player to move is not a player while the game goes on, or not 0 once it
	// is over.
	ReasonToMoveInvalid = "TO_MOVE_INVALID"
	// ReasonPhaseInconsistent (Invalid): the phase does not follow from the position (a game going on with a supply
	// at the end threshold, a game over without, a supply below it or both at it after step 2, step 1 with the last
	// mover's pawn in a fishing square of theirs, a pawn step with no target, a fishing choice without two fishing
	// squares).
	ReasonPhaseInconsistent = "PHASE_INCONSISTENT"
	// ReasonStallCountOutOfRange (Invalid): more turns without a placement than the anti-stall rule allows (any but
	// 0 when it is off, once the game is over, or right after a placement that brought a supply to the threshold).
	ReasonStallCountOutOfRange = "STALL_COUNT_OUT_OF_RANGE"
	// ReasonPawnOffBoard (Invalid): a player's pawn is off the board though they have played a pawn step and caught
	// nothing (a pawn leaves the board only with a catch).
	ReasonPawnOffBoard = "PAWN_OFF_BOARD"
	// ReasonTooFewTaken (Invalid): fewer tokens have left the supply than the position needs: 4 for a catch (a
	// fishing square), 3 for a turn without a placement (the first three turns must place).
	ReasonTooFewTaken = "TOO_FEW_TAKEN"
	// ReasonPlayerOutOfRange (Invalid): the moving player (or a requested player or viewer) is not a player.
	ReasonPlayerOutOfRange = "PLAYER_OUT_OF_RANGE"
	// ReasonStepMissing (Invalid): a move or a step of a turn that says nothing.
	ReasonStepMissing = "STEP_MISSING"
	// ReasonSquareOffBoard (Invalid): a square outside the 5 x 5 board.
	ReasonSquareOffBoard = "SQUARE_OFF_BOARD"
	// ReasonBlockOffBoard (Invalid): a fishing square's corner outside rows and columns 0..3.
	ReasonBlockOffBoard = "BLOCK_OFF_BOARD"
	// ReasonTurnEmpty (Invalid): a turn with no step.
	ReasonTurnEmpty = "TURN_EMPTY"
	// ReasonTurnTooLong (Invalid): a turn with more than four steps.
	ReasonTurnTooLong = "TURN_TOO_LONG"
	// ReasonGameMismatch (Invalid): an envelope (options, state or move) does not hold a Kipicot message.
	ReasonGameMismatch = "GAME_MISMATCH"

	// ReasonGameOver (Illegal): the game is over; nobody may move.
	ReasonGameOver = "GAME_OVER"
	// ReasonNotYourTurn (Illegal): the other player is to move.
	ReasonNotYourTurn = "NOT_YOUR_TURN"
	// ReasonWrongPhase (Illegal): the step does not belong to the phase of the turn (a pawn step before step 2, ...).
	ReasonWrongPhase = "WRONG_PHASE"
	// ReasonNoToken (Illegal): a token move from a square without tokens.
	ReasonNoToken = "NO_TOKEN"
	// ReasonTokenFrozen (Illegal): a move of, or a placement on, tokens that carry a pawn.
	ReasonTokenFrozen = "TOKEN_FROZEN"
	// ReasonDestinationOccupied (Illegal): a token move to a square that is not empty.
	ReasonDestinationOccupied = "DESTINATION_OCCUPIED"
	// ReasonSingleMovesOneStep (Illegal): a single token moving other than one square orthogonally.
	ReasonSingleMovesOneStep = "SINGLE_MOVES_ONE_STEP"
	// ReasonStackMovesInLine (Illegal): a stack's top (or a whole stack) moving off its row and column.
	ReasonStackMovesInLine = "STACK_MOVES_IN_LINE"
	// ReasonStackFull (Illegal): a placement on a stack of two.
	ReasonStackFull = "STACK_FULL"
	// ReasonStackNeedsOtherColor (Illegal): a placement on a single token of the same colour.
	ReasonStackNeedsOtherColor = "STACK_NEEDS_OTHER_COLOR"
	// ReasonPlacementRequired (Illegal): the anti-stall rule demands a placement in step 2, not a move.
	ReasonPlacementRequired = "PLACEMENT_REQUIRED"
	// ReasonPawnTargetEmpty (Illegal): a pawn step to a square without tokens.
	ReasonPawnTargetEmpty = "PAWN_TARGET_EMPTY"
	// ReasonPawnTargetTaken (Illegal): a pawn step onto the opponent's pawn.
	ReasonPawnTargetTaken = "PAWN_TARGET_TAKEN"
	// ReasonPawnMustMove (Illegal): a pawn step that leaves the pawn where it is, without the pawnMayStay option.
	ReasonPawnMustMove = "PAWN_MUST_MOVE"
	// ReasonNotAFishingSquare (Illegal): a fishing choice of a block that does not qualify.
	ReasonNotAFishingSquare = "NOT_A_FISHING_SQUARE"
	// ReasonTurnAlreadyOver (Illegal): a turn with steps left after its turn (or the game) ended.
	ReasonTurnAlreadyOver = "TURN_ALREADY_OVER"
	// ReasonTurnIncomplete (Illegal): a turn whose steps stop before the turn ends.
	ReasonTurnIncomplete = "TURN_INCOMPLETE"
)
