package ubongoduel

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// conformanceCases are the games the suite plays.
var conformanceCases = []struct {
	opts     Options
	playouts int
}{
	{DefaultOptions(), 8},
	{Options{Side: SideB, TieWindowMS: 100}, 6},
	{Options{Side: SideA, TieWindowMS: 250, CatchUp: true}, 8},
	{Options{Side: SideB, CatchUp: true}, 4},
}

// maxPlies bounds a playout: re-rolls (ties and give-ups) are random, so a game has no fixed length, but a
// thousand plies are far beyond any seeded playout.
const maxPlies = 1000

// TestConformance runs the shared conformance suite, with views and re-deals of the die's state. Legal moves never
// list solutions, so the playouts choose among the enumerable moves and the witness solutions of the deck (playable).
func TestConformance(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(fmt.Sprintf("%v-tie%d-catchup%v", c.opts.Side, c.opts.TieWindowMS, c.opts.CatchUp), func(t *testing.T) {
			t.Parallel()
			h := harness(c.opts)
			h.Playouts = c.playouts
			enginetest.Run(t, h)
		})
	}
}

// TestConformanceGame runs the suite on the engine.Game adapter, as the service drives it: envelopes in and out,
// with the witness solutions added to the legal moves, and the re-deals of the die that check what each seat is
// told (a move that starts a duel makes its roll public, so it is not compared).
func TestConformanceGame(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(fmt.Sprintf("%v-tie%d-catchup%v", c.opts.Side, c.opts.TieWindowMS, c.opts.CatchUp), func(t *testing.T) {
			t.Parallel()
			g := Game{}
			typed := func(s *rulebookv1.GameState) *State {
				st, err := FromProto(s.GetUbongoDuel())
				if err != nil {
					return nil
				}
				return st
			}
			h := enginetest.GameHarness(g,
				&rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_UbongoDuel{UbongoDuel: c.opts.Proto()}},
				func(s *rulebookv1.GameState) []*rulebookv1.Move {
					st := typed(s)
					if st == nil {
						return nil
					}
					var moves []*rulebookv1.Move
					for _, m := range candidates(st) {
						moves = append(moves, m.Proto())
					}
					return append(moves, nil, &rulebookv1.Move{Player: 1},
						&rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_UbongoDuel{UbongoDuel: &rulebookv1.UbongoDuelMove{}}})
				}, &enginetest.Hidden{Redeal: redealGame, Reveals: rollsDie})
			h.Legal = func(s *rulebookv1.GameState) []*rulebookv1.Move {
				st := typed(s)
				if st == nil {
					return nil
				}
				var moves []*rulebookv1.Move
				for _, m := range playable(st) {
					moves = append(moves, m.Proto())
				}
				return moves
			}
			h.MaxPlies, h.Playouts = maxPlies, max(1, c.playouts/4)
			enginetest.Run(t, h)
		})
	}
}

// harness adapts the engine, on games with opts, to the conformance suite.
func harness(opts Options) enginetest.Harness[*State, Move] {
	return enginetest.Harness[*State, Move]{
		New:        func(seed uint64) (*State, error) { return New(opts, seed) },
		Legal:      playable,
		Candidates: candidates,
		Validate:   (*State).Validate,
		Apply: func(s *State, m Move) (*State, error) {
			next, _, err := s.Apply(m)
			return next, err
		},
		Over: (*State).Over,
		Check: func(s *State) error {
			_, err := FromProto(s.Proto())
			return err
		},
		Encode:     func(s *State) proto.Message { return s.Proto() },
		Decode:     func(m proto.Message) (*State, error) { return FromProto(m.(*rulebookv1.UbongoDuelState)) },
		EncodeMove: func(m Move) proto.Message { return m.Proto() },
		MaxPlies:   maxPlies,
		Players:    func(*State) []engine.Player { return []engine.Player{1, 2} },
		View:       (*State).View,
		Redeal:     redeal,
	}
}

// redeal returns s with the die's state, the one thing no viewer sees, drawn anew from seed: a ChaCha8 generator keyed
// from seed in another way than New keys it, and advanced by seed%200 words, so that a redealt die is a valid state,
// differs from any die New makes, and lies anywhere in its key's stream (past a re-key too, which comes after 124
// words).
func redeal(s *State, _ engine.Player, seed uint64) *State {
	r := s.clone()
	c := rand.NewChaCha8(sha256.Sum256(binary.LittleEndian.AppendUint64([]byte("ubongo-duel test redeal"), seed)))
	for range seed % 200 {
		c.Uint64()
	}
	r.die = encodeDie(c)
	return r
}

// redealGame is redeal on envelopes. A state that does not decode comes back as it is, for Check to refuse.
func redealGame(s *rulebookv1.GameState, viewer engine.Player, seed uint64) *rulebookv1.GameState {
	typed, err := FromProto(s.GetUbongoDuel())
	if err != nil {
		return s
	}
	return wrap(redeal(typed, viewer, seed))
}

// rollsDie reports whether events start a duel: the die rolled, its faces made public.
func rollsDie(events []*rulebookv1.Event) bool {
	return slices.ContainsFunc(events, func(e *rulebookv1.Event) bool {
		return e.GetUbongoDuel().GetDuelStarted() != nil
	})
}

// candidates returns moves to probe: for each player, the witness solution of their own task and of the other
// player's, a witness missing its last piece, give up and close the duel at the last receive time and at the first
// instant after the tie window, a move received too early; and malformed moves.
func candidates(s *State) []Move {
	if s.view {
		return nil
	}
	var moves []Move
	for p := engine.Player(1); p <= Players; p++ {
		for q := engine.Player(1); q <= Players; q++ {
			if task, _, ok := s.CurrentTask(q); ok {
				moves = append(moves, Move{Player: p, Action: Submit, ReceivedAt: s.last, Placements: task.Witness})
				if p == q {
					moves = append(moves, Move{Player: p, Action: Submit, ReceivedAt: s.last,
						Placements: task.Witness[:len(task.Witness)-1]})
				}
			}
		}
		moves = append(moves, Move{Player: p, Action: GiveUp, ReceivedAt: s.last},
			Move{Player: p, Action: CloseDuel, ReceivedAt: s.last})
		if s.pending != engine.NoPlayer {
			moves = append(moves, Move{Player: p, Action: CloseDuel, ReceivedAt: s.closeTime()})
		}
		if s.last > 0 {
			moves = append(moves, Move{Player: p, Action: GiveUp, ReceivedAt: s.last - 1})
		}
	}
	return append(moves,
		Move{Player: 0, Action: GiveUp},
		Move{Player: 3, Action: GiveUp},
		Move{Player: 1},
		Move{Player: 1, Action: GiveUp, ReceivedAt: -1},
		Move{Player: 1, Action: Submit, Placements: []Placement{{Piece: "Z"}}},
	)
}
