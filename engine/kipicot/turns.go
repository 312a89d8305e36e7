package kipicot

import "github.com/rulebook/rulebook/engine"

// This file holds the bot's whole-turn primitives: the fast enumeration of the rest of a turn and of what it can
// catch. They play steps that Legal lists without checks or events (act), and rate pawn steps without playing them
// (catchAt); turns_test.go compares them with Legal and Apply on random positions.

// act plays st, a step 1 or step 2 step (skip, token move or placement) that Legal lists for the player to move, on s
// in place: Apply's effect without its checks or events.
func (s *State) act(st Step) {
	switch st.Kind {
	case StepSkip:
		s.phase = PhaseAction
	case StepMoveToken:
		s.shift(st.From.index(), st.To.index())
		if s.phase == PhaseOptionalMove {
			s.phase = PhaseAction
			return
		}
		if s.opts.AntiStallRounds > 0 {
			s.idle++
		}
		s.phase = PhasePawn
	case StepPlace:
		q := &s.board[st.To.index()]
		if q.Empty() {
			q.Bottom = st.Color
		} else {
			q.Top = st.Color
		}
		s.supply[st.Color]--
		s.idle, s.phase = 0, PhasePawn
	}
}

// actions calls yield with each state at the pawn step that the player to move in s (at step 1, step 2 or the pawn
// step) can reach, and the steps that reach it (at most two), in Legal's order, until yield returns false; it returns
// false when yield did. A state reached by two paths comes twice. It plays the steps on s itself and takes them back
// before it returns: yield must not change or keep the state, nor keep the steps.
func (s *State) actions(yield func(at *State, steps []Step) bool) bool {
	var buf [2]Step
	return s.actionsAfter(buf[:0], yield)
}

// actionsAfter is actions with the steps that reached s.
func (s *State) actionsAfter(steps []Step, yield func(at *State, steps []Step) bool) bool {
	if s.phase == PhasePawn {
		return yield(s, steps)
	}
	try := func(st Step) bool {
		phase, idle, supply := s.phase, s.idle, s.supply
		var from, to Square
		if st.Kind == StepMoveToken {
			from = s.board[st.From.index()]
		}
		if st.Kind != StepSkip {
			to = s.board[st.To.index()]
		}
		s.act(st)
		ok := s.actionsAfter(append(steps, st), yield)
		s.phase, s.idle, s.supply = phase, idle, supply
		if st.Kind == StepMoveToken {
			s.board[st.From.index()] = from
		}
		if st.Kind != StepSkip {
			s.board[st.To.index()] = to
		}
		return ok
	}
	switch s.phase {
	case PhaseOptionalMove:
		if !try(Step{Kind: StepSkip}) {
			return false
		}
	case PhaseAction:
		for i := range s.board {
			for _, c := range []Color{Red, Yellow} {
				if placeable(s.board[i], c) && !try(Step{Kind: StepPlace, Color: c, To: coord(i)}) {
					return false
				}
			}
		}
		if s.PlacementRequired() {
			return true
		}
	default:
		return true
	}
	for f, t := range s.tokenMoves() {
		if !try(Step{Kind: StepMoveToken, From: f, To: t}) {
			return false
		}
	}
	return true
}

// blockCatch returns the tokens p takes from the block with top-left square index corner: all but those under the
// opponent's pawn.
func (s *State) blockCatch(p engine.Player, corner int) int {
	n := 0
	for _, i := range [4]int{corner, corner + 1, corner + Size, corner + Size + 1} {
		if s.board[i].Pawn != opponent(p) {
			n += s.board[i].Tokens()
		}
	}
	return n
}

// catchAt returns what the player to move in s, at the pawn step, catches by putting the pawn on the square with
// index i, a target of the pawn: the biggest catch of the fishing squares it would have there, the top-left square
// index of that fishing square, and how many fishing squares it would have (0: no catch, corner -1; 2 or more: a
// fishing choice follows).
func (s *State) catchAt(i int) (catch, corner, squares int) {
	p, corner := s.toMove, -1
	pr, pc := i/Size, i%Size
	for r := max(pr-1, 0); r <= min(pr, Size-2); r++ {
		for c := max(pc-1, 0); c <= min(pc, Size-2); c++ {
			if !s.fishingFrom(p, i, r, c) {
				continue
			}
			squares++
			if n := s.blockCatch(p, r*Size+c); n > catch {
				catch, corner = n, r*Size+c
			}
		}
	}
	return catch, corner, squares
}

// full reports whether the block with top-left square index corner has tokens on its four squares and one colour on
// each diagonal: a fishing square for a pawn on it, pawns aside.
func (s *State) full(corner int) bool {
	a, b, c, d := s.board[corner], s.board[corner+1], s.board[corner+Size], s.board[corner+Size+1]
	return !a.Empty() && !b.Empty() && !c.Empty() && !d.Empty() && a.Color() == d.Color() && b.Color() == c.Color()
}

// bestPawn returns the most the player to move in s, at the pawn step, catches with one pawn step.
func (s *State) bestPawn() int {
	best := 0
	for r := range Size - 1 {
		for c := range Size - 1 {
			corner := r*Size + c
			if !s.full(corner) {
				continue
			}
			for _, i := range [4]int{corner, corner + 1, corner + Size, corner + Size + 1} {
				if s.pawnTarget(s.toMove, i) && s.fishingFrom(s.toMove, i, r, c) {
					best = max(best, s.blockCatch(s.toMove, corner))
				}
			}
		}
	}
	return best
}

// bestCatch returns the most tokens the player to move in s can catch in the rest of their turn (0 once the game is
// over); it stops as soon as it finds a catch of limit or more, and returns that catch.
func (s *State) bestCatch(limit int) int {
	switch s.phase {
	case PhaseOver:
		return 0
	case PhaseFishing:
		best := 0
		for _, corner := range s.fishingSquares(s.toMove) {
			best = max(best, s.blockCatch(s.toMove, corner))
		}
		return best
	}
	best, work := 0, *s
	work.actions(func(at *State, _ []Step) bool {
		best = max(best, at.bestPawn())
		return best < limit
	})
	return best
}

// turn is a whole turn (or the rest of one) of the player to move, from a state at the pawn step that turns.via
// lists (or from the fishing choice): its pawn target (-1 at a fishing choice), the fishing square it takes (-1 for
// none, or when it needs no choice), what it catches, and whether the game ends with it.
type turn struct {
	via            int32
	target, corner int8
	catch          int8
	ends           bool
}

// via is the steps from a state to one at the pawn step.
type via struct {
	steps [2]Step
	n     int8
}

// turns are the whole turns (or the rests of the turn) of the player to move in from.
type turns struct {
	from State
	via  []via
	list []turn
}

// turnsOf returns every turn of the player to move in s, a state that goes on: one for each distinct board at the
// pawn step and pawn target (with the fishing square of the biggest catch), or each fishing square at a fishing
// choice.
func turnsOf(s *State) *turns {
	ts := &turns{from: *s, via: []via{{}}}
	if s.phase == PhaseFishing {
		for _, corner := range s.fishingSquares(s.toMove) {
			ts.list = append(ts.list, turn{target: -1, corner: int8(corner),
				catch: int8(s.blockCatch(s.toMove, corner)), ends: s.ending()})
		}
		return ts
	}
	ts.via = ts.via[:0]
	seen := map[boardKey]bool{}
	work := *s
	work.actions(func(at *State, steps []Step) bool {
		key := at.key()
		if seen[key] {
			return true
		}
		seen[key] = true
		v := via{n: int8(len(steps))}
		copy(v.steps[:], steps)
		ts.via = append(ts.via, v)
		n, ends := int32(len(ts.via)-1), at.ending()
		var full [Squares]bool // squares of the blocks that may be fishing squares
		for r := range Size - 1 {
			for c := range Size - 1 {
				if corner := r*Size + c; at.full(corner) {
					full[corner], full[corner+1], full[corner+Size], full[corner+Size+1] = true, true, true, true
				}
			}
		}
		for i := range at.board {
			if !at.pawnTarget(at.toMove, i) {
				continue
			}
			catch, corner, squares := 0, -1, 0
			if full[i] {
				catch, corner, squares = at.catchAt(i)
			}
			if squares < 2 {
				corner = -1
			}
			ts.list = append(ts.list, turn{via: n, target: int8(i), corner: int8(corner), catch: int8(catch), ends: ends})
		}
		return true
	})
	return ts
}

// boardKey is a board in few bytes: two bits for each colour of a square and two for its pawn.
type boardKey [3]uint64

// key returns the key of the board of s.
func (s *State) key() boardKey {
	var k boardKey
	for i, q := range s.board {
		k[i/10] |= uint64(q.Bottom|q.Top<<2|Color(q.Pawn)<<4) << (6 * (i % 10))
	}
	return k
}

// ending reports whether the turn under way ends the game: a supply is at the end threshold (only a placement takes
// it there, and the threshold is checked at the end of the turn).
func (s *State) ending() bool { return min(s.supply[Red], s.supply[Yellow]) <= s.opts.EndThreshold }

// steps returns the steps of turn k.
func (ts *turns) steps(k int) []Step {
	t := ts.list[k]
	v := ts.via[t.via]
	steps := append([]Step(nil), v.steps[:v.n]...)
	if t.target >= 0 {
		steps = append(steps, Step{Kind: StepPawn, To: coord(int(t.target))})
	}
	if t.corner >= 0 {
		steps = append(steps, Step{Kind: StepFish, To: coord(int(t.corner))})
	}
	return steps
}

// after returns the state after turn k.
func (ts *turns) after(k int) *State {
	next := ts.from
	for i, st := range ts.steps(k) {
		if i < int(ts.via[ts.list[k].via].n) {
			next.act(st)
			continue
		}
		if _, err := next.step(st, nil); err != nil {
			panic("kipicot: the bot's turn broke a rule: " + err.Error())
		}
	}
	return &next
}
