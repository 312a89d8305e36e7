package exploze

import (
	"fmt"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// reachable returns every state that play reaches from the start of a game with opts, keyed by its String, found
// breadth first.
func reachable(t *testing.T, opts Options) map[string]*State {
	t.Helper()
	start := newGame(t, opts)
	seen := map[string]*State{start.String(): start}
	for frontier := []*State{start}; len(frontier) > 0; {
		var next []*State
		for _, s := range frontier {
			for _, m := range s.Legal(s.ToMove()) {
				after, _, err := s.Apply(m)
				if err != nil {
					t.Fatalf("%v on\n%v: %v", m, s, err)
				}
				if key := after.String(); seen[key] == nil {
					seen[key] = after
					next = append(next, after)
				}
			}
		}
		frontier = next
	}
	return seen
}

// accepted calls visit with every state NewState accepts on a board of opts among the messages whose cells each hold
// 1 to maxMoves stones of a player of the game or are empty, whose moves played are the stones on the board, and
// whose player to move is -1 to Players+1. Every other message is refused on its own: a count or an owner out of
// range, an owner without stones or stones without an owner, moves played other than the stones
// (TestNewStateReasons checks those refusals).
func accepted(opts Options, visit func(*State)) {
	n, limit := opts.Rows*opts.Cols, opts.maxMoves()
	cells := make([]Cell, n)
	var fill func(i, stones int)
	fill = func(i, stones int) {
		if stones > limit {
			return
		}
		if i == n {
			for p := engine.Player(-1); p <= engine.Player(opts.Players+1); p++ {
				if s, err := NewState(opts, stones, p, cells); err == nil {
					visit(s)
				}
			}
			return
		}
		cells[i] = Cell{}
		fill(i+1, stones)
		for owner := engine.Player(1); owner <= engine.Player(opts.Players); owner++ {
			for k := 1; k <= limit; k++ {
				cells[i] = Cell{Owner: owner, Stones: k}
				fill(i+1, stones+k)
			}
		}
	}
	fill(0, 0)
}

// TestReachableAccepted checks, on small boards, that NewState accepts every state that play reaches, and counts the
// states it accepts that no play reaches: its checks are necessary conditions of reachability, not an exact test.
// The counts are pinned (docs/rules/exploze.md gives them): a change means the checks changed.
func TestReachableAccepted(t *testing.T) {
	for _, c := range []struct {
		opts      Options
		reachable int // states that play reaches from the start
		accepted  int // states that NewState accepts (see accepted)
		long      bool
	}{
		{Options{Rows: 2, Cols: 2, Players: 2}, 57, 102, false},
		{Options{Rows: 2, Cols: 2, Players: 3}, 67, 210, false},
		{Options{Rows: 2, Cols: 2, Players: 4}, 69, 101, false},
		{Options{Rows: 2, Cols: 3, Players: 2}, 1247, 4673, true},
	} {
		t.Run(fmt.Sprintf("%dx%dx%d", c.opts.Rows, c.opts.Cols, c.opts.Players), func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a few seconds of enumeration")
			}
			reached := reachable(t, c.opts)
			for key, s := range reached {
				back, err := FromProto(s.Proto())
				if err != nil {
					t.Fatalf("a reachable state is refused: %v\n%s", err, key)
				}
				if back.String() != key {
					t.Fatalf("round trip changed\n%s\ninto\n%v", key, back)
				}
			}
			total, unreached, unreachedOver := 0, 0, 0
			accepted(c.opts, func(s *State) {
				total++
				if reached[s.String()] == nil {
					unreached++
					if s.Over() {
						unreachedOver++
					}
				}
			})
			t.Logf("%d reachable states; %d accepted, %d of them unreachable (%d finished games)", len(reached), total,
				unreached, unreachedOver)
			if len(reached) != c.reachable || total != c.accepted {
				t.Errorf("%d reachable and %d accepted states, want %d and %d", len(reached), total, c.reachable,
					c.accepted)
			}
		})
	}
}
