package main

import (
	"math/rand/v2"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// turnGreedy plays Kipicot by whole turns, as a user's program would through the API (Legal, Apply and the state it
// is shown): at the first step of its turn it tries every complete turn (each distinct position after the optional
// move and the action, then each pawn step and fishing choice), keeps those of the largest catch, and among them
// plays one that leaves the opponent the smallest best catch in their next whole turn, ties at random. It then plays
// that turn's steps one call at a time, and plans again from the position it is given if that is not the one it
// expected. A pawn step is applied only when it lands in a block whose four squares hold tokens with one colour on
// each diagonal (the only ones that can catch); the others catch nothing. The opponent's best catch is rated with
// bounds: a turn stops being rated as soon as the opponent can catch as much as after the best turn so far, the
// search stops at a turn that leaves them nothing, and it rates at most maxRated turns of the largest catch, drawn at
// random (rating every one could take minutes in a crowded position).
type turnGreedy struct {
	rng *rand.Rand
	// plan is the rest of the turn chosen, and expect the held form of the position in which plan[0] is played.
	plan   []*rulebookv1.Move
	expect string
}

func (*turnGreedy) name() string { return "turn-greedy" }

// choose plays the next step of the turn planned, planning it first when needed.
func (g *turnGreedy) choose(state engine.Position, seat engine.Player) (*rulebookv1.Move, error) {
	held, _, err := state.Held(seat)
	if err != nil {
		return nil, err
	}
	if len(g.plan) == 0 || string(held) != g.expect {
		if g.plan, err = g.planTurn(state, seat); err != nil || len(g.plan) == 0 {
			return nil, err
		}
	}
	m := g.plan[0]
	g.plan = g.plan[1:]
	if len(g.plan) > 0 {
		next, _, err := state.Apply(m)
		if err != nil {
			return nil, err
		}
		if held, _, err = next.Held(seat); err != nil {
			return nil, err
		}
		g.expect = string(held)
	}
	return m, nil
}

// maxRated is the most turns of the largest catch whose opponent's best catch turnGreedy rates.
const maxRated = 48

// kipicotTurn is a complete turn (or the rest of one): its steps, what it catches, and the position after it.
type kipicotTurn struct {
	steps []*rulebookv1.Move
	catch int
	after engine.Position
}

// planTurn returns the steps of the turn chosen for seat from state.
func (g *turnGreedy) planTurn(state engine.Position, seat engine.Player) ([]*rulebookv1.Move, error) {
	var best []kipicotTurn
	err := eachKipicotTurn(state, seat, func(t kipicotTurn) bool {
		switch {
		case len(best) == 0 || t.catch > best[0].catch:
			best = append(best[:0], t)
		case t.catch == best[0].catch:
			best = append(best, t)
		}
		return true
	})
	if err != nil || len(best) == 0 {
		return nil, err
	}
	g.rng.Shuffle(len(best), func(i, j int) { best[i], best[j] = best[j], best[i] })
	choice, least := 0, -1
	for i, t := range best[:min(len(best), maxRated)] {
		if t.after == nil {
			if t.after, err = applyAll(state, t.steps); err != nil {
				return nil, err
			}
		}
		left, err := bestKipicotCatch(t.after, least)
		if err != nil {
			return nil, err
		}
		if least < 0 || left < least {
			choice, least = i, left
		}
		if least == 0 {
			break
		}
	}
	return best[choice].steps, nil
}

// bestKipicotCatch returns the most the player to move in state can catch in their turn (0 once the game is over),
// or, as soon as it finds as much as limit (when limit is 0 or more), that catch.
func bestKipicotCatch(state engine.Position, limit int) (int, error) {
	if state.Score().GetGameOver() {
		return 0, nil
	}
	best := 0
	err := eachKipicotTurn(state, state.ToMove()[0], func(t kipicotTurn) bool {
		best = max(best, t.catch)
		return limit < 0 || best < limit
	})
	return best, err
}

// applyAll plays steps from state.
func applyAll(state engine.Position, steps []*rulebookv1.Move) (engine.Position, error) {
	for _, m := range steps {
		var err error
		if state, _, err = state.Apply(m); err != nil {
			return nil, err
		}
	}
	return state, nil
}

// eachKipicotTurn calls visit with each complete turn of seat from state (the rest of the turn under way), until it
// returns false. Positions reached twice before the pawn step are tried once; a turn whose pawn step cannot catch
// comes without its position after (nil) and a catch of 0.
func eachKipicotTurn(state engine.Position, seat engine.Player, visit func(kipicotTurn) bool) error {
	seen := map[string]bool{}
	var walk func(at engine.Position, steps []*rulebookv1.Move) (bool, error)
	walk = func(at engine.Position, steps []*rulebookv1.Move) (bool, error) {
		held, view, err := at.Held(seat)
		if err != nil || seen[string(held)] {
			return err == nil, err
		}
		seen[string(held)] = true
		legal, err := at.Legal(seat)
		if err != nil {
			return false, err
		}
		k := view.GetKipicot()
		pawnStep := k.GetPhase() == rulebookv1.KipicotPhase_KIPICOT_PHASE_PAWN
		for _, m := range legal {
			line := append(steps[:len(steps):len(steps)], m)
			if pawnStep && !mayCatch(k.GetSquares(), m.GetKipicot().GetPawn().GetTo()) {
				if !visit(kipicotTurn{steps: line}) {
					return false, nil
				}
				continue
			}
			next, _, err := at.Apply(m)
			if err != nil {
				return false, err
			}
			if toMove := next.ToMove(); len(toMove) == 1 && toMove[0] == seat && !next.Score().GetGameOver() {
				if ok, err := walk(next, line); !ok || err != nil {
					return ok, err
				}
				continue
			}
			catch := points(next.Score(), seat) - points(at.Score(), seat)
			if !visit(kipicotTurn{steps: line, catch: catch, after: next}) {
				return false, nil
			}
		}
		return true, nil
	}
	_, err := walk(state, nil)
	return err
}

// points returns seat's points in score.
func points(score *rulebookv1.Score, seat engine.Player) int {
	for _, st := range score.GetStandings() {
		if engine.Player(st.GetPlayer()) == seat {
			return int(st.GetPoints())
		}
	}
	return 0
}

// mayCatch reports whether a pawn on to may catch on the board squares (row by row): whether to lies in a 2 x 2 block
// whose four squares hold tokens, with one top colour on each diagonal.
func mayCatch(squares []*rulebookv1.KipicotSquare, to *rulebookv1.KipicotCoord) bool {
	const size = 5
	top := func(r, c int) rulebookv1.KipicotColor {
		tokens := squares[r*size+c].GetTokens()
		if len(tokens) == 0 {
			return rulebookv1.KipicotColor_KIPICOT_COLOR_UNSPECIFIED
		}
		return tokens[len(tokens)-1]
	}
	row, col := int(to.GetRow()), int(to.GetCol())
	for r := max(row-1, 0); r <= min(row, size-2); r++ {
		for c := max(col-1, 0); c <= min(col, size-2); c++ {
			a, b, x, d := top(r, c), top(r, c+1), top(r+1, c), top(r+1, c+1)
			if a != rulebookv1.KipicotColor_KIPICOT_COLOR_UNSPECIFIED && b != rulebookv1.KipicotColor_KIPICOT_COLOR_UNSPECIFIED &&
				a == d && b == x {
				return true
			}
		}
	}
	return false
}
