package micropul

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestApplySharesNoChange plays a game, at each ply applying every legal move and, to each result, the first legal move
// of each action, and checks that no state of the game so far, nor any result, changes: a copy shares its lists, so a
// change made in place would show. Each position is rebuilt by newState from lists with room to grow, which a list
// changed in place (or appended to) would use.
func TestApplySharesNoChange(t *testing.T) {
	roomy := func(ids []int) []int { return append(make([]int, 0, len(ids)+4), ids...) }
	rebuilt := func(s *State) *State {
		p := Position{Options: s.opts, Board: append(make([]Placed, 0, len(s.board)+4), s.board...),
			Stones: append(make([]Stone, 0, len(s.stones)+4), s.stones...), Core: roomy(s.core), ToMove: s.toMove,
			ExtraTurn: s.extraTurn, ExtraTurnsPending: s.pending, End: s.end, Loser: s.loser}
		for _, seat := range s.seats {
			p.Hands, p.Supplies = append(p.Hands, roomy(seat.Hand)), append(p.Supplies, roomy(seat.Supply))
		}
		r, err := newState(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	type seen struct {
		what  string
		state *State
		proto *rulebookv1.MicropulState
	}
	var states []seen
	s := rebuilt(newGame(t, DefaultOptions(), 3))
	for ply := 0; ply < 40 && !s.Over(); ply++ {
		states = append(states, seen{fmt.Sprintf("the state of ply %d", ply), s, s.Proto()})
		legal := s.Legal(s.ToMove())
		var results []*State
		for _, m := range legal {
			next, _ := apply(t, s, m)
			results = append(results, next)
			states = append(states, seen{fmt.Sprintf("the result of %v at ply %d", m, ply), next, next.Proto()})
			done := map[Action]bool{}
			for _, m2 := range next.Legal(next.ToMove()) {
				if !done[m2.Action] {
					done[m2.Action] = true
					after, _ := apply(t, next, m2)
					states = append(states, seen{fmt.Sprintf("the result of %v, %v at ply %d", m, m2, ply), after,
						after.Proto()})
				}
			}
		}
		for _, st := range states {
			if !proto.Equal(st.state.Proto(), st.proto) {
				t.Fatalf("ply %d: %s changed", ply, st.what)
			}
		}
		s = rebuilt(results[(ply*7)%len(results)])
	}
}
