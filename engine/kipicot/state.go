package kipicot

import (
	"fmt"
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// Color is the colour of a token. NoColor marks the absence of a token.
type Color uint8

// The colours of the tokens.
const (
	NoColor Color = iota
	Red
	Yellow
)

// String returns the colour's name.
func (c Color) String() string {
	switch c {
	case NoColor:
		return "none"
	case Red:
		return "red"
	case Yellow:
		return "yellow"
	}
	return "Color(" + strconv.Itoa(int(c)) + ")"
}

// valid reports whether c is the colour of a token.
func (c Color) valid() bool { return c == Red || c == Yellow }

// other returns the other colour of a token.
func (c Color) other() Color { return 3 - c }

// Square is one square of the board: its tokens, bottom first, and the pawn standing on them. An empty square has
// Bottom and Top NoColor; a single token has only Bottom; a stack has both, of different colours.
type Square struct {
	Bottom, Top Color
	// Pawn is the player whose pawn stands on the square, or engine.NoPlayer.
	Pawn engine.Player
}

// Empty reports whether the square holds no token.
func (q Square) Empty() bool { return q.Bottom == NoColor }

// Stacked reports whether the square holds two tokens.
func (q Square) Stacked() bool { return q.Top != NoColor }

// Tokens returns the number of tokens on the square.
func (q Square) Tokens() int {
	switch {
	case q.Empty():
		return 0
	case q.Stacked():
		return 2
	}
	return 1
}

// Color returns the square's colour, its top token's; NoColor when it is empty.
func (q Square) Color() Color {
	if q.Stacked() {
		return q.Top
	}
	return q.Bottom
}

// Coord names a square by its row and column, from 0 at the top-left.
type Coord struct {
	Row, Col int
}

// String returns the coordinate as "(row,col)".
func (c Coord) String() string {
	return "(" + strconv.Itoa(c.Row) + "," + strconv.Itoa(c.Col) + ")"
}

// onBoard reports whether c is a square of the board.
func (c Coord) onBoard() bool { return c.Row >= 0 && c.Row < Size && c.Col >= 0 && c.Col < Size }

// index returns the index of the square c on the board.
func (c Coord) index() int { return c.Row*Size + c.Col }

// coord returns the coordinates of the square with index i.
func coord(i int) Coord { return Coord{Row: i / Size, Col: i % Size} }

// Phase is the step of the turn the player to move is at.
type Phase int

// The phases of a turn, and the end of the game.
const (
	// PhaseOptionalMove is step 1: the player may move a token, or skip.
	PhaseOptionalMove Phase = iota + 1
	// PhaseAction is step 2: the player places a token from the supply or moves one.
	PhaseAction
	// PhasePawn is step 3: the player puts their pawn on a token or stack.
	PhasePawn
	// PhaseFishing is the choice of a fishing square, when more than one qualifies after step 3.
	PhaseFishing
	// PhaseOver is the end of the game.
	PhaseOver
)

// String returns the phase's name.
func (p Phase) String() string {
	switch p {
	case PhaseOptionalMove:
		return "optional move"
	case PhaseAction:
		return "action"
	case PhasePawn:
		return "pawn"
	case PhaseFishing:
		return "fishing"
	case PhaseOver:
		return "game over"
	}
	return "Phase(" + strconv.Itoa(int(p)) + ")"
}

// offBoard is the square index of a pawn that is not on the board.
const offBoard = -1

// State is a Kipicot position: the board with its pawns, the supply, the catches, the player to move and the phase
// of their turn. It is immutable: no method changes it, and Apply returns a new State. It holds no pointer, so a copy
// of the value is a deep copy.
type State struct {
	opts   Options
	toMove engine.Player
	phase  Phase
	// idle counts the consecutive turns, up to the current one, whose step 2 placed no token (always 0 when the
	// anti-stall rule is off).
	idle   int
	supply [3]int    // by Color
	caught [3][3]int // by player, then Color
	board  [Squares]Square
	pawn   [3]int // by player: the square index of the pawn, or offBoard
}

// New returns the start of a game: an empty board, both pawns off it, the full supply, and player 1 at step 1. An
// option out of range is an Invalid OPTION_OUT_OF_RANGE error whose field is the option's name in KipicotOptions.
func New(opts Options) (*State, error) {
	if err := opts.check(""); err != nil {
		return nil, err
	}
	s := &State{opts: opts, toMove: 1, phase: PhaseOptionalMove}
	s.supply[Red], s.supply[Yellow] = TokensPerColor, TokensPerColor
	s.pawn = [3]int{offBoard, offBoard, offBoard}
	return s, nil
}

// Parts are the parts of a state, as NewState takes them.
type Parts struct {
	ToMove engine.Player
	Phase  Phase
	// TurnsWithoutPlacement is the anti-stall count (see KipicotState.turns_without_placement).
	TurnsWithoutPlacement int
	// SupplyRed and SupplyYellow are the tokens in the supply.
	SupplyRed, SupplyYellow int
	// Caught holds each player's catch, in seat order.
	Caught [Players]Catch
	// Board is the board row by row; pawns are on its squares.
	Board [Squares]Square
}

// Catch counts tokens by colour.
type Catch struct {
	Red, Yellow int
}

// Total returns the number of tokens.
func (c Catch) Total() int { return c.Red + c.Yellow }

// NewState builds a state from its parts and checks that it meets the conditions every position reached by play
// meets. They are cheap necessary conditions, not an exact test: some positions no game reaches pass them. The
// checks, in order, each an Invalid error whose field is a path in KipicotState:
//
//   - OPTION_OUT_OF_RANGE ("options.antiStallRounds", "options.endThreshold");
//   - for each square in order: COLOR_INVALID ("squares[i].tokens[j]") for a token that is neither red nor yellow;
//     STACK_SAME_COLOR ("squares[i].tokens") for a stack of one colour; PAWN_OUT_OF_RANGE ("squares[i].pawn") for
//     a pawn that is not a player's; PAWN_ON_EMPTY_SQUARE ("squares[i].pawn"); PAWN_DUPLICATED ("squares[i].pawn")
//     for a player's second pawn;
//   - COUNT_OUT_OF_RANGE ("supplyRed", "supplyYellow", "captured[k].red", "captured[k].yellow"): a negative count or
//     one above 20; ("captured[k]") a catch of 1 or 2 tokens, as a fishing square takes at least 3;
//   - TOKEN_COUNT_MISMATCH ("supplyRed" or "supplyYellow"): supply, board and catches do not hold 20 tokens of the
//     colour;
//   - PHASE_INVALID ("phase"): not a Phase;
//   - TO_MOVE_INVALID ("toMove"): not a player while the game goes on, not engine.NoPlayer once it is over;
//   - STALL_COUNT_OUT_OF_RANGE ("turnsWithoutPlacement"): negative, above 2 x AntiStallRounds, or not 0 when the
//     rule is off, once the game is over, or in a pawn step or fishing choice with a supply at the end threshold;
//   - PHASE_INCONSISTENT ("phase"): after step 2 (pawn step, fishing choice, game over) a supply below the end
//     threshold or both at it; the game goes on in step 1 or 2 with a supply at or below the end threshold (the
//     game would have ended), or is over with both supplies above it; step 1 with the pawn of the player who just
//     played in a fishing square of theirs; a pawn step without a target; a fishing choice without the mover's pawn
//     on the board or without two fishing squares;
//   - TOO_FEW_TAKEN ("captured[k]" or "turnsWithoutPlacement"): a catch with fewer than 4 tokens out of the supply
//     (a fishing square has four squares with tokens), or an anti-stall count above 0 with fewer than 3 (the first
//     three turns must place: no token on the board is free to move before);
//   - PAWN_OFF_BOARD ("squares"): a player's pawn off the board though they have caught nothing and have played a
//     pawn step (the game is past their first turn: turn 1 for player 1, turn 2 for player 2, each placing one
//     token); a pawn leaves the board only with a catch.
func NewState(opts Options, p Parts) (*State, error) {
	if err := opts.check("options."); err != nil {
		return nil, err
	}
	s := &State{opts: opts, toMove: p.ToMove, phase: p.Phase, idle: p.TurnsWithoutPlacement, board: p.Board}
	s.supply[Red], s.supply[Yellow] = p.SupplyRed, p.SupplyYellow
	for k, c := range p.Caught {
		s.caught[k+1][Red], s.caught[k+1][Yellow] = c.Red, c.Yellow
	}
	for _, check := range []func() error{s.checkSquares, s.checkCounts, s.checkToMove, s.checkIdle, s.checkPhase,
		s.checkTaken, s.checkPawnsDown} {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// squareError returns an Invalid error about the field of square i, with the square's coordinates among its facts.
func squareError(reason string, i int, field string, facts map[string]string, format string, args ...any) error {
	at := coord(i)
	facts["row"], facts["col"] = strconv.Itoa(at.Row), strconv.Itoa(at.Col)
	return engine.Invalidf(reason, fmt.Sprintf("squares[%d].%s", i, field), facts, "square %v: "+format,
		append([]any{at}, args...)...)
}

// checkSquares checks each square's tokens and pawn, and fills s.pawn.
func (s *State) checkSquares() error {
	s.pawn = [3]int{offBoard, offBoard, offBoard}
	for i, q := range s.board {
		for j, c := range []Color{q.Bottom, q.Top} {
			if c != NoColor && !c.valid() || j == 0 && c == NoColor && q.Top != NoColor {
				return squareError(ReasonColorInvalid, i, fmt.Sprintf("tokens[%d]", j),
					map[string]string{"color": strconv.Itoa(int(c))}, "token %d has colour %d, neither red nor yellow",
					j, c)
			}
		}
		if q.Stacked() && q.Top == q.Bottom {
			return squareError(ReasonStackSameColor, i, "tokens", map[string]string{"color": q.Top.String()},
				"a stack of two %s tokens; a token is only ever stacked on one of the other colour", q.Top)
		}
		switch {
		case q.Pawn == engine.NoPlayer:
			continue
		case q.Pawn < 1 || q.Pawn > Players:
			return squareError(ReasonPawnOutOfRange, i, "pawn", map[string]string{"pawn": strconv.Itoa(int(q.Pawn))},
				"pawn %d is not a player's; it must be 0, 1 or 2", q.Pawn)
		case q.Empty():
			return squareError(ReasonPawnOnEmptySquare, i, "pawn", map[string]string{"pawn": strconv.Itoa(int(q.Pawn))},
				"player %d's pawn stands on a square without tokens", q.Pawn)
		case s.pawn[q.Pawn] != offBoard:
			return squareError(ReasonPawnDuplicated, i, "pawn", map[string]string{"pawn": strconv.Itoa(int(q.Pawn)),
				"otherRow": strconv.Itoa(coord(s.pawn[q.Pawn]).Row), "otherCol": strconv.Itoa(coord(s.pawn[q.Pawn]).Col)},
				"player %d's pawn also stands on %v; each player has one pawn", q.Pawn, coord(s.pawn[q.Pawn]))
		}
		s.pawn[q.Pawn] = i
	}
	return nil
}

// checkCounts checks the supply and the catches, and that every colour has its 20 tokens.
func (s *State) checkCounts() error {
	count := func(field string, n int) error {
		if n >= 0 && n <= TokensPerColor {
			return nil
		}
		return engine.Invalidf(ReasonCountOutOfRange, field,
			map[string]string{"count": strconv.Itoa(n), "max": strconv.Itoa(TokensPerColor)},
			"%s counts %d tokens; a colour has %d", field, n, TokensPerColor)
	}
	for _, c := range []Color{Red, Yellow} {
		name := map[Color]string{Red: "Red", Yellow: "Yellow"}[c]
		if err := count("supply"+name, s.supply[c]); err != nil {
			return err
		}
		for p := 1; p <= Players; p++ {
			if err := count(fmt.Sprintf("captured[%d].%s", p-1, c), s.caught[p][c]); err != nil {
				return err
			}
		}
	}
	for p := 1; p <= Players; p++ {
		if n := s.caught[p][Red] + s.caught[p][Yellow]; n > 0 && n < minCatch {
			field := fmt.Sprintf("captured[%d]", p-1)
			return engine.Invalidf(ReasonCountOutOfRange, field,
				map[string]string{"count": strconv.Itoa(n), "min": strconv.Itoa(minCatch)},
				"%s counts %d tokens; a fishing square takes at least %d (three of its squares)", field, n, minCatch)
		}
	}
	for _, c := range []Color{Red, Yellow} {
		board := s.onBoard(c)
		if total := s.supply[c] + board + s.caught[1][c] + s.caught[2][c]; total != TokensPerColor {
			name := map[Color]string{Red: "Red", Yellow: "Yellow"}[c]
			return engine.Invalidf(ReasonTokenCountMismatch, "supply"+name,
				map[string]string{"color": c.String(), "supply": strconv.Itoa(s.supply[c]), "board": strconv.Itoa(board),
					"caught": strconv.Itoa(s.caught[1][c] + s.caught[2][c]), "total": strconv.Itoa(total)},
				"%d %s tokens in supply, board and catches (%d + %d + %d); the game has %d", total, c, s.supply[c], board,
				s.caught[1][c]+s.caught[2][c], TokensPerColor)
		}
	}
	return nil
}

// checkToMove checks the phase's value and that the player to move goes with it.
func (s *State) checkToMove() error {
	if s.phase < PhaseOptionalMove || s.phase > PhaseOver {
		return engine.Invalidf(ReasonPhaseInvalid, "phase", map[string]string{"phase": strconv.Itoa(int(s.phase))},
			"phase %d is not a phase of the turn", s.phase)
	}
	over := s.phase == PhaseOver
	if over && s.toMove == engine.NoPlayer || !over && s.toMove >= 1 && s.toMove <= Players {
		return nil
	}
	want := "player 1 or 2"
	if over {
		want = "nobody (0): the game is over"
	}
	return engine.Invalidf(ReasonToMoveInvalid, "toMove",
		map[string]string{"toMove": strconv.Itoa(int(s.toMove)), "phase": s.phase.String()},
		"player to move is %d in phase %s; it must be %s", s.toMove, s.phase, want)
}

// checkIdle checks the anti-stall count. Only a placement brings a supply to the end threshold, and it sets the
// count to 0: so the count is 0 once the game is over, and in a pawn step or fishing choice with a supply at the
// threshold.
func (s *State) checkIdle() error {
	limit := s.opts.stallLimit()
	placed := s.phase == PhaseOver ||
		(s.phase == PhasePawn || s.phase == PhaseFishing) && min(s.supply[Red], s.supply[Yellow]) <= s.opts.EndThreshold
	if s.idle >= 0 && s.idle <= limit && (s.idle == 0 || !placed) {
		return nil
	}
	if s.idle > 0 && s.idle <= limit {
		return engine.Invalidf(ReasonStallCountOutOfRange, "turnsWithoutPlacement",
			map[string]string{"turnsWithoutPlacement": strconv.Itoa(s.idle), "max": "0", "phase": s.phase.String()},
			"%d turns without a placement in phase %s with a supply at the end threshold %d; only a placement "+
				"brings a supply there, and it sets the count to 0", s.idle, s.phase, s.opts.EndThreshold)
	}
	return engine.Invalidf(ReasonStallCountOutOfRange, "turnsWithoutPlacement",
		map[string]string{"turnsWithoutPlacement": strconv.Itoa(s.idle), "max": strconv.Itoa(limit)},
		"%d turns without a placement; with %d anti-stall rounds the count runs from 0 to %d", s.idle,
		s.opts.AntiStallRounds, limit)
}

// checkPhase checks that the phase follows from the position.
func (s *State) checkPhase() error {
	inconsistent := func(format string, args ...any) error {
		return engine.Invalidf(ReasonPhaseInconsistent, "phase",
			map[string]string{"phase": s.phase.String(), "supplyRed": strconv.Itoa(s.supply[Red]),
				"supplyYellow": strconv.Itoa(s.supply[Yellow]), "endThreshold": strconv.Itoa(s.opts.EndThreshold)},
			"phase %s: "+format, append([]any{s.phase}, args...)...)
	}
	lo, hi, t := min(s.supply[Red], s.supply[Yellow]), max(s.supply[Red], s.supply[Yellow]), s.opts.EndThreshold
	low := lo <= t
	// Both supplies are above the threshold at the start of a turn, and a turn takes at most one token from them: at
	// most one supply is at the threshold after step 2, and none below it.
	if s.phase != PhaseOptionalMove && s.phase != PhaseAction && (lo < t || hi <= t) {
		return inconsistent("supplies of %d and %d tokens; a turn starts with both above the end threshold %d and "+
			"takes at most one token, so they end with at most one at the threshold and none below", lo, hi, t)
	}
	switch s.phase {
	case PhaseOptionalMove, PhaseAction:
		if low {
			return inconsistent("a supply is at or below the end threshold %d, so the game would have ended", t)
		}
		// The player who just played ended their turn in no fishing square of theirs: they would have fished.
		if last := opponent(s.toMove); s.phase == PhaseOptionalMove && len(s.fishingSquares(last)) > 0 {
			return inconsistent("player %d's pawn ended their turn in a fishing square of theirs, which they would "+
				"have taken", last)
		}
	case PhasePawn:
		if len(s.pawnTargets(s.toMove)) == 0 {
			return inconsistent("player %d's pawn has no token to go to", s.toMove)
		}
	case PhaseFishing:
		if s.pawn[s.toMove] == offBoard {
			return inconsistent("player %d chooses a fishing square with their pawn off the board", s.toMove)
		}
		if n := len(s.fishingSquares(s.toMove)); n < 2 {
			return inconsistent("%d fishing squares for player %d; a choice needs two or more", n, s.toMove)
		}
	case PhaseOver:
		if !low {
			return inconsistent("both supplies are above the end threshold %d", t)
		}
	}
	return nil
}

// checkPawnsDown checks that a pawn off the board is one its player has not yet put down, or one that left with a
// catch: a pawn leaves the board only when its player fishes. A player who has caught nothing and whose pawn is off
// has not finished a pawn step yet, so the game is still in their first turn (turn 1 for player 1, turn 2 for player
// 2, turns alternating from player 1), or over right after turn 1. Both turns place a token in step 2 and move none:
// the board is empty in turn 1, and in turn 2 its one token carries player 1's pawn. So n-1 tokens have left the
// supply before the step 2 of turn n, and n after it.
func (s *State) checkPawnsDown() error {
	taken := s.taken()
	// inTurn reports whether the game may be in turn n (1 or 2), before the end of its pawn step.
	inTurn := func(n int) bool {
		switch {
		case s.toMove != engine.Player(n) || s.phase > PhasePawn:
			return false
		case s.phase == PhasePawn:
			return taken == n
		}
		return taken == n-1
	}
	for p := engine.Player(1); p <= Players; p++ {
		if s.pawn[p] != offBoard || s.caught[p][Red]+s.caught[p][Yellow] > 0 {
			continue
		}
		if inTurn(1) || p == 2 && (inTurn(2) || s.phase == PhaseOver && taken == 1) {
			continue
		}
		return engine.Invalidf(ReasonPawnOffBoard, "squares",
			map[string]string{"player": strconv.Itoa(int(p)), "phase": s.phase.String(),
				"toMove": strconv.Itoa(int(s.toMove)), "taken": strconv.Itoa(taken)},
			"player %d's pawn is off the board and they have caught nothing, but %d tokens have left the supply and "+
				"player %d is in phase %s: player %d has played a pawn step, and a pawn leaves the board only with "+
				"a catch", p, taken, s.toMove, s.phase, p)
	}
	return nil
}

// checkTaken checks that enough tokens have left the supply for the catches and the anti-stall count. A catch needs
// a fishing square, four squares with tokens. A move in step 2 needs a token without a pawn, and there is none before
// turn 3 has placed: the board is empty in turn 1, and then each of its tokens carries a pawn (player 1's, then
// player 2's on the token of turn 2), so turns 1 to 3 all place.
func (s *State) checkTaken() error {
	taken := s.taken()
	facts := map[string]string{"taken": strconv.Itoa(taken)}
	for p := 1; p <= Players; p++ {
		if n := s.caught[p][Red] + s.caught[p][Yellow]; n > 0 && taken < 4 {
			facts["caught"] = strconv.Itoa(n)
			return engine.Invalidf(ReasonTooFewTaken, fmt.Sprintf("captured[%d]", p-1), facts,
				"player %d has caught %d tokens, but only %d have left the supply; a fishing square holds 4 or more",
				p, n, taken)
		}
	}
	if s.idle > 0 && taken < 3 {
		facts["turnsWithoutPlacement"] = strconv.Itoa(s.idle)
		return engine.Invalidf(ReasonTooFewTaken, "turnsWithoutPlacement", facts,
			"%d turns without a placement, but only %d tokens have left the supply; the first three turns place, "+
				"as no token on the board is free to move before", s.idle, taken)
	}
	return nil
}

// taken returns the tokens that have left the supply: those on the board and those caught.
func (s *State) taken() int { return 2*TokensPerColor - s.supply[Red] - s.supply[Yellow] }

// onBoard returns the tokens of colour c on the board.
func (s *State) onBoard(c Color) int {
	n := 0
	for _, q := range s.board {
		if q.Bottom == c {
			n++
		}
		if q.Top == c {
			n++
		}
	}
	return n
}

// Options returns the options of the game.
func (s *State) Options() Options { return s.opts }

// ToMove returns the player to move, or engine.NoPlayer once the game is over.
func (s *State) ToMove() engine.Player { return s.toMove }

// Phase returns the step of the turn of the player to move (PhaseOver once the game is over).
func (s *State) Phase() Phase { return s.phase }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.phase == PhaseOver }

// TurnsWithoutPlacement returns the anti-stall count: the consecutive turns, up to the current one, whose step 2
// placed no token.
func (s *State) TurnsWithoutPlacement() int { return s.idle }

// PlacementRequired reports whether the anti-stall rule makes the player to move place in step 2.
func (s *State) PlacementRequired() bool {
	return s.opts.AntiStallRounds > 0 && s.idle >= s.opts.stallLimit() && !s.Over()
}

// Supply returns the tokens of colour c in the supply.
func (s *State) Supply(c Color) int {
	if !c.valid() {
		return 0
	}
	return s.supply[c]
}

// Caught returns what player p has caught.
func (s *State) Caught(p engine.Player) Catch {
	if p < 1 || p > Players {
		return Catch{}
	}
	return Catch{Red: s.caught[p][Red], Yellow: s.caught[p][Yellow]}
}

// Square returns the square at (row, col); a coordinate off the board gives an empty Square.
func (s *State) Square(row, col int) Square {
	if c := (Coord{row, col}); c.onBoard() {
		return s.board[c.index()]
	}
	return Square{}
}

// Pawn returns the square of player p's pawn, and false when it is off the board.
func (s *State) Pawn(p engine.Player) (Coord, bool) {
	if p < 1 || p > Players || s.pawn[p] == offBoard {
		return Coord{}, false
	}
	return coord(s.pawn[p]), true
}

// Parts returns the parts of the state, as NewState takes them.
func (s *State) Parts() Parts {
	p := Parts{ToMove: s.toMove, Phase: s.phase, TurnsWithoutPlacement: s.idle, SupplyRed: s.supply[Red],
		SupplyYellow: s.supply[Yellow], Board: s.board}
	for k := range p.Caught {
		p.Caught[k] = s.Caught(engine.Player(k + 1))
	}
	return p
}

// View returns what viewer may see of the state: everything, as Kipicot has no hidden information. It is s itself.
func (s *State) View(engine.Player) *State { return s }

// opponent returns the other player.
func opponent(p engine.Player) engine.Player { return 3 - p }
