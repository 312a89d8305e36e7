package enginetest

import (
	"bytes"
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameHarness adapts a game seen through its Positions, as the service drives it, to the suite: the states are
// Positions and the moves envelopes, so RunHarness checks the engine.Game (its decoding, its errors, its held form,
// that a Position never changes) on top of the engine. options set up every game (nil for the defaults); candidates
// lists the moves to probe in a state, and may be nil. Check fails a state whose View refuses a seat. hidden is nil
// for a game of perfect information; for a game with hidden information it adds the re-deals of CheckViews and
// CheckSeatAnswers.
func GameHarness(g engine.Game, options *rulebookv1.GameOptions,
	candidates func(s engine.Position) []*rulebookv1.Move, hidden *Hidden) Harness[engine.Position, *rulebookv1.Move] {
	check := func(s engine.Position) error {
		for _, viewer := range append([]engine.Player{engine.NoPlayer}, seatsUpTo(s.Seats())...) {
			if _, err := s.View(viewer); err != nil {
				return fmt.Errorf("View(%d): %w", viewer, err)
			}
		}
		return nil
	}
	h := Harness[engine.Position, *rulebookv1.Move]{
		New: func(seed uint64) (engine.Position, error) { return g.New(options, seed) },
		// Legal lists the moves of every player in seat order; an error leaves the list short, and Check reports
		// the state that caused it.
		Legal: func(s engine.Position) []*rulebookv1.Move {
			var moves []*rulebookv1.Move
			for _, p := range seatsUpTo(s.Seats()) {
				m, _ := s.Legal(p)
				moves = append(moves, m...)
			}
			return moves
		},
		Candidates: candidates,
		Validate:   engine.Position.Validate,
		Apply: func(s engine.Position, m *rulebookv1.Move) (engine.Position, error) {
			next, _, err := s.Apply(m)
			return next, err
		},
		Over:       func(s engine.Position) bool { return s.Score().GetGameOver() },
		Check:      check,
		Encode:     func(s engine.Position) proto.Message { return s.Encode() },
		Decode:     func(m proto.Message) (engine.Position, error) { return g.Decode(m.(*rulebookv1.GameState)) },
		EncodeMove: func(m *rulebookv1.Move) proto.Message { return m },
		Players:    func(s engine.Position) []engine.Player { return seatsUpTo(s.Seats()) },
		// View gives the position itself for a viewer it refuses, which Check reports.
		View: func(s engine.Position, viewer engine.Player) engine.Position {
			if v, err := s.View(viewer); err == nil {
				return v
			}
			return s
		},
		position: positionCheck{g: g}.check,
	}
	if hidden != nil {
		h.Redeal = func(s engine.Position, viewer engine.Player, seed uint64) engine.Position {
			dealt, err := g.Decode(hidden.Redeal(s.Encode(), viewer, seed))
			if err != nil {
				return s // the re-dealt state is refused: CheckViews finds no change, and Check nothing to refuse
			}
			return dealt
		}
		for _, secret := range hidden.Secrets {
			h.Secrets = append(h.Secrets, Secret[engine.Position]{Name: secret.Name,
				Of: func(s engine.Position) any { return secret.Of(s.Encode()) }})
		}
		h.seats = seatCheck{reveals: hidden.Reveals}.check
	}
	return h
}

// Hidden is, for GameHarness, how a game hides information, on its envelopes.
type Hidden struct {
	// Redeal returns s with everything viewer may not see dealt anew from seed, keeping all that viewer sees: the
	// Redeal of the game's Harness, on envelopes.
	Redeal func(s *rulebookv1.GameState, viewer engine.Player, seed uint64) *rulebookv1.GameState
	// Reveals reports whether the events of a move, in full, make public something hidden: a chance outcome (a die
	// rolled, a card turned up) or what a rule shows (a game ended because no hand can be played). What a seat is
	// told of such a move may differ between re-deals, so CheckSeatAnswers leaves the move out. Nil: no move does.
	Reveals func(events []*rulebookv1.Event) bool
	// Secrets lists what Redeal deals anew, item by item: Harness.Secrets, on envelopes.
	Secrets []Secret[*rulebookv1.GameState]
}

// positionCheck is CheckPosition for g.
type positionCheck struct{ g engine.Game }

// check fails if Seats disagrees with the standings of Score in the probed position, if Held's view is not View's,
// or if Open does not read its held form back as the same position, with the same held form.
func (c positionCheck) check(p *probe[engine.Position, *rulebookv1.Move]) error {
	s := p.state
	if n, standings := s.Seats(), len(s.Score().GetStandings()); n != standings {
		return fmt.Errorf("Seats says %d seats but Score has %d standings", n, standings)
	}
	held, view, err := s.Held(engine.NoPlayer)
	if err != nil {
		return fmt.Errorf("Held refuses a state of play: %s", describe(err))
	}
	seen, err := s.View(engine.NoPlayer)
	if err != nil {
		return fmt.Errorf("View refuses a state of play: %s", describe(err))
	}
	if d := diff(seen.Encode(), view); d != "" {
		return fmt.Errorf("Held's view is not View's: %s", d)
	}
	opened, err := c.g.Open(held)
	if err != nil {
		return fmt.Errorf("Open refuses the held form of a state of play: %s", describe(err))
	}
	if d := diff(s.Encode(), opened.Encode()); d != "" {
		return fmt.Errorf("Open(Held()) is another position: %s", d)
	}
	if again, _, err := opened.Held(engine.NoPlayer); err != nil || !bytes.Equal(again, held) {
		return fmt.Errorf("Held of Open(b) is not b: %x, then %x (%s)", held, again, describe(err))
	}
	return nil
}

// seats returns the players of score's standings, in seat order.
func seats(score *rulebookv1.Score) []engine.Player {
	ps := make([]engine.Player, len(score.GetStandings()))
	for i, st := range score.GetStandings() {
		ps[i] = engine.Player(st.GetPlayer())
	}
	return ps
}

// Battery is what a game's test declares once, next to its engine.Spec, for Run: the setups to play and what the
// suite cannot learn from the spec. S and M are the game's typed state and move.
type Battery[S, M any] struct {
	// Setups are the games to play: every option that changes the rules, in some setup.
	Setups []Setup
	// Candidates lists moves to probe in s, legal or not (every move of every player, and malformed ones), as
	// Harness.Candidates. On the envelopes Run adds an envelope with no move, one with no move of the game, and one
	// whose move of the game holds nothing.
	Candidates func(s S) []M
	// Playable lists the moves a playout chooses from in s; nil means the legal moves of the players ToMove names.
	// A game whose legal moves leave some out (Ubongo Duel never lists solutions) adds them here.
	Playable func(s S) []M
	// Check verifies the invariants of s that decoding does not (a conservation law); nil checks none.
	Check func(s S) error
	// Hidden is how the game hides information; nil for a game of perfect information.
	Hidden *Hiding[S]
}

// Setup is one game that Run plays: its options and how many playouts it is worth at the Long depth.
type Setup struct {
	// Name names the setup's sub-test ("6x6x2").
	Name string
	// Options set the game up; nil means every default.
	Options *rulebookv1.GameOptions
	// Playouts is the number of playouts on the typed engine at the Long depth (see Depth).
	Playouts int
	// LongOnly plays the setup at the Long depth only: for a setup that only scales up the rules another one
	// already plays (a larger board), whose cost would dominate the Quick depth.
	LongOnly bool
}

// Hiding is, for a Battery, what a seat may not see and how to deal it anew.
type Hiding[S any] struct {
	// Redeal returns s with everything viewer may not see dealt anew from seed, keeping all that viewer sees, as
	// Harness.Redeal.
	Redeal func(s S, viewer engine.Player, seed uint64) S
	// Secrets lists, item by item, what Redeal deals anew: the suite fails an item that never varies.
	Secrets []Secret[S]
	// Reveals reports whether the events of a move make public something hidden, as Hidden.Reveals.
	Reveals func(events []*rulebookv1.Event) bool
}

// Run runs the whole conformance suite on the game of spec g, for each setup of b: on its typed engine (TypedHarness)
// and on its envelopes as the service drives them (EnvelopeHarness), each as a sub-test of the setup's, with the
// playouts depth gives.
func Run[S engine.Rules[S, M, E, C], M engine.Proto[*rulebookv1.Move], E any, C engine.Proto[*rulebookv1.Score],
	D engine.Definition[S, M, E]](t *testing.T, g engine.Spec[S, M, E, C, D], b Battery[S, M], depth Depth) {
	t.Helper()
	if len(b.Setups) == 0 {
		t.Fatal("enginetest: the battery has no setup")
	}
	for _, setup := range b.Setups {
		t.Run(setup.Name, func(t *testing.T) {
			if setup.LongOnly && depth != Long {
				t.Skip("a larger setup of rules that others play: only at the long depth (-enginetest.depth=long)")
			}
			t.Parallel()
			typed, envelopes := depth.playouts(setup.Playouts)
			t.Run("Typed", func(t *testing.T) {
				h := TypedHarness(g, b, setup.Options)
				h.Playouts, h.CheckEvery = typed, depth.checkEvery()
				RunHarness(t, h)
			})
			t.Run("Envelopes", func(t *testing.T) {
				h := EnvelopeHarness(g, b, setup.Options)
				h.Playouts, h.CheckEvery = envelopes, depth.checkEvery()
				RunHarness(t, h)
			})
		})
	}
}

// TypedHarness adapts the typed engine of spec g, on games set up with options, to the suite, with what b declares.
// A playout is bounded by the spec's LongestGame (1000 moves when it sets none).
func TypedHarness[S engine.Rules[S, M, E, C], M engine.Proto[*rulebookv1.Move], E any,
	C engine.Proto[*rulebookv1.Score], D engine.Definition[S, M, E]](g engine.Spec[S, M, E, C, D], b Battery[S, M],
	options *rulebookv1.GameOptions) Harness[S, M] {
	d := g.Definition
	h := Harness[S, M]{
		New:        func(seed uint64) (S, error) { return d.NewState(options, seed) },
		Legal:      playable(g, b),
		Candidates: b.Candidates,
		Validate:   func(s S, m M) error { return s.Validate(m) },
		Apply: func(s S, m M) (S, error) {
			next, _, err := s.Apply(m)
			return next, err
		},
		Over: func(s S) bool { return s.Score().Proto().GetGameOver() },
		Check: func(s S) error {
			if _, err := d.DecodeState(d.EncodeState(s)); err != nil {
				return err
			}
			if b.Check != nil {
				return b.Check(s)
			}
			return nil
		},
		Encode:     func(s S) proto.Message { return d.EncodeState(s) },
		Decode:     func(m proto.Message) (S, error) { return d.DecodeState(m.(*rulebookv1.GameState)) },
		EncodeMove: func(m M) proto.Message { return m.Proto() },
		MaxPlies:   longestGame(g, options),
		Players:    func(s S) []engine.Player { return seatsUpTo(d.Seats(s)) },
		View:       func(s S, viewer engine.Player) S { return s.View(viewer) },
	}
	if b.Hidden != nil {
		h.Redeal, h.Secrets = b.Hidden.Redeal, b.Hidden.Secrets
	}
	return h
}

// EnvelopeHarness adapts spec g, seen through its Positions and envelopes as the service drives it, on games set up
// with options, to the suite, with what b declares: GameHarness, with b's candidates and playable moves, and its
// hidden information re-dealt on the decoded state.
func EnvelopeHarness[S engine.Rules[S, M, E, C], M engine.Proto[*rulebookv1.Move], E any,
	C engine.Proto[*rulebookv1.Score], D engine.Definition[S, M, E]](g engine.Spec[S, M, E, C, D], b Battery[S, M],
	options *rulebookv1.GameOptions) Harness[engine.Position, *rulebookv1.Move] {
	d := g.Definition
	typed := func(s *rulebookv1.GameState) (S, bool) {
		t, err := d.DecodeState(s)
		return t, err == nil
	}
	protos := func(moves []M) []*rulebookv1.Move {
		out := make([]*rulebookv1.Move, len(moves))
		for i, m := range moves {
			out[i] = m.Proto()
		}
		return out
	}
	var candidates func(s engine.Position) []*rulebookv1.Move
	if b.Candidates != nil {
		candidates = func(s engine.Position) []*rulebookv1.Move {
			t, ok := typed(s.Encode())
			if !ok {
				return nil
			}
			moves := protos(b.Candidates(t))
			return append(moves, malformed(moves)...)
		}
	}
	var hidden *Hidden
	if b.Hidden != nil {
		hidden = &Hidden{Reveals: b.Hidden.Reveals,
			Redeal: func(s *rulebookv1.GameState, viewer engine.Player, seed uint64) *rulebookv1.GameState {
				t, ok := typed(s)
				if !ok {
					return s // Check refuses it
				}
				return d.EncodeState(b.Hidden.Redeal(t, viewer, seed))
			}}
		for _, secret := range b.Hidden.Secrets {
			hidden.Secrets = append(hidden.Secrets, Secret[*rulebookv1.GameState]{Name: secret.Name,
				Of: func(s *rulebookv1.GameState) any {
					t, ok := typed(s)
					if !ok {
						return nil
					}
					return secret.Of(t)
				}})
		}
	}
	h := GameHarness(g, options, candidates, hidden)
	if b.Playable != nil {
		h.Legal = func(s engine.Position) []*rulebookv1.Move {
			t, ok := typed(s.Encode())
			if !ok {
				return nil
			}
			return protos(b.Playable(t))
		}
	}
	h.MaxPlies = longestGame(g, options)
	return h
}

// playable returns the moves a playout of g chooses from: b.Playable, or the legal moves of the players ToMove names.
func playable[S engine.Rules[S, M, E, C], M engine.Proto[*rulebookv1.Move], E any, C engine.Proto[*rulebookv1.Score],
	D engine.Definition[S, M, E]](g engine.Spec[S, M, E, C, D], b Battery[S, M]) func(s S) []M {
	if b.Playable != nil {
		return b.Playable
	}
	return func(s S) []M {
		var moves []M
		for _, p := range g.Definition.ToMove(s) {
			moves = append(moves, s.Legal(p)...)
		}
		return moves
	}
}

// longestGame returns the spec's LongestGame for games set up with options, or 0 (the suite's default bound) when it
// sets none or the options are refused (New then fails the suite).
func longestGame[S engine.Rules[S, M, E, C], M engine.Proto[*rulebookv1.Move], E any, C engine.Proto[*rulebookv1.Score],
	D engine.Definition[S, M, E]](g engine.Spec[S, M, E, C, D], options *rulebookv1.GameOptions) int {
	s, err := g.Definition.NewState(options, 1)
	if err != nil {
		return 0
	}
	return g.Definition.LongestGame(s)
}

// seatsUpTo returns the players 1 to n.
func seatsUpTo(n int) []engine.Player {
	ps := make([]engine.Player, n)
	for i := range ps {
		ps[i] = engine.Player(i + 1)
	}
	return ps
}

// malformed returns envelopes that hold no valid move, modelled on moves: one with no move, one with no move of the
// game, and, when moves has one, one whose move of the game holds nothing.
func malformed(moves []*rulebookv1.Move) []*rulebookv1.Move {
	out := []*rulebookv1.Move{nil, {Player: 1}}
	if len(moves) == 0 {
		return out
	}
	empty := proto.Clone(moves[0]).(*rulebookv1.Move)
	m := empty.ProtoReflect()
	if field := m.WhichOneof(m.Descriptor().Oneofs().ByName("game")); field != nil {
		m.Set(field, protoreflect.ValueOfMessage(m.Get(field).Message().Type().New()))
		empty.Player = 1
		out = append(out, empty)
	}
	return out
}
