package exploze

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Bounds on one fuzz input's work: an input that runs for seconds (a whole 32 x 32 game, or every move of a full
// board) would still be running when -fuzztime ends, which the fuzzer reports as a failure.
const (
	maxFuzzMoves = 64
	maxFuzzPlies = 300
)

// FuzzFromProto decodes arbitrary bytes as an ExplozeState. Whatever FromProto accepts must be a working state: every
// legal move applies, the result decodes again, and the state survives a round trip through its message.
func FuzzFromProto(f *testing.F) {
	f.Fuzz(func(t *testing.T, wire []byte) {
		var m rulebookv1.ExplozeState
		if err := proto.Unmarshal(wire, &m); err != nil {
			return
		}
		s, err := FromProto(&m)
		if err != nil {
			enginetest.CheckError(t, err)
			return
		}
		back, err := FromProto(s.Proto())
		if err != nil || !proto.Equal(back.Proto(), s.Proto()) {
			t.Fatalf("round trip of %v: %v", s, err)
		}
		legal := s.Legal(s.ToMove())
		step := len(legal)/maxFuzzMoves + 1 // at most maxFuzzMoves moves, spread over the board
		for i := 0; i < len(legal); i += step {
			mv := legal[i]
			next, _, err := s.Apply(mv)
			if err != nil {
				t.Fatalf("legal move %v refused: %v\n%v", mv, err, s)
			}
			if _, err := FromProto(next.Proto()); err != nil {
				t.Fatalf("after %v the state does not decode: %v\n%v", mv, err, next)
			}
		}
	})
}

// FuzzApply plays a seeded random game on fuzzed options for a fuzzed number of moves, then applies a move with
// fuzzed fields. Apply must never panic, must agree with Validate, and must return either a state that decodes or a
// well-formed *engine.Error of kind Invalid or Illegal.
func FuzzApply(f *testing.F) {
	f.Fuzz(func(t *testing.T, seed uint64, plies uint16, rows, cols, players uint8, player, row, col int) {
		opts := Options{
			Rows:    MinSize + int(rows)%(MaxSize-MinSize+1),
			Cols:    MinSize + int(cols)%(MaxSize-MinSize+1),
			Players: MinPlayers + int(players)%(MaxPlayers-MinPlayers+1),
		}
		opts.Players = min(opts.Players, opts.Rows*opts.Cols)
		s := newGame(t, opts)
		rng := rand.New(rand.NewPCG(seed, 0))
		for range int(plies) % maxFuzzPlies {
			legal := s.Legal(s.ToMove())
			if len(legal) == 0 {
				break
			}
			s, _ = play(t, s, coordOf(legal[rng.IntN(len(legal))]))
		}
		m := Move{Player: engine.Player(player), Row: row, Col: col}
		next, events, err := s.Apply(m)
		if verr := s.Validate(m); (verr == nil) != (err == nil) {
			t.Fatalf("Validate(%v) = %v but Apply returned %v", m, verr, err)
		}
		if err != nil {
			enginetest.CheckError(t, err)
			return
		}
		if len(events) == 0 {
			t.Fatalf("Apply(%v) reported no event", m)
		}
		if _, err := FromProto(next.Proto()); err != nil {
			t.Fatalf("after %v the state does not decode: %v\n%v", m, err, next)
		}
	})
}

// coordOf returns the cell of m.
func coordOf(m Move) Coord { return Coord{Row: m.Row, Col: m.Col} }
