package exploze

// Reason codes of the errors this package returns. They are stable: clients may switch on them.
const (
	// ReasonOptionOutOfRange (Invalid): rows or cols outside 2..32, or players outside 2..8 or above rows x cols.
	ReasonOptionOutOfRange = "OPTION_OUT_OF_RANGE"
	// ReasonRulesVersionUnsupported (Invalid): a state made under rules this release does not know.
	ReasonRulesVersionUnsupported = "RULES_VERSION_UNSUPPORTED"
	// ReasonBoardSizeMismatch (Invalid): a list of the board, owners or stones, does not have rows x cols entries.
	ReasonBoardSizeMismatch = "BOARD_SIZE_MISMATCH"
	// ReasonMovesOutOfRange (Invalid): more moves played than any game on the board can last, or fewer than none.
	ReasonMovesOutOfRange = "MOVES_OUT_OF_RANGE"
	// ReasonStonesOutOfRange (Invalid): a cell holds a negative count, or more stones than any game can put down.
	ReasonStonesOutOfRange = "STONES_OUT_OF_RANGE"
	// ReasonOwnerOutOfRange (Invalid): a cell's owner is not a player of the game.
	ReasonOwnerOutOfRange = "OWNER_OUT_OF_RANGE"
	// ReasonCellOwnerMismatch (Invalid): a cell with stones has no owner, or an empty cell has one.
	ReasonCellOwnerMismatch = "CELL_OWNER_MISMATCH"
	// ReasonStoneCountMismatch (Invalid): the stones on the board do not add up to the moves played.
	ReasonStoneCountMismatch = "STONE_COUNT_MISMATCH"
	// ReasonFirstRoundMismatch (Invalid): until every player has placed once (and right after), each player who has
	// placed holds exactly one cell with one stone and nobody else holds any; the board breaks this.
	ReasonFirstRoundMismatch = "FIRST_ROUND_MISMATCH"
	// ReasonUnstableCell (Invalid): a cell holds its critical number of stones or more in a game that is not over.
	ReasonUnstableCell = "UNSTABLE_CELL"
	// ReasonToMoveInvalid (Invalid): the player to move does not follow from the position (round one goes in seat
	// order, later it is a player still in the game, and nobody once the game is over).
	ReasonToMoveInvalid = "TO_MOVE_INVALID"
	// ReasonLastMoverStones (Invalid): after round one, the player who made the last move (the one before the player
	// to move, or the winner) holds fewer than 2 stones.
	ReasonLastMoverStones = "LAST_MOVER_STONES"
	// ReasonWinnerMismatch (Invalid): a finished game whose winner is not the player who made the last move, where
	// that player is known: in a two-player game (player 1 makes the odd moves), or on the first move past round one
	// (player 1's).
	ReasonWinnerMismatch = "WINNER_MISMATCH"
	// ReasonFinalWaveMissing (Invalid): a finished game whose board has no cell with stones on every neighbour, which
	// the wave that ended the game leaves.
	ReasonFinalWaveMissing = "FINAL_WAVE_MISSING"
	// ReasonPlayerOutOfRange (Invalid): the moving player is not a player of the game.
	ReasonPlayerOutOfRange = "PLAYER_OUT_OF_RANGE"
	// ReasonCellOffBoard (Invalid): the move's row or column is outside the board.
	ReasonCellOffBoard = "CELL_OFF_BOARD"
	// ReasonGameMismatch (Invalid): an envelope (options, state or move) does not hold an Exploze message.
	ReasonGameMismatch = "GAME_MISMATCH"

	// ReasonGameOver (Illegal): the game is over; nobody may move.
	ReasonGameOver = "GAME_OVER"
	// ReasonNotYourTurn (Illegal): another player is to move.
	ReasonNotYourTurn = "NOT_YOUR_TURN"
	// ReasonCellOwnedByOpponent (Illegal): the cell holds another player's stones.
	ReasonCellOwnedByOpponent = "CELL_OWNED_BY_OPPONENT"

	// ReasonExplosionCapExceeded (Internal): a chain reaction reached the proven bound on explosions, which only a bug
	// can do.
	ReasonExplosionCapExceeded = "EXPLOSION_CAP_EXCEEDED"
)
