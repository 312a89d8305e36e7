package explain

// common holds the wordings of the reasons that any game may give, by reason: the service's own, and the rules'
// that read the same in every game.
var common = map[string]wording{
	"NOT_YOUR_TURN": sayf("it is player %s's turn, not player %s's", fact("toMove"), fact("player")),
	"NOT_YOUR_SEAT": notYourSeat,
	"PLAYER_OUT_OF_RANGE": sayf("there is no player %s in this game of %s players", fact("player"),
		fact("players")),
	"SEAT_PASS_INVALID":   sayf("that seat pass is not one of this game's"),
	"SEAT_PASS_MALFORMED": sayf("that is not a seat pass: a pass is the seat's number, a dot and a code"),
	"TOKEN_INVALID":       sayf("that token is not one this server made, or it was altered"),
	"GAME_OVER":           sayf("the game is over"),
}

// sentences holds the wordings of each game's reasons, by game and reason (docs/rules and each engine's reasons.go
// list them): those a move typed in the notation can meet.
var sentences = map[string]map[string]wording{
	"exploze": {
		"GAME_OVER": sayf("the game is over: player %s won", fact("winner")),
		"CELL_OWNED_BY_OPPONENT": sayf("%s holds player %s's stones: you may only add a stone to your own cells or "+
			"an empty one", square("col", "row"), fact("owner")),
		"CELL_OFF_BOARD": sayf("%s is off the board, which has %s rows and %s columns", square("col", "row"),
			fact("rows"), fact("cols")),
	},
	"kipicot": {
		"WRONG_PHASE": sayf("a %s step does not belong here: the turn is at %s", kipicotStep("kind"),
			kipicotPhase("phase")),
		"NO_TOKEN": sayf("%s holds no token to move", square("fromCol", "fromRow")),
		"TOKEN_FROZEN": sayf("player %s's pawn stands on %s: its tokens cannot move or take a token", fact("pawn"),
			kipicotSquare),
		"DESTINATION_OCCUPIED": sayf("%s is not empty: a token moves only to an empty square",
			square("toCol", "toRow")),
		"SINGLE_MOVES_ONE_STEP": sayf("%s to %s: a single token moves one square up, down, left or right",
			square("fromCol", "fromRow"), square("toCol", "toRow")),
		"STACK_MOVES_IN_LINE": sayf("%s to %s: a stack moves along its row or its column",
			square("fromCol", "fromRow"), square("toCol", "toRow")),
		"STACK_FULL": sayf("%s already holds a stack of two tokens", square("col", "row")),
		"STACK_NEEDS_OTHER_COLOR": sayf("%s holds a %s token: a token is stacked only on one of the other colour",
			square("col", "row"), lowerFact("color")),
		"PLACEMENT_REQUIRED": sayf("%s turns in a row placed no token: this step 2 must place one from the supply",
			fact("turnsWithoutPlacement")),
		"PAWN_TARGET_EMPTY":    sayf("%s holds no token for the pawn", square("col", "row")),
		"PAWN_TARGET_TAKEN":    sayf("the other pawn already stands on %s", square("col", "row")),
		"PAWN_MUST_MOVE":       sayf("your pawn already stands on %s: it must jump to another token", square("col", "row")),
		"NOT_A_FISHING_SQUARE": sayf("the block at %s is not a fishing square of yours", square("col", "row")),
		"TURN_ALREADY_OVER":    sayf("step %d comes after the end of the turn", stepNumber),
		"TURN_INCOMPLETE": sayf("those %s steps stop at %s: a turn written in one line must run to its end",
			fact("steps"), kipicotPhase("phase")),
	},
	"micropul": {
		"GAME_OVER":    sayf("the game is over"),
		"HAND_FULL":    sayf("your hand holds %s tiles already: take no more", fact("hand")),
		"SUPPLY_EMPTY": sayf("your supply is empty: there is no tile to take"),
		"PASS_NOT_ALLOWED": sayf("you may pass only when nothing else is possible, or in an extra turn under the " +
			"default rule set"),
		"TILE_NOT_IN_HAND":  sayf("tile %s is not in your hand", fact("tile")),
		"POSITION_OCCUPIED": sayf("tile %s already lies at %s", fact("occupant"), position("x", "y")),
		"NOT_CONNECTED":     sayf("%s touches no tile in play: a tile goes next to one", position("x", "y")),
		"COLOR_CONFLICT": sayf("tile %s at %s turned r%s: its %s micropul would touch a micropul of the other colour "+
			"at %s %s", fact("tile"), position("x", "y"), fact("rotation"), lowerFact("quadrant"),
			position("neighbourX", "neighbourY"), lowerFact("neighbourQuadrant")),
		"NO_COLOR_MATCH": sayf("tile %s at %s turned r%s: none of its micropuls would touch a micropul of its colour",
			fact("tile"), position("x", "y"), fact("rotation")),
		"NO_STONES_LEFT":      sayf("you have put all your stones down"),
		"NO_TILE_AT_POSITION": sayf("no tile lies at %s", position("x", "y")),
		"NOT_A_MICROPUL": sayf("quadrant %s of the tile at %s holds no micropul", lowerFact("quadrant"),
			position("x", "y")),
		"GROUP_HAS_STONE": sayf("the group of %s %s already carries player %s's stone", position("x", "y"),
			lowerFact("quadrant"), fact("owner")),
		"GROUP_TOO_SMALL": sayf("the group of %s %s lies within one tile: a stone needs a group spanning two tiles",
			position("x", "y"), lowerFact("quadrant")),
	},
	"ubongo-duel": {
		"GAME_OVER": sayf("the game is over: player %s won", fact("winner")),
		"ALREADY_SOLVED": sayf("player %s has solved this duel: the win waits for the tie window to close",
			fact("player")),
		"ALREADY_GAVE_UP":    sayf("player %s gave up this duel", fact("player")),
		"NO_PENDING_WIN":     sayf("nobody has solved this duel yet: there is no duel to close"),
		"TIE_WINDOW_OPEN":    sayf("the tie window is still open: the duel can be closed once it has passed"),
		"WRONG_PIECE":        sayf("piece %s is not in this task, whose pieces are %s", fact("piece"), letters("task")),
		"PIECE_USED_TWICE":   sayf("piece %s is placed twice", fact("piece")),
		"NOT_CONGRUENT":      sayf("those squares are not the shape of piece %s, turned or not", fact("piece")),
		"CELL_OUTSIDE_SHAPE": sayf("piece %s covers %s, outside the shape", fact("piece"), square("x", "y")),
		"OVERLAP":            sayf("pieces %s and %s both cover %s", fact("other"), fact("piece"), square("x", "y")),
		"PIECE_MISSING":      sayf("pieces %s of the task are not placed", letters("missing")),
		"NOT_COVERED":        sayf("%s of the shape is not covered", square("x", "y")),
	},
}

// kipicotSquare is the square of a Kipicot refusal about the tokens of one square: the square a token leaves, or
// the square of a placement.
func kipicotSquare(f facts) (any, error) {
	if _, ok := f["fromRow"]; ok {
		return f.square("fromCol", "fromRow")
	}
	return f.square("col", "row")
}

// kipicotStep names the kind of a Kipicot step as the notation writes it.
func kipicotStep(key string) func(facts) (any, error) {
	names := map[string]string{"skip": "skip", "moveToken": "token move", "place": "placement", "pawn": "pawn",
		"fish": "fishing"}
	return func(f facts) (any, error) {
		name, ok := names[f[key]]
		if !ok {
			return nil, errFact
		}
		return name, nil
	}
}

// kipicotPhase names the phase of a Kipicot turn (as the engine's facts name it) as the board does.
func kipicotPhase(key string) func(facts) (any, error) {
	names := map[string]string{"optional move": "step 1, the optional token move", "action": "step 2, a placement " +
		"or a token move", "pawn": "step 3, the pawn", "fishing": "the choice of a fishing square"}
	return func(f facts) (any, error) {
		name, ok := names[f[key]]
		if !ok {
			return nil, errFact
		}
		return name, nil
	}
}

// stepNumber is the number from 1 of the step of a turn a refusal is about (the fact "step" counts from 0).
func stepNumber(f facts) (any, error) {
	n, err := f.number("step")
	return n + 1, err
}

// notYourSeat words NOT_YOUR_SEAT: a pass of another seat than the one asked for, or no pass at all.
func notYourSeat(f facts) (string, error) {
	seat, err := f.text("seat")
	if err != nil {
		return "", err
	}
	asked, err := f.text("asked")
	if err != nil {
		return "", err
	}
	if seat == "0" {
		return "without a seat pass you are a spectator, who may not act for player " + asked, nil
	}
	return "your pass is for seat " + seat + ": you may not act for player " + asked, nil
}
