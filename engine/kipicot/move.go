package kipicot

import (
	"fmt"
	"iter"
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// StepKind is what a step of a turn does.
type StepKind int

// The kinds of step. The zero StepKind is no step at all.
const (
	// StepSkip passes up the optional move of step 1.
	StepSkip StepKind = iota + 1
	// StepMoveToken moves the token(s) on From to the empty square To, in step 1 or step 2.
	StepMoveToken
	// StepPlace puts a token of colour Color from the supply on To, in step 2.
	StepPlace
	// StepPawn puts the mover's pawn on the tokens of To, in step 3.
	StepPawn
	// StepFish takes the fishing square whose top-left square is To, when the mover must choose one.
	StepFish
)

// name returns the step's field name in KipicotMove and KipicotStep.
func (k StepKind) name() string {
	switch k {
	case StepSkip:
		return "skip"
	case StepMoveToken:
		return "moveToken"
	case StepPlace:
		return "place"
	case StepPawn:
		return "pawn"
	case StepFish:
		return "fish"
	}
	return "StepKind(" + strconv.Itoa(int(k)) + ")"
}

// Step is one step of a turn.
type Step struct {
	Kind StepKind
	// Color is the colour of a placed token.
	Color Color
	// From is the square a token move starts from.
	From Coord
	// To is the square a token moves to or is placed on, or that the pawn goes to; for StepFish, the top-left square
	// of the fishing square.
	To Coord
}

// String returns the step in the notation of ParseMove, such as "r c3", "b2-b3", "pawn c3", "fish b2" or "skip";
// a step of no kind is "no step".
func (st Step) String() string {
	switch st.Kind {
	case StepSkip:
		return "skip"
	case StepMoveToken:
		return st.From.square() + "-" + st.To.square()
	case StepPlace:
		return st.Color.String()[:1] + " " + st.To.square()
	case StepPawn, StepFish:
		return st.Kind.name() + " " + st.To.square()
	}
	return "no step"
}

// MaxTurnSteps is the most steps of a turn: optional move, action, pawn, fishing choice.
const MaxTurnSteps = 4

// Move is a player's move: one Step in the phase it belongs to, or, when Turn is not nil, the rest of the turn (often
// all of it) as a list of steps applied in order, which must end the turn.
type Move struct {
	Player engine.Player
	Step
	// Turn, when not nil, holds the steps of a composite move; Step is then ignored.
	Turn []Step
}

// String returns the move in the notation of ParseMove after its player's letter, such as "A: r c3" or
// "B: skip; y a1; pawn a1".
func (m Move) String() string {
	return playerName(m.Player) + ": " + m.Notation()
}

// Legal returns every legal move of p, all of the current phase (never a composite turn), in this stable order:
//
//   - step 1: skip, then the token moves;
//   - step 2: the placements, square by square in row-major order and red before yellow on each square, then the
//     token moves (none when a placement is required);
//   - step 3: the pawn's targets in row-major order;
//   - fishing choice: the fishing squares by their top-left squares in row-major order.
//
// Token moves are ordered by the square they leave, then the square they reach, both in row-major order. Legal
// returns none when p is not the player to move (including once the game is over).
func (s *State) Legal(p engine.Player) []Move {
	if p == engine.NoPlayer || p != s.toMove {
		return nil
	}
	var moves []Move
	switch s.phase {
	case PhaseOptionalMove:
		moves = append(moves, Move{Player: p, Step: Step{Kind: StepSkip}})
		moves = s.appendTokenMoves(moves, p)
	case PhaseAction:
		for i, q := range s.board {
			for _, c := range []Color{Red, Yellow} {
				if placeable(q, c) {
					moves = append(moves, Move{Player: p, Step: Step{Kind: StepPlace, Color: c, To: coord(i)}})
				}
			}
		}
		if !s.PlacementRequired() {
			moves = s.appendTokenMoves(moves, p)
		}
	case PhasePawn:
		for _, i := range s.pawnTargets(p) {
			moves = append(moves, Move{Player: p, Step: Step{Kind: StepPawn, To: coord(i)}})
		}
	case PhaseFishing:
		for _, i := range s.fishingSquares(p) {
			moves = append(moves, Move{Player: p, Step: Step{Kind: StepFish, To: coord(i)}})
		}
	}
	return moves
}

// appendTokenMoves appends p's token moves to moves.
func (s *State) appendTokenMoves(moves []Move, p engine.Player) []Move {
	for f, t := range s.tokenMoves() {
		moves = append(moves, Move{Player: p, Step: Step{Kind: StepMoveToken, From: f, To: t}})
	}
	return moves
}

// tokenMoves yields the token moves of the player to move, from and to, ordered by the square they leave, then the
// square they reach, both in row-major order.
func (s *State) tokenMoves() iter.Seq2[Coord, Coord] {
	return func(yield func(Coord, Coord) bool) {
		for from, q := range s.board {
			if q.Empty() || q.Pawn != engine.NoPlayer {
				continue
			}
			f := coord(from)
			for to := range s.board {
				if t := coord(to); s.board[to].Empty() && movable(q, f, t) && !yield(f, t) {
					return
				}
			}
		}
	}
}

// placeable reports whether a token of colour c may be placed on q: an empty square, or a single token of the other
// colour that carries no pawn.
func placeable(q Square, c Color) bool {
	return q.Empty() || !q.Stacked() && q.Pawn == engine.NoPlayer && q.Bottom != c
}

// movable reports whether the tokens q on square f may reach square t, ignoring what stands on t: a single token one
// square orthogonally, a stack's top (or the whole stack) any distance along its row or column.
func movable(q Square, f, t Coord) bool {
	dr, dc := t.Row-f.Row, t.Col-f.Col
	if q.Stacked() {
		return (dr == 0) != (dc == 0)
	}
	return dr*dr+dc*dc == 1
}

// pawnTargets returns the squares p's pawn may go to in step 3, in row-major order.
func (s *State) pawnTargets(p engine.Player) []int {
	var targets []int
	for i := range s.board {
		if s.pawnTarget(p, i) {
			targets = append(targets, i)
		}
	}
	return targets
}

// pawnTarget reports whether p's pawn may go to the square with index i in step 3.
func (s *State) pawnTarget(p engine.Player, i int) bool {
	q := s.board[i]
	return !q.Empty() && q.Pawn != opponent(p) && (q.Pawn != p || s.opts.PawnMayStay)
}

// fishingSquares returns the top-left squares of the fishing squares of p, in row-major order: the 2 x 2 blocks
// that hold p's pawn, have tokens on all four squares and one colour on each diagonal, and do not have the
// opponent's pawn on the square diagonally opposite p's.
func (s *State) fishingSquares(p engine.Player) []int {
	at := s.pawn[p]
	if at == offBoard {
		return nil
	}
	var corners []int
	pr, pc := at/Size, at%Size
	for r := max(pr-1, 0); r <= min(pr, Size-2); r++ {
		for c := max(pc-1, 0); c <= min(pc, Size-2); c++ {
			if s.fishing(p, r, c) {
				corners = append(corners, r*Size+c)
			}
		}
	}
	return corners
}

// fishing reports whether the block with top-left square (r, c) is a fishing square of p.
func (s *State) fishing(p engine.Player, r, c int) bool { return s.fishingFrom(p, s.pawn[p], r, c) }

// fishingFrom reports whether the block with top-left square (r, c) would be a fishing square of p with p's pawn on
// the square with index at (offBoard: nowhere).
func (s *State) fishingFrom(p engine.Player, at, r, c int) bool {
	pr, pc := at/Size, at%Size
	if at == offBoard || pr < r || pr > r+1 || pc < c || pc > c+1 {
		return false
	}
	i := r*Size + c
	a, b, x, d := s.board[i], s.board[i+1], s.board[i+Size], s.board[i+Size+1]
	if a.Empty() || b.Empty() || x.Empty() || d.Empty() || a.Color() != d.Color() || b.Color() != x.Color() {
		return false
	}
	opposite := (2*r+1-pr)*Size + (2*c + 1 - pc)
	return s.board[opposite].Pawn != opponent(p)
}

// Validate returns the error Apply would return for m, or nil. The checks, in order:
//
//   - PLAYER_OUT_OF_RANGE (Invalid, field "player");
//   - the shape of the step, or of each step of a turn (fields under "kipicot", such as "kipicot.place.to.row" or
//     "kipicot.turn.steps[1].place.color"): STEP_MISSING, SQUARE_OFF_BOARD, BLOCK_OFF_BOARD, COLOR_INVALID for a
//     placement's colour, TURN_EMPTY, TURN_TOO_LONG (Invalid);
//   - GAME_OVER, then NOT_YOUR_TURN (Illegal);
//   - the rules of the step in its phase (Illegal): WRONG_PHASE; for a token move NO_TOKEN, TOKEN_FROZEN,
//     DESTINATION_OCCUPIED, SINGLE_MOVES_ONE_STEP or STACK_MOVES_IN_LINE, then, in step 2, PLACEMENT_REQUIRED (only
//     a move that breaks no rule of moving gets it); for a
//     placement STACK_FULL, TOKEN_FROZEN or STACK_NEEDS_OTHER_COLOR; for a pawn step
//     PAWN_TARGET_EMPTY, PAWN_TARGET_TAKEN or PAWN_MUST_MOVE; for a fishing choice NOT_A_FISHING_SQUARE;
//   - for a turn, the errors of each step in order, with the field "kipicot.turn.steps[i]" and the fact "step" set
//     (even on Illegal errors); TURN_ALREADY_OVER (Illegal) for a step after the turn ended, TURN_INCOMPLETE
//     (Illegal, field "kipicot.turn") when the steps end before the turn does.
func (s *State) Validate(m Move) error {
	_, _, err := s.Apply(m)
	return err
}

// checkShape returns the Invalid error of a move whose player or steps are malformed.
func (s *State) checkShape(m Move) error {
	if m.Player < 1 || m.Player > Players {
		return engine.Invalidf(ReasonPlayerOutOfRange, "player",
			map[string]string{"player": strconv.Itoa(int(m.Player)), "players": strconv.Itoa(Players)},
			"player %d is not a player of this 2-player game", m.Player)
	}
	if m.Turn == nil {
		return checkStep(m.Step, "kipicot")
	}
	switch n := len(m.Turn); {
	case n == 0:
		return engine.Invalidf(ReasonTurnEmpty, "kipicot.turn.steps", map[string]string{},
			"the turn has no step")
	case n > MaxTurnSteps:
		return engine.Invalidf(ReasonTurnTooLong, "kipicot.turn.steps", map[string]string{"steps": strconv.Itoa(n)},
			"the turn has %d steps; a turn has at most four (optional move, action, pawn, fishing choice)", n)
	}
	for i, st := range m.Turn {
		if err := checkStep(st, fmt.Sprintf("kipicot.turn.steps[%d]", i)); err != nil {
			return err
		}
	}
	return nil
}

// checkStep returns the Invalid error of a malformed step whose message is at path.
func checkStep(st Step, path string) error {
	square := func(c Coord, field string, limit int, reason string) error {
		field = path + "." + st.Kind.name() + "." + field
		facts := map[string]string{"row": strconv.Itoa(c.Row), "col": strconv.Itoa(c.Col)}
		switch {
		case c.Row < 0 || c.Row >= limit:
			field += ".row"
		case c.Col < 0 || c.Col >= limit:
			field += ".col"
		default:
			return nil
		}
		if reason == ReasonBlockOffBoard {
			return engine.Invalidf(reason, field, facts,
				"block corner %v is off the board; a 2 x 2 block starts in rows and columns 0 to %d", c, limit-1)
		}
		return engine.Invalidf(reason, field, facts, "square %v is off the %d x %d board", c, Size, Size)
	}
	switch st.Kind {
	case StepSkip:
		return nil
	case StepMoveToken:
		if err := square(st.From, "from", Size, ReasonSquareOffBoard); err != nil {
			return err
		}
		return square(st.To, "to", Size, ReasonSquareOffBoard)
	case StepPlace:
		if !st.Color.valid() {
			return engine.Invalidf(ReasonColorInvalid, path+".place.color",
				map[string]string{"color": strconv.Itoa(int(st.Color))}, "colour %d is neither red nor yellow", st.Color)
		}
		return square(st.To, "to", Size, ReasonSquareOffBoard)
	case StepPawn:
		return square(st.To, "to", Size, ReasonSquareOffBoard)
	case StepFish:
		return square(st.To, "corner", Size-1, ReasonBlockOffBoard)
	}
	return engine.Invalidf(ReasonStepMissing, path, map[string]string{}, "the move holds no step")
}

// Apply plays m and returns the new state and the events of the move, in order (see Event). s is not changed. The
// error is Validate's.
func (s *State) Apply(m Move) (*State, []Event, error) {
	if err := s.checkShape(m); err != nil {
		return nil, nil, err
	}
	switch {
	case s.Over():
		return nil, nil, engine.Illegalf(ReasonGameOver, map[string]string{}, "the game is over")
	case m.Player != s.toMove:
		return nil, nil, engine.Illegalf(ReasonNotYourTurn,
			map[string]string{"player": strconv.Itoa(int(m.Player)), "toMove": strconv.Itoa(int(s.toMove))},
			"it is player %d's turn, not player %d's", s.toMove, m.Player)
	}
	next := *s
	if m.Turn == nil {
		events, err := next.step(m.Step, nil)
		if err != nil {
			return nil, nil, err
		}
		return &next, events, nil
	}
	var events []Event
	for i, st := range m.Turn {
		field := fmt.Sprintf("kipicot.turn.steps[%d]", i)
		if next.Over() || next.toMove != m.Player {
			return nil, nil, &engine.Error{Kind: engine.Illegal, Reason: ReasonTurnAlreadyOver, Field: field,
				Facts:   map[string]string{"step": strconv.Itoa(i)},
				Message: fmt.Sprintf("step %d (%v) comes after the end of the turn", i, st)}
		}
		var err error
		if events, err = next.step(st, events); err != nil {
			e, _ := engine.AsError(err)
			moved := *e
			moved.Field, moved.Message = field, fmt.Sprintf("step %d (%v): %s", i, st, e.Message)
			moved.Facts = make(map[string]string, len(e.Facts)+1)
			for k, v := range e.Facts {
				moved.Facts[k] = v
			}
			moved.Facts["step"] = strconv.Itoa(i)
			return nil, nil, &moved
		}
	}
	if !next.Over() && next.toMove == m.Player {
		return nil, nil, &engine.Error{Kind: engine.Illegal, Reason: ReasonTurnIncomplete, Field: "kipicot.turn",
			Facts:   map[string]string{"phase": next.phase.String(), "steps": strconv.Itoa(len(m.Turn))},
			Message: fmt.Sprintf("the turn's %d steps stop in phase %s; a turn must run to its end", len(m.Turn), next.phase)}
	}
	return &next, events, nil
}

// step plays one step of the player to move on s, changing s, and returns events with the step's events appended.
// The step is well formed (checkShape).
func (s *State) step(st Step, events []Event) ([]Event, error) {
	p := s.toMove
	var want string
	var ok bool
	switch st.Kind {
	case StepSkip:
		want, ok = "step 1", s.phase == PhaseOptionalMove
	case StepMoveToken:
		want, ok = "step 1 or 2", s.phase == PhaseOptionalMove || s.phase == PhaseAction
	case StepPlace:
		want, ok = "step 2", s.phase == PhaseAction
	case StepPawn:
		want, ok = "step 3", s.phase == PhasePawn
	case StepFish:
		want, ok = "a fishing choice", s.phase == PhaseFishing
	}
	if !ok {
		return nil, engine.Illegalf(ReasonWrongPhase, map[string]string{"kind": st.Kind.name(), "phase": s.phase.String()},
			"a %s step belongs to %s, and the turn is in phase %s", st.Kind.name(), want, s.phase)
	}
	switch st.Kind {
	case StepSkip:
		s.phase = PhaseAction
		return events, nil
	case StepMoveToken:
		// The move's own fault, more specific, comes before the anti-stall rule's.
		if err := s.checkTokenMove(st.From, st.To); err != nil {
			return nil, err
		}
		if s.phase == PhaseAction && s.PlacementRequired() {
			return nil, engine.Illegalf(ReasonPlacementRequired,
				map[string]string{"turnsWithoutPlacement": strconv.Itoa(s.idle),
					"antiStallRounds": strconv.Itoa(s.opts.AntiStallRounds)},
				"%d turns in a row placed no token: step 2 must place one", s.idle)
		}
		events = append(events, s.moveToken(p, st.From, st.To))
		if s.phase == PhaseOptionalMove {
			s.phase = PhaseAction
			return events, nil
		}
		if s.opts.AntiStallRounds > 0 {
			s.idle++
		}
		s.phase = PhasePawn
		return events, nil
	case StepPlace:
		e, err := s.place(p, st.Color, st.To)
		if err != nil {
			return nil, err
		}
		s.idle, s.phase = 0, PhasePawn
		return append(events, e), nil
	case StepPawn:
		e, err := s.jump(p, st.To)
		if err != nil {
			return nil, err
		}
		events = append(events, e)
		switch corners := s.fishingSquares(p); len(corners) {
		case 0:
		case 1:
			events = append(events, s.fish(p, corners[0]))
		default:
			s.phase = PhaseFishing
			choice := FishingChoice{Player: p, Corners: make([]Coord, len(corners))}
			for k, i := range corners {
				choice.Corners[k] = coord(i)
			}
			return append(events, choice), nil
		}
		return s.endTurn(events), nil
	}
	// StepFish.
	if !s.fishing(p, st.To.Row, st.To.Col) {
		return nil, engine.Illegalf(ReasonNotAFishingSquare,
			map[string]string{"row": strconv.Itoa(st.To.Row), "col": strconv.Itoa(st.To.Col)},
			"the block at %v is not a fishing square of player %d", st.To, p)
	}
	return s.endTurn(append(events, s.fish(p, st.To.index()))), nil
}

// checkTokenMove returns the Illegal error of a token move from f to t that breaks the rules of moving, or nil.
func (s *State) checkTokenMove(f, t Coord) error {
	q := s.board[f.index()]
	facts := map[string]string{"fromRow": strconv.Itoa(f.Row), "fromCol": strconv.Itoa(f.Col),
		"toRow": strconv.Itoa(t.Row), "toCol": strconv.Itoa(t.Col)}
	switch {
	case q.Empty():
		return engine.Illegalf(ReasonNoToken, facts, "square %v holds no token to move", f)
	case q.Pawn != engine.NoPlayer:
		facts["pawn"] = strconv.Itoa(int(q.Pawn))
		return engine.Illegalf(ReasonTokenFrozen, facts, "the tokens on %v carry player %d's pawn and cannot move",
			f, q.Pawn)
	case !s.board[t.index()].Empty():
		return engine.Illegalf(ReasonDestinationOccupied, facts,
			"square %v is not empty; tokens only move to empty squares (moves never make stacks)", t)
	case !movable(q, f, t) && q.Stacked():
		return engine.Illegalf(ReasonStackMovesInLine, facts,
			"%v to %v: a stack moves along its row or its column", f, t)
	case !movable(q, f, t):
		return engine.Illegalf(ReasonSingleMovesOneStep, facts,
			"%v to %v: a single token moves one square up, down, left or right", f, t)
	}
	return nil
}

// moveToken moves the tokens that may move from f to t (checkTokenMove accepts the move) and returns its event.
func (s *State) moveToken(p engine.Player, f, t Coord) Event {
	q := s.board[f.index()]
	e := TokenMoved{Player: p, From: f, To: t, Color: q.Color()}
	if q.Stacked() && s.opts.WholeStackMoves {
		e.Under = q.Bottom
	}
	s.shift(f.index(), t.index())
	return e
}

// shift moves the tokens that may move from the square with index f to the empty square with index t: a single
// token, a stack's top, or a whole stack with Options.WholeStackMoves.
func (s *State) shift(f, t int) {
	q := s.board[f]
	if !q.Stacked() || s.opts.WholeStackMoves {
		s.board[t], s.board[f] = q, Square{}
		return
	}
	s.board[t] = Square{Bottom: q.Top}
	s.board[f].Top = NoColor
}

// place puts a token of colour c from the supply on t. The supply of c is never empty in step 2: both supplies are
// above the end threshold (at least 0) at the start of every turn (NewState checks it), and only step 2 takes from
// them.
func (s *State) place(p engine.Player, c Color, t Coord) (Event, error) {
	q := s.board[t.index()]
	facts := map[string]string{"color": c.String(), "row": strconv.Itoa(t.Row), "col": strconv.Itoa(t.Col)}
	switch {
	case q.Empty():
		s.supply[c]--
		s.board[t.index()].Bottom = c
		return TokenPlaced{Player: p, Square: t, Color: c}, nil
	case q.Stacked():
		return nil, engine.Illegalf(ReasonStackFull, facts, "square %v already holds a stack of two", t)
	case q.Pawn != engine.NoPlayer:
		facts["pawn"] = strconv.Itoa(int(q.Pawn))
		return nil, engine.Illegalf(ReasonTokenFrozen, facts,
			"the token on %v carries player %d's pawn; nothing is stacked on it", t, q.Pawn)
	case q.Bottom == c:
		return nil, engine.Illegalf(ReasonStackNeedsOtherColor, facts,
			"square %v holds a %s token; a token is only stacked on one of the other colour", t, c)
	}
	s.supply[c]--
	s.board[t.index()].Top = c
	return TokenStacked{Player: p, Square: t, Color: c, Under: q.Bottom}, nil
}

// jump puts p's pawn on t.
func (s *State) jump(p engine.Player, t Coord) (Event, error) {
	i, q := t.index(), s.board[t.index()]
	facts := map[string]string{"row": strconv.Itoa(t.Row), "col": strconv.Itoa(t.Col)}
	switch {
	case q.Empty():
		return nil, engine.Illegalf(ReasonPawnTargetEmpty, facts, "square %v holds no token for the pawn", t)
	case q.Pawn == opponent(p):
		return nil, engine.Illegalf(ReasonPawnTargetTaken, facts, "player %d's pawn already stands on %v", q.Pawn, t)
	case q.Pawn == p && !s.opts.PawnMayStay:
		return nil, engine.Illegalf(ReasonPawnMustMove, facts, "the pawn already stands on %v; it must change token", t)
	}
	e := PawnPlaced{Player: p, To: t}
	if from := s.pawn[p]; from != offBoard {
		e.From, e.FromBoard = coord(from), true
		s.board[from].Pawn = engine.NoPlayer
	}
	s.board[i].Pawn, s.pawn[p] = p, i
	return e, nil
}

// fish takes the fishing square with top-left square index corner for p: every token of its four squares but those
// under the opponent's pawn. p's pawn leaves the board with the catch.
func (s *State) fish(p engine.Player, corner int) Event {
	e := Fished{Player: p, Corner: coord(corner)}
	for _, i := range []int{corner, corner + 1, corner + Size, corner + Size + 1} {
		q := s.board[i]
		if q.Pawn == opponent(p) {
			continue
		}
		for _, c := range []Color{q.Bottom, q.Top} {
			if c != NoColor {
				s.caught[p][c]++
				e.Caught.add(c)
			}
		}
		e.Taken = append(e.Taken, coord(i))
		s.board[i] = Square{}
	}
	s.pawn[p] = offBoard
	return e
}

// add counts one token of colour c.
func (c *Catch) add(color Color) {
	if color == Red {
		c.Red++
	} else {
		c.Yellow++
	}
}

// endTurn ends the turn of the player to move: the game ends if a supply is at or below the end threshold, else the
// other player starts step 1. It returns events with a GameOver appended when the game ends.
func (s *State) endTurn(events []Event) []Event {
	if min(s.supply[Red], s.supply[Yellow]) > s.opts.EndThreshold {
		s.toMove, s.phase = opponent(s.toMove), PhaseOptionalMove
		return events
	}
	s.toMove, s.phase = engine.NoPlayer, PhaseOver
	sc := s.Score()
	return append(events, GameOver{Winner: sc.Winner, Draw: sc.Draw})
}
