package ubongoduel

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
)

// ms is a millisecond in receive-time units.
const ms = int64(1_000_000)

// wantEvents fails t unless the events' strings start with the given prefixes, one per event.
func wantEvents(t *testing.T, events []Event, prefixes ...string) {
	t.Helper()
	got := enginetest.Strings(events)
	ok := len(got) == len(prefixes)
	for i := 0; ok && i < len(got); i++ {
		ok = strings.HasPrefix(got[i], prefixes[i])
	}
	if !ok {
		t.Fatalf("events %q, want prefixes %q", got, prefixes)
	}
}

// TestNormalGame plays a game in strict arrival order: player 1 wins the first duel, player 2 the next, then player 1
// the rest; each won duel moves to the next sheet, and the fifth win ends the game.
func TestNormalGame(t *testing.T) {
	s := newGame(t, DefaultOptions(), 7)
	if s.Sheet() != 1 || len(s.Faces()) != 1 || s.Over() {
		t.Fatalf("start: %v", s)
	}
	at := int64(1000)
	winners := []engine.Player{1, 2, 1, 1, 1, 1}
	for i, p := range winners {
		var events []Event
		s, events = apply(t, s, mustWitness(t, s, p, at))
		at += 1000
		if i < len(winners)-1 {
			wantEvents(t, events, "P", "P", "duel on A")
			if s.Sheet() != i+2 {
				t.Fatalf("after %d duels the sheet is %d", i+1, s.Sheet())
			}
		} else {
			wantEvents(t, events, "P1 solved", "P1 won the duel on sheet 6: 5-1", "game over: P1 wins")
		}
	}
	sc := s.Score()
	if !sc.Over || sc.Winner != 1 || sc.DuelsWon != [2]int{5, 1} || s.Sheet() != 6 {
		t.Fatalf("score %+v, state %v", sc, s)
	}
	if len(s.Legal(1))+len(s.Legal(2)) != 0 {
		t.Error("moves are legal after the game")
	}
	_, err := FromProto(s.Proto())
	if err != nil {
		t.Fatal(err)
	}
}

// TestTieWindow plays duels with a 100 ms tie window: a second solution within it ties (the window's end included)
// and rolls again on the same sheet; one after it comes too late; a close-duel move after the window decides.
func TestTieWindow(t *testing.T) {
	s := newGame(t, Options{TieWindowMS: 100}, 11)
	faces := s.Faces()
	s, events := apply(t, s, mustWitness(t, s, 1, 1000))
	wantEvents(t, events, "P1 solved roll 1 (face")
	if p, at := s.Pending(); p != 1 || at != 1000 || !strings.HasSuffix(events[0].String(), "pending") {
		t.Fatalf("pending %d @%d", p, at)
	}
	if got := s.Legal(1); len(got) != 1 || got[0].Action != CloseDuel || got[0].ReceivedAt != 1000+100*ms+1 {
		t.Fatalf("legal for the pending winner: %v", got)
	}
	s, events = apply(t, s, mustWitness(t, s, 2, 1000+100*ms))
	wantEvents(t, events, "P2 solved", "re-roll on sheet 1 (tie)", "duel on A1")
	if s.Sheet() != 1 || s.Score().DuelsWon != [2]int{0, 0} {
		t.Fatalf("after a tie: %v", s)
	}
	t.Logf("faces %v then %v", faces, s.Faces())

	// Too late: the pending win stands.
	s, _ = apply(t, s, mustWitness(t, s, 2, 2000*ms))
	s, events = apply(t, s, mustWitness(t, s, 1, 2100*ms+1))
	wantEvents(t, events, "P1 solved", "P2 won the duel on sheet 1: 0-1", "duel on A2")

	// Closing: refused within the window, accepted after it, from either player.
	s, _ = apply(t, s, mustWitness(t, s, 1, 3000*ms))
	if _, _, err := s.Apply(Move{Player: 2, Action: CloseDuel, ReceivedAt: 3100 * ms}); err == nil {
		t.Fatal("closing within the window was accepted")
	}
	s, events = apply(t, s, Move{Player: 1, Action: CloseDuel, ReceivedAt: 3100*ms + 1})
	wantEvents(t, events, "P1 won the duel on sheet 2: 1-1", "duel on A3")

	// A concession: the other player gives up while a win is pending.
	s, _ = apply(t, s, mustWitness(t, s, 2, 4000*ms))
	s, events = apply(t, s, Move{Player: 1, Action: GiveUp, ReceivedAt: 4000 * ms})
	wantEvents(t, events, "P1 gave up", "P2 won the duel on sheet 3: 1-2", "duel on A4")
}

// TestGiveUp checks that a mutual give-up rolls again on the same sheet, and that after one player gives up the
// other may still win, at once even with a tie window.
func TestGiveUp(t *testing.T) {
	s := newGame(t, Options{TieWindowMS: 500}, 5)
	s, events := apply(t, s, Move{Player: 1, Action: GiveUp, ReceivedAt: 10})
	wantEvents(t, events, "P1 gave up")
	if got := s.Legal(1); len(got) != 0 {
		t.Fatalf("a player who gave up has moves %v", got)
	}
	s, events = apply(t, s, Move{Player: 2, Action: GiveUp, ReceivedAt: 20})
	wantEvents(t, events, "P2 gave up", "re-roll on sheet 1 (give up)", "duel on A1")
	if s.Sheet() != 1 || s.Seat(1).GaveUp || s.Seat(2).GaveUp {
		t.Fatalf("after a mutual give-up: %v", s)
	}
	s, _ = apply(t, s, Move{Player: 2, Action: GiveUp, ReceivedAt: 30})
	s, events = apply(t, s, mustWitness(t, s, 1, 40))
	wantEvents(t, events, "P1 solved", "P1 won the duel on sheet 1: 1-0", "duel on A2")
}

// TestCatchUpFrom32 plays the catch-up variant from 3-2: player 1 leads on an orange field and must solve two rolls;
// solving roll 1 scores nothing; player 2 solves only roll 2 and, by winning, levels the scores, after which a duel
// has one roll again. A tie in a two-roll duel rolls both dice again.
func TestCatchUpFrom32(t *testing.T) {
	opts := Options{CatchUp: true, TieWindowMS: 100}
	s := state(t, position(opts, 3, 2, 4, 9))
	if s.Leader() != 1 || len(s.Faces()) != 2 {
		t.Fatalf("leader %d, faces %v", s.Leader(), s.Faces())
	}
	t1, r1, _ := s.CurrentTask(1)
	t2, r2, _ := s.CurrentTask(2)
	if r1 != 1 || r2 != 2 || !slices.Equal(t1.Pieces, s.task(4).Pieces) || !slices.Equal(t2.Pieces, s.task(9).Pieces) {
		t.Fatalf("tasks: leader roll %d %v, other roll %d %v", r1, t1.Pieces, r2, t2.Pieces)
	}
	// The leader solves roll 1: nothing scored, roll 2 next.
	s, events := apply(t, s, mustWitness(t, s, 1, 10))
	wantEvents(t, events, "P1 solved roll 1 (face 4)")
	if s.Score().DuelsWon != [2]int{3, 2} {
		t.Fatal("solving roll 1 scored")
	}
	if _, r, _ := s.CurrentTask(1); r != 2 {
		t.Fatalf("the leader's next roll is %d", r)
	}
	// Both solve roll 2 within the window: a tie, both dice rolled again, the leader starts over.
	s, _ = apply(t, s, mustWitness(t, s, 2, 20))
	s, events = apply(t, s, mustWitness(t, s, 1, 30))
	wantEvents(t, events, "P1 solved roll 2", "re-roll on sheet 6 (tie)", "duel on A6")
	if len(s.Faces()) != 2 || s.Seat(1).Solved != 0 || s.Leader() != 1 {
		t.Fatalf("after the tie: %v", s)
	}
	// A mutual give-up also rolls both again.
	s, _ = apply(t, s, mustWitness(t, s, 1, 40))
	s, _ = apply(t, s, Move{Player: 1, Action: GiveUp, ReceivedAt: 50})
	s, events = apply(t, s, Move{Player: 2, Action: GiveUp, ReceivedAt: 60})
	wantEvents(t, events, "P2 gave up", "re-roll on sheet 6 (give up)", "duel on A6")
	if len(s.Faces()) != 2 {
		t.Fatalf("after a give-up: faces %v", s.Faces())
	}
	// The trailing player wins roll 2 first: 3-3, and the next duel has one roll.
	s, _ = apply(t, s, mustWitness(t, s, 2, 70))
	s, events = apply(t, s, Move{Player: 1, Action: CloseDuel, ReceivedAt: 70 + 100*ms + 1})
	wantEvents(t, events, "P2 won the duel on sheet 6: 3-3", "duel on A7")
	if s.Leader() != 0 || len(s.Faces()) != 1 {
		t.Fatalf("level scores, yet leader %d with faces %v", s.Leader(), s.Faces())
	}
}

// TestCatchUpLeaderWins plays a leader winning both rolls from 3-2 (strict order), staying the leader at 4-2, and
// the trailing player unable to submit the leader's roll-1 task.
func TestCatchUpLeaderWins(t *testing.T) {
	s := state(t, position(Options{CatchUp: true}, 3, 2, 1, 2))
	roll1, _, _ := s.CurrentTask(1)
	if _, _, err := s.Apply(Move{Player: 2, Action: Submit, Placements: roll1.Witness}); err == nil {
		t.Fatal("the trailing player solved the leader's roll 1")
	}
	s, _ = apply(t, s, mustWitness(t, s, 1, 1))
	s, events := apply(t, s, mustWitness(t, s, 1, 2))
	wantEvents(t, events, "P1 solved roll 2", "P1 won the duel on sheet 6: 4-2", "duel on A7")
	if s.Leader() != 1 || len(s.Faces()) != 2 {
		t.Fatalf("at 4-2 the leader is %d with faces %v", s.Leader(), s.Faces())
	}
	// Without the variant, 3-2 is an ordinary duel.
	plain := state(t, position(Options{}, 3, 2, 5))
	if plain.Leader() != 0 || len(plain.Faces()) != 1 {
		t.Fatalf("without catch-up: %v", plain)
	}
}

// TestCatchUpFrom44 plays the deciding duel at 4-4 under the catch-up variant: level scores, so one roll; its
// winner has 5 and the game ends on sheet 9.
func TestCatchUpFrom44(t *testing.T) {
	s := state(t, position(Options{CatchUp: true}, 4, 4, 13))
	if s.Leader() != 0 || len(s.Faces()) != 1 || s.Sheet() != 9 {
		t.Fatalf("at 4-4: %v", s)
	}
	s, events := apply(t, s, mustWitness(t, s, 2, 5))
	wantEvents(t, events, "P2 solved", "P2 won the duel on sheet 9: 4-5", "game over: P2 wins")
	if !s.Over() || s.Winner() != 2 || s.Sheet() != 9 || len(s.Faces()) != 0 {
		t.Fatalf("after the last duel: %v", s)
	}
	if _, err := FromProto(s.Proto()); err != nil {
		t.Fatal(err)
	}
}

// TestDie checks that the die is the state's: the same seed rolls the same faces, a re-roll advances the generator,
// every face comes up, and a state rebuilt from its message rolls on identically.
func TestDie(t *testing.T) {
	seen := map[int]bool{}
	for seed := range uint64(200) {
		a, b := newGame(t, DefaultOptions(), seed), newGame(t, DefaultOptions(), seed)
		if !slices.Equal(a.Faces(), b.Faces()) {
			t.Fatalf("seed %d rolls %v and %v", seed, a.Faces(), b.Faces())
		}
		seen[a.Faces()[0]] = true
	}
	if len(seen) != Faces {
		t.Errorf("200 seeds rolled only %d faces", len(seen))
	}
	s := newGame(t, DefaultOptions(), 9)
	s, _ = apply(t, s, Move{Player: 1, Action: GiveUp})
	c, err := FromProto(s.Proto())
	if err != nil {
		t.Fatal(err)
	}
	x, _ := apply(t, s, Move{Player: 2, Action: GiveUp})
	y, _ := apply(t, c, Move{Player: 2, Action: GiveUp})
	if !protoEqual(x.Proto(), y.Proto()) || bytes.Equal(x.die, s.die) {
		t.Fatal("a decoded state rolls differently, or a roll left the generator as it was")
	}
}
