package exploze

import (
	"math/rand/v2"
	"testing"

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

// explozeCodec converts states to and from their messages, for the fuzz helpers.
var explozeCodec = enginetest.Codec[*State, *rulebookv1.ExplozeState]{Encode: (*State).Proto, Decode: FromProto}

// FuzzFromProto decodes arbitrary bytes as an ExplozeState. Whatever FromProto accepts must be a working state: it
// survives a round trip through its message, and its legal moves (at most maxFuzzMoves, spread over the board) apply
// to states that decode.
func FuzzFromProto(f *testing.F) {
	enginetest.FuzzDecode(f, explozeCodec, nil, func(t *testing.T, s *State) {
		legal := s.Legal(s.ToMove())
		var spread []Move
		for i := 0; i < len(legal); i += len(legal)/maxFuzzMoves + 1 {
			spread = append(spread, legal[i])
		}
		enginetest.CheckMovesApply(t, explozeCodec, s, spread, (*State).Apply)
	})
}

// FuzzApply plays a seeded random game on fuzzed options for a fuzzed number of moves, then applies a move with
// fuzzed fields. Apply must never panic, must agree with Validate, and must return either a state that decodes and
// an event or a well-formed *engine.Error of kind Invalid or Illegal (enginetest.CheckApply).
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
		if events, ok := enginetest.CheckApply(t, explozeCodec, s, m, (*State).Validate, (*State).Apply); ok &&
			len(events) == 0 {
			t.Fatalf("Apply(%v) reported no event", m)
		}
	})
}

// coordOf returns the cell of m.
func coordOf(m Move) Coord { return Coord{Row: m.Row, Col: m.Col} }
