package micropul

// Reason codes of the errors this package returns. They are stable: clients may switch on them.
const (
	// ReasonOptionOutOfRange (Invalid): players outside 1..2, or an unknown rule set.
	ReasonOptionOutOfRange = "OPTION_OUT_OF_RANGE"
	// ReasonRulesVersionUnsupported (Invalid): a state made under rules this release does not know.
	ReasonRulesVersionUnsupported = "RULES_VERSION_UNSUPPORTED"
	// ReasonGameMismatch (Invalid): an envelope (options, state or move) does not hold a Micropul message.
	ReasonGameMismatch = "GAME_MISMATCH"
	// ReasonStateIsView (Invalid): a player's view was given where a full state is needed (to move, list moves or
	// view again).
	ReasonStateIsView = "STATE_IS_VIEW"
	// ReasonPlayersMismatch (Invalid): the state has not one entry per player of its options.
	ReasonPlayersMismatch = "PLAYERS_MISMATCH"
	// ReasonCountMismatch (Invalid): a count (core, hand or supply) differs from the tiles listed in a full state.
	ReasonCountMismatch = "COUNT_MISMATCH"
	// ReasonViewRevealsHidden (Invalid): a view lists tiles its viewer may not see (core, supplies, another hand).
	ReasonViewRevealsHidden = "VIEW_REVEALS_HIDDEN"
	// ReasonTileOutOfRange (Invalid): a tile id outside 0..47.
	ReasonTileOutOfRange = "TILE_OUT_OF_RANGE"
	// ReasonTileDuplicate (Invalid): a tile id appears twice among board, hands, supplies and core.
	ReasonTileDuplicate = "TILE_DUPLICATE"
	// ReasonTilesMissing (Invalid): board, hands, supplies and core do not hold the 48 tiles.
	ReasonTilesMissing = "TILES_MISSING"
	// ReasonHandNotSorted (Invalid): a hand's tile ids are not in ascending order.
	ReasonHandNotSorted = "HAND_NOT_SORTED"
	// ReasonHandTooLarge (Invalid): a hand holds more than 6 tiles.
	ReasonHandTooLarge = "HAND_TOO_LARGE"
	// ReasonCoreTooLarge (Invalid): the core holds more tiles than remain after the deal (35, or 41 solo).
	ReasonCoreTooLarge = "CORE_TOO_LARGE"
	// ReasonStartTileMisplaced (Invalid): the board does not start with tile 40 at (0, 0), rotation 0.
	ReasonStartTileMisplaced = "START_TILE_MISPLACED"
	// ReasonRotationOutOfRange (Invalid): a rotation outside 0..3.
	ReasonRotationOutOfRange = "ROTATION_OUT_OF_RANGE"
	// ReasonRotationNotCanonical (Invalid): a tile of a state's board at a rotation that gives the same oriented tile
	// as a smaller one (play records the smallest; a move may name any rotation).
	ReasonRotationNotCanonical = "ROTATION_NOT_CANONICAL"
	// ReasonPositionOutOfRange (Invalid): a coordinate farther than 47 from the start tile, where no tile can lie.
	ReasonPositionOutOfRange = "POSITION_OUT_OF_RANGE"
	// ReasonPositionDuplicate (Invalid): two tiles of the board at one position.
	ReasonPositionDuplicate = "POSITION_DUPLICATE"
	// ReasonBoardDisconnected (Invalid): a tile of the board touches no tile placed before it.
	ReasonBoardDisconnected = "BOARD_DISCONNECTED"
	// ReasonBoardColorConflict (Invalid): a black micropul touches a white one across an edge on the board.
	ReasonBoardColorConflict = "BOARD_COLOR_CONFLICT"
	// ReasonBoardNoColorMatch (Invalid): a tile of the board has no micropul touching one of the same colour on a
	// tile placed before it.
	ReasonBoardNoColorMatch = "BOARD_NO_COLOR_MATCH"
	// ReasonQuadrantOutOfRange (Invalid): a quadrant that is not TL, TR, BR or BL.
	ReasonQuadrantOutOfRange = "QUADRANT_OUT_OF_RANGE"
	// ReasonStoneNotOnMicropul (Invalid): a stone of the state is not on a micropul of a tile in play.
	ReasonStoneNotOnMicropul = "STONE_NOT_ON_MICROPUL"
	// ReasonStoneDuplicate (Invalid): two stones on one micropul.
	ReasonStoneDuplicate = "STONE_DUPLICATE"
	// ReasonStonesExceeded (Invalid): a player has more than 3 stones on the board.
	ReasonStonesExceeded = "STONES_EXCEEDED"
	// ReasonStoneOnSmallGroup (Invalid): under the default rule set, a stone on a group within one tile.
	ReasonStoneOnSmallGroup = "STONE_ON_SMALL_GROUP"
	// ReasonToMoveInvalid (Invalid): the player to move is not a player while the game goes on, or not 0 once over.
	ReasonToMoveInvalid = "TO_MOVE_INVALID"
	// ReasonExtraTurnsOutOfRange (Invalid): more pending extra turns than the plus catalysts of the board's placements
	// won, an extra turn before any placement, extra turns pending outside an extra turn, or extra turns once the
	// game is over.
	ReasonExtraTurnsOutOfRange = "EXTRA_TURNS_OUT_OF_RANGE"
	// ReasonDrawsMismatch (Invalid): more tiles drawn from the core (its size after the deal less its size now) than
	// the dot catalysts of the board's placements draw, or, in a game ended with the core empty, a core emptied before
	// the last placement.
	ReasonDrawsMismatch = "DRAWS_MISMATCH"
	// ReasonOutcomeMismatch (Invalid): the end of the game (or its absence) and the loser do not follow from the
	// position.
	ReasonOutcomeMismatch = "OUTCOME_MISMATCH"
	// ReasonPlayerOutOfRange (Invalid): the moving player, a viewer or a stone's owner is not a player of the game.
	ReasonPlayerOutOfRange = "PLAYER_OUT_OF_RANGE"
	// ReasonMoveEmpty (Invalid): the move names no action.
	ReasonMoveEmpty = "MOVE_EMPTY"

	// ReasonGameOver (Illegal): the game is over; nobody may move.
	ReasonGameOver = "GAME_OVER"
	// ReasonNotYourTurn (Illegal): another player is to move.
	ReasonNotYourTurn = "NOT_YOUR_TURN"
	// ReasonTileNotInHand (Illegal): the tile to place is not in the mover's hand.
	ReasonTileNotInHand = "TILE_NOT_IN_HAND"
	// ReasonPositionOccupied (Illegal): a tile already lies at the position.
	ReasonPositionOccupied = "POSITION_OCCUPIED"
	// ReasonNotConnected (Illegal): the tile would touch no tile in play.
	ReasonNotConnected = "NOT_CONNECTED"
	// ReasonColorConflict (Illegal): a black micropul would touch a white one across an edge of the new tile.
	ReasonColorConflict = "COLOR_CONFLICT"
	// ReasonNoColorMatch (Illegal): no micropul of the new tile would touch a micropul of its colour in play.
	ReasonNoColorMatch = "NO_COLOR_MATCH"
	// ReasonHandFull (Illegal): taking a tile from the supply with 6 tiles in hand.
	ReasonHandFull = "HAND_FULL"
	// ReasonSupplyEmpty (Illegal): taking a tile from an empty supply.
	ReasonSupplyEmpty = "SUPPLY_EMPTY"
	// ReasonNoStonesLeft (Illegal): the mover has put all 3 stones down.
	ReasonNoStonesLeft = "NO_STONES_LEFT"
	// ReasonNoTileAtPosition (Illegal): a stone aimed at a position with no tile.
	ReasonNoTileAtPosition = "NO_TILE_AT_POSITION"
	// ReasonNotAMicropul (Illegal): a stone aimed at a quadrant that holds no micropul.
	ReasonNotAMicropul = "NOT_A_MICROPUL"
	// ReasonGroupHasStone (Illegal): the micropul's group already carries a stone.
	ReasonGroupHasStone = "GROUP_HAS_STONE"
	// ReasonGroupTooSmall (Illegal): under the default rule set, a stone on a group within one tile.
	ReasonGroupTooSmall = "GROUP_TOO_SMALL"
	// ReasonPassNotAllowed (Illegal): passing with another action possible, outside an extra turn of the default
	// rule set.
	ReasonPassNotAllowed = "PASS_NOT_ALLOWED"
)
