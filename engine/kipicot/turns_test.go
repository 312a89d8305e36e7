package kipicot

import (
	"math/rand/v2"
	"testing"
)

// randomStates returns the states of seeded random games with opts, at every step, until n are collected.
func randomStates(t testing.TB, opts Options, seed uint64, n int) []*State {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []*State
	for len(out) < n {
		s := newGame(t, opts)
		for !s.Over() && len(out) < n {
			out = append(out, s)
			legal := s.Legal(s.ToMove())
			s, _ = play(t, s, legal[rng.IntN(len(legal))].Step)
		}
	}
	return out
}

// plainActions returns the states at the pawn step that Legal and Apply reach from s, by their boards.
func plainActions(t testing.TB, s *State, into map[State]bool) {
	if s.Phase() == PhasePawn {
		into[*s] = true
		return
	}
	for _, m := range s.Legal(s.ToMove()) {
		next, _ := play(t, s, m.Step)
		plainActions(t, next, into)
	}
}

// plainBest returns the most the player to move catches in the rest of the turn, by Legal and Apply.
func plainBest(t testing.TB, s *State) int {
	p, best := s.ToMove(), 0
	for _, m := range s.Legal(p) {
		next, _ := play(t, s, m.Step)
		if next.ToMove() == p && !next.Over() {
			best = max(best, plainBest(t, next))
			continue
		}
		best = max(best, next.Caught(p).Total()-s.Caught(p).Total())
	}
	return best
}

// TestTurnsTwin compares the bot's fast whole-turn primitives with their plain twins, Legal and Apply, on random
// positions of every option set: the states at the pawn step that actions reaches, what catchAt says a pawn step
// catches, what bestCatch finds in a turn, and the turns turnsOf lists with the states after them. It fails when the
// positions compared held too few catches to prove anything.
func TestTurnsTwin(t *testing.T) {
	optionSets := []Options{DefaultOptions(), {WholeStackMoves: true, AntiStallRounds: 3},
		{PawnMayStay: true, AntiStallRounds: 1}, {EndThreshold: 5, AntiStallRounds: 2}}
	catches, bests := 0, 0
	for o, opts := range optionSets {
		for i, s := range randomStates(t, opts, uint64(o), 60) {
			if s.Phase() == PhaseOver {
				continue
			}
			if s.Phase() != PhaseFishing {
				want := map[State]bool{}
				plainActions(t, s, want)
				got := map[State]bool{}
				work := *s
				work.actions(func(at *State, steps []Step) bool {
					got[*at] = true
					if replayed, _ := play(t, s, steps...); *replayed != *at {
						t.Fatalf("%d/%d: steps %v reach\n%v\nnot\n%v", o, i, steps, replayed, at)
					}
					return true
				})
				if work != *s {
					t.Fatalf("%d/%d: actions left\n%v\nnot\n%v", o, i, &work, s)
				}
				if len(got) != len(want) {
					t.Fatalf("%d/%d: actions reach %d states, Legal and Apply %d\n%v", o, i, len(got), len(want), s)
				}
				for at := range want {
					if !got[at] {
						t.Fatalf("%d/%d: actions miss\n%v", o, i, &at)
					}
					checkCatchAt(t, &at)
				}
			}
			if i%10 == 0 {
				best := plainBest(t, s)
				if got := s.bestCatch(100); got != best {
					t.Fatalf("%d/%d: bestCatch %d, Legal and Apply %d\n%v", o, i, got, best, s)
				}
				if best > 0 {
					bests++
				}
			}
			if i%12 == 0 {
				ts := turnsOf(s)
				for k := range ts.list {
					tn := &ts.list[k]
					after, _ := play(t, s, ts.steps(k)...)
					if got := ts.after(k); *got != *after {
						t.Fatalf("%d/%d: turn %v after\n%v\nnot\n%v", o, i, ts.steps(k), got, after)
					}
					p := s.ToMove()
					if c := after.Caught(p).Total() - s.Caught(p).Total(); c != int(tn.catch) || after.Over() != tn.ends {
						t.Fatalf("%d/%d: turn %v catches %d (ends %v), turnsOf says %d (%v)", o, i, ts.steps(k), c,
							after.Over(), tn.catch, tn.ends)
					}
					if tn.catch > 0 {
						catches++
					}
				}
			}
		}
	}
	if catches < 10 || bests < 4 {
		t.Errorf("only %d catching turns and %d positions with a catch compared: too few to prove anything", catches,
			bests)
	}
}

// checkCatchAt compares catchAt with Apply for every pawn target of at, at the pawn step.
func checkCatchAt(t *testing.T, at *State) {
	p := at.ToMove()
	for _, m := range at.Legal(p) {
		next, _ := play(t, at, m.Step)
		want := next.Caught(p).Total() - at.Caught(p).Total()
		squares := 0
		if next.Phase() == PhaseFishing {
			for _, f := range next.Legal(p) {
				after, _ := play(t, next, f.Step)
				want = max(want, after.Caught(p).Total()-at.Caught(p).Total())
				squares++
			}
		} else if want > 0 {
			squares = 1
		}
		catch, _, n := at.catchAt(m.To.index())
		if catch != want || n != squares && squares > 0 {
			t.Fatalf("pawn %v: catchAt %d (%d squares), Apply %d (%d)\n%v", m.To, catch, n, want, squares, at)
		}
	}
}
