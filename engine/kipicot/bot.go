package kipicot

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// botLevels are Kipicot's bot levels, calibrated against the whole-turn greedy player of rulebook-arena
// (docs/bots.md has the measurements).
func botLevels() []*rulebookv1.BotLevelInfo {
	return engine.BotLevels(
		engine.LevelInfo{Iterations: 20, Description: "Rates 20 replies a move: about " +
			"as strong as a player that plays the whole turn with the biggest catch, then the one that leaves the " +
			"opponent the least."},
		engine.LevelInfo{Iterations: 60, Description: "Rates 60 replies a move: " +
			"beats that player about three games in four."},
		engine.LevelInfo{Iterations: 1_500, Description: "Rates up to 1,500 replies a move: its whole " +
			"search in most positions, a few hundredths of a second; beats that player nearly always."})
}

// Suggest is Kipicot's bot: a search over whole turns (the rest of the current turn first), by their catches. It
// lists every turn of the seat (one for each distinct board after the action and each pawn target), then rates them
// in two rounds, each turn in order of what it catches, the turns that touch the crowded blocks (three or more squares
// with tokens) first, equals in a seeded random order:
//
//   - two turns deep: what the turn catches less the most the opponent can catch in reply, keeping the best 16;
//   - three turns deep, for those, best first: what the turn catches less the best the opponent can make of the same
//     two-turn rating (their catch less the most the seat catches after it).
//
// Both use alpha-beta bounds: a turn is never worth more than its catch, and a reply is cut as soon as it shows the
// turn no better than the best so far. A turn that ends the game is worth its catch and a win or a loss (winValue).
// An iteration is one rating of the most a player can catch in a turn. The move is the first step of the best turn,
// as Legal lists the steps, and the principal variation the turn's steps; a call in the middle of a turn searches the
// rest of it. Kipicot hides nothing, so the search plays on s itself.
func (definition) Suggest(s *State, seat engine.Player, b engine.Budget) (engine.Plan[Move], error) {
	if s.Over() || s.toMove != seat {
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	x := &botSearch{budget: b, rng: rand.New(rand.NewPCG(b.Seed, 0x6b697063))}
	ts := turnsOf(s)
	if len(ts.list) == 0 {
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	k, value := x.best(s, ts)
	steps := ts.steps(k)
	plan := engine.Plan[Move]{Move: Move{Player: seat, Step: steps[0]}, Iterations: int64(x.iterations)}
	for _, st := range steps {
		plan.PrincipalVariation = append(plan.PrincipalVariation, Move{Player: seat, Step: st})
	}
	lead := float64(s.Caught(seat).Total() - s.Caught(opponent(seat)).Total())
	plan.Evaluation = &rulebookv1.Evaluation{WinProbability: 1 / (1 + math.Exp(-(lead+float64(value))/estimateScale))}
	return plan, nil
}

// estimateScale is the lead, in tokens, that the evaluation rates a win probability of about 0.73.
const estimateScale = 2

// keep is the number of turns the first round keeps for the second.
const keep = 16

// winValue is the worth of a won game's end, in tokens: more than any catch.
const winValue = 100

// botSearch is one search of the bot: its budget and the iterations it has run.
type botSearch struct {
	budget     engine.Budget
	rng        *rand.Rand
	iterations int
	stopped    bool
}

// catchable returns the most the player to move in s can catch this turn, or as much as limit as soon as it finds
// that much; it counts an iteration, and sets stopped (its answer then means nothing) when the budget is spent.
func (x *botSearch) catchable(s *State, limit int) int {
	if x.stopped || x.budget.Iterations > 0 && x.iterations >= x.budget.Iterations || x.budget.Stopped() {
		x.stopped = true
		return 0
	}
	x.iterations++
	return s.bestCatch(limit)
}

// bound returns the most turn k of ts can be worth to its player: its catch, and a win if it ends the game.
func bound(t *turn) int {
	if t.ends {
		return int(t.catch) + winValue
	}
	return int(t.catch)
}

// ended returns the worth to p of the end of the game in over: winValue for a win, minus it for a loss, 0 for a draw.
func ended(over *State, p engine.Player) int {
	return winValue * cmp.Compare(over.Caught(p).Total(), over.Caught(opponent(p)).Total())
}

// ordered returns the indexes of ts.list in the order the search tries them: the highest bound first, then those
// that touch the crowded blocks most (by their steps and pawn target), equals in a random order.
func (x *botSearch) ordered(s *State, ts *turns) []int {
	hot := s.crowded()
	touch := make([]uint64, len(ts.via))
	for i, v := range ts.via {
		for _, st := range v.steps[:v.n] {
			if st.Kind != StepSkip && (hot[st.To.index()] || st.Kind == StepMoveToken && hot[st.From.index()]) {
				touch[i]++
			}
		}
	}
	keys := make([]uint64, len(ts.list))
	for k := range ts.list {
		t := &ts.list[k]
		near := touch[t.via]
		if t.target >= 0 && hot[t.target] {
			near++
		}
		keys[k] = uint64(bound(t)+128)<<48 | near<<40 | uint64(x.rng.Uint32()>>12)<<20 | uint64(k)
	}
	slices.Sort(keys)
	order := make([]int, len(keys))
	for i, key := range keys {
		order[len(keys)-1-i] = int(key & (1<<20 - 1))
	}
	return order
}

// crowded returns the squares of the blocks with tokens on three or four squares.
func (s *State) crowded() [Squares]bool {
	var hot [Squares]bool
	for r := range Size - 1 {
		for c := range Size - 1 {
			block := [4]int{r*Size + c, r*Size + c + 1, (r+1)*Size + c, (r+1)*Size + c + 1}
			n := 0
			for _, i := range block {
				if !s.board[i].Empty() {
					n++
				}
			}
			if n >= 3 {
				for _, i := range block {
					hot[i] = true
				}
			}
		}
	}
	return hot
}

// rated is a turn of the root with its ratings two and three turns deep.
type rated struct {
	k, two, three int
}

// best returns the index in ts of the best turn of the player to move in s, and its rating.
func (x *botSearch) best(s *State, ts *turns) (int, int) {
	me := s.toMove
	order := x.ordered(s, ts)
	var top []rated
	for _, k := range order {
		t := &ts.list[k]
		floor := math.MinInt / 2
		if len(top) == keep {
			floor = top[keep-1].two
		}
		if bound(t) <= floor {
			continue
		}
		after := ts.after(k)
		v := int(t.catch)
		if after.Over() {
			v += ended(after, me)
		} else {
			v -= x.catchable(after, v-floor)
		}
		if x.stopped {
			break
		}
		if v > floor {
			at := 0
			for at < len(top) && top[at].two >= v {
				at++
			}
			top = slices.Insert(top, at, rated{k: k, two: v})
			top = top[:min(len(top), keep)]
		}
	}
	if len(top) == 0 {
		return order[0], int(ts.list[order[0]].catch)
	}
	choice, value := top[0].k, top[0].two
	bestThree := math.MinInt / 2
	for _, r := range top {
		t := &ts.list[r.k]
		after := ts.after(r.k)
		three := r.two
		if !after.Over() {
			three = int(t.catch) - x.reply(after, int(t.catch)-bestThree)
		}
		if x.stopped {
			break
		}
		if three > bestThree {
			choice, value, bestThree = r.k, three, three
		}
	}
	return choice, value
}

// reply returns the best two-turn rating of the player to move in s, a state that goes on: what their turn catches
// less the most the other then catches. It stops as soon as it reaches beta.
func (x *botSearch) reply(s *State, beta int) int {
	ts := turnsOf(s)
	p := s.toMove
	best := math.MinInt / 2
	for _, k := range x.ordered(s, ts) {
		t := &ts.list[k]
		if bound(t) <= best {
			continue
		}
		after := ts.after(k)
		v := int(t.catch)
		if after.Over() {
			v += ended(after, p)
		} else {
			v -= x.catchable(after, v-best)
		}
		if x.stopped {
			return best
		}
		if best = max(best, v); best >= beta {
			return best
		}
	}
	return best
}
