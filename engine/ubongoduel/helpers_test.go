package ubongoduel

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"

	"github.com/rulebook/rulebook/engine"
)

// newGame returns a new game, failing t on an error.
func newGame(t testing.TB, opts Options, seed uint64) *State {
	t.Helper()
	s, err := New(opts, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// apply applies m, failing t on a refusal.
func apply(t testing.TB, s *State, m Move) (*State, []Event) {
	t.Helper()
	next, events, err := s.Apply(m)
	if err != nil {
		t.Fatalf("%v: %v\n%v", m, err, s)
	}
	return next, events
}

// witness returns p's submission of the deck's witness solution of p's current task, received at `at`, and
// whether p has a task.
func witness(s *State, p engine.Player, at int64) (Move, bool) {
	task, _, ok := s.CurrentTask(p)
	if !ok {
		return Move{}, false
	}
	return Move{Player: p, Action: Submit, ReceivedAt: at, Placements: task.Witness}, true
}

// mustWitness is witness, failing t when p has no task.
func mustWitness(t testing.TB, s *State, p engine.Player, at int64) Move {
	t.Helper()
	m, ok := witness(s, p, at)
	if !ok {
		t.Fatalf("player %d has no task in\n%v", p, s)
	}
	return m
}

// playable returns the moves a playout may choose from in s: the enumerable legal moves of both players, then the
// witness solution of each player who has a task, at the state's last receive time.
func playable(s *State) []Move {
	var moves []Move
	for p := engine.Player(1); p <= Players; p++ {
		moves = append(moves, s.Legal(p)...)
	}
	for p := engine.Player(1); p <= Players; p++ {
		if m, ok := witness(s, p, s.last); ok {
			moves = append(moves, m)
		}
	}
	return moves
}

// position returns a Position on the default deck with the given scores, as at the start of the duel they lead
// to: sheet, leader and faces consistent (faces from the given list).
func position(opts Options, won1, won2 int, faces ...int) Position {
	opts = opts.withDefaults()
	seats := [Players]Seat{{DuelsWon: won1}, {DuelsWon: won2}}
	p := Position{Options: opts, Sheet: won1 + won2 + 1, Faces: faces, Seats: seats[:],
		Leader: leaderFor(opts, seats), Die: newDie(42)}
	return p
}

// state returns the state of p, failing t if NewState refuses it.
func state(t testing.TB, p Position) *State {
	t.Helper()
	s, err := NewState(p)
	if err != nil {
		t.Fatalf("position %+v: %v", p, err)
	}
	return s
}

// protoEqual reports whether two state messages are equal.
func protoEqual(a, b *rulebookv1.UbongoDuelState) bool { return proto.Equal(a, b) }

// engineP converts a seat number.
func engineP(p int) engine.Player { return engine.Player(p) }

// dieAtWord returns a copy of die with its count of words used under the current key set to used (a valid die for
// 0 to 124, the last word before ChaCha8 re-keys).
func dieAtWord(die []byte, used uint64) []byte {
	out := bytes.Clone(die)
	binary.BigEndian.PutUint64(out[8:16], used)
	return out
}

// otherKey returns a copy of die with one bit of its key flipped: another valid die, at the same place in its stream.
func otherKey(die []byte) []byte {
	out := bytes.Clone(die)
	out[20] ^= 0x10
	return out
}

// withReadBuffer returns the encoding of the die after a 3-byte Read: a ChaCha8 encoding that UnmarshalBinary reads
// ("readbuf:" and the 5 bytes left over, then the 48-byte state) but not one the engine ever writes.
func withReadBuffer(die []byte) []byte {
	var c rand.ChaCha8
	if err := c.UnmarshalBinary(die); err != nil {
		panic(err)
	}
	_, _ = c.Read(make([]byte, 3))
	return encodeDie(&c)
}
