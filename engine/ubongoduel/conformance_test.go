package ubongoduel

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestConformance runs the conformance suite on both sides, with and without a tie window and the catch-up variant,
// with the re-deals of the die's state that check what each seat is told (a move that starts a duel makes its roll
// public, so it is not compared). Legal moves never list solutions, so the playouts choose among the enumerable
// moves and the witness solutions of the deck (playable).
func TestConformance(t *testing.T) {
	enginetest.Run(t, Spec, battery, enginetest.ChosenDepth(t))
}

// battery is what the conformance suite needs to know of Ubongo Duel beyond its spec.
var battery = enginetest.Battery[*State, Move]{
	Setups: []enginetest.Setup{
		setup(DefaultOptions(), 8),
		setup(Options{Side: SideB, TieWindowMS: 100}, 6),
		setup(Options{Side: SideA, TieWindowMS: 250, CatchUp: true}, 8),
		setup(Options{Side: SideB, CatchUp: true}, 4),
	},
	Candidates: candidates,
	Playable:   playable,
	Hidden: &enginetest.Hiding[*State]{
		Redeal:  redeal,
		Secrets: []enginetest.Secret[*State]{{Name: "die's state", Of: func(s *State) any { return s.die }}},
		Reveals: rollsDie,
	},
}

// setup returns the setup of a game with opts, worth playouts.
func setup(opts Options, playouts int) enginetest.Setup {
	return enginetest.Setup{Name: fmt.Sprintf("%v-tie%d-catchup%v", opts.Side, opts.TieWindowMS, opts.CatchUp),
		Playouts: playouts, Options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_UbongoDuel{
			UbongoDuel: opts.Proto()}}}
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
