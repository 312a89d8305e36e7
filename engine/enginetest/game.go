package enginetest

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// GameHarness adapts a game seen through its protobuf envelopes, as the service drives it, to the suite: the states
// and moves are the envelopes themselves, so RunHarness checks the engine.Game (its decoding, its errors, that it
// never changes the messages it is given) on top of the engine. options set up every game (nil for the defaults);
// candidates lists the moves to probe in a state, and may be nil. The seats are those of the score's standings, and
// View is the game's (Check fails a state that Score or View refuses). hidden is nil for a game of perfect
// information; for a game with hidden information it adds the re-deals of CheckViews and CheckSeatAnswers.
func GameHarness(g engine.Game, options *rulebookv1.GameOptions,
	candidates func(s *rulebookv1.GameState) []*rulebookv1.Move,
	hidden *Hidden) Harness[*rulebookv1.GameState, *rulebookv1.Move] {
	maxPlayers := engine.Player(g.Info().GetMaxPlayers())
	check := func(s *rulebookv1.GameState) error {
		score, err := g.Score(s)
		if err != nil {
			return err
		}
		for _, viewer := range append([]engine.Player{engine.NoPlayer}, seats(score)...) {
			if _, err := g.View(s, viewer); err != nil {
				return fmt.Errorf("View(s, %d): %w", viewer, err)
			}
		}
		return nil
	}
	h := Harness[*rulebookv1.GameState, *rulebookv1.Move]{
		New: func(seed uint64) (*rulebookv1.GameState, error) { return g.New(options, seed) },
		// Legal lists the moves of every player in seat order; an error leaves the list short, and Check reports
		// the state that caused it.
		Legal: func(s *rulebookv1.GameState) []*rulebookv1.Move {
			var moves []*rulebookv1.Move
			for p := engine.Player(1); p <= maxPlayers; p++ {
				m, _ := g.Legal(s, p)
				moves = append(moves, m...)
			}
			return moves
		},
		Candidates: candidates,
		Validate:   g.Validate,
		Apply: func(s *rulebookv1.GameState, m *rulebookv1.Move) (*rulebookv1.GameState, error) {
			next, _, err := g.Apply(s, m)
			return next, err
		},
		Over: func(s *rulebookv1.GameState) bool {
			score, err := g.Score(s)
			return err == nil && score.GetGameOver()
		},
		Check:  check,
		Encode: func(s *rulebookv1.GameState) proto.Message { return s },
		Decode: func(m proto.Message) (*rulebookv1.GameState, error) {
			s, _ := m.(*rulebookv1.GameState)
			return s, check(s)
		},
		EncodeMove: func(m *rulebookv1.Move) proto.Message { return m },
		Players: func(s *rulebookv1.GameState) []engine.Player {
			score, _ := g.Score(s)
			return seats(score)
		},
		// View gives nil for a state the game refuses to show, which Check reports.
		View: func(s *rulebookv1.GameState, viewer engine.Player) *rulebookv1.GameState {
			v, _ := g.View(s, viewer)
			return v
		},
	}
	if hidden != nil {
		h.Redeal, h.Secrets = hidden.Redeal, hidden.Secrets
		h.seats = seatCheck{g: g, reveals: hidden.Reveals}.check
	}
	if seated, ok := g.(engine.Seated); ok {
		held, _ := g.(engine.Held)
		h.seated = seatedCheck{g: g, seated: seated, held: held}.check
	}
	return h
}

// Hidden is, for GameHarness, how a game hides information.
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

// seatedCheck is CheckSeated for g, whose Seated methods are seated and Held methods held (nil if g is not Held).
type seatedCheck struct {
	g      engine.Game
	seated engine.Seated
	held   engine.Held
}

// seatedTries is how many legal moves of each state CheckSeated plays with ApplyFor, for every viewer.
const seatedTries = 4

// check fails if Seats disagrees with the standings of Score in the probed state, or if ApplyFor disagrees with
// Apply, View and ViewEvents on one of its first legal moves, for a spectator or a seat.
func (c seatedCheck) check(p *probe[*rulebookv1.GameState, *rulebookv1.Move]) error {
	n, err := c.seated.Seats(p.state)
	score, scoreErr := c.g.Score(p.state)
	switch {
	case !sameRefusal(err, scoreErr):
		return fmt.Errorf("Seats says %s but Score says %s", describe(err), describe(scoreErr))
	case err == nil && n != len(score.GetStandings()):
		return fmt.Errorf("Seats says %d seats but Score has %d standings", n, len(score.GetStandings()))
	}
	packed, err := c.checkPack(p.state)
	if err != nil {
		return err
	}
	tried := 0
	for _, t := range p.tries {
		if !t.legal || tried == seatedTries {
			continue
		}
		tried++
		next, events, err := c.g.Apply(p.state, t.move)
		if err != nil {
			continue // LegalMovesApply reports it
		}
		if err := checkApplyWire(c.g, p.state, t.move, next, events); err != nil {
			return err
		}
		for viewer := engine.NoPlayer; int(viewer) <= n; viewer++ {
			a, err := c.seated.ApplyFor(p.state, t.move, viewer)
			if err != nil {
				return fmt.Errorf("ApplyFor(%v, %d) refuses a legal move: %s", t.move, viewer, describe(err))
			}
			view, err := c.g.View(next, viewer)
			want := []*rulebookv1.GameState{next, view}
			if d := answerDiff(want, err, []*rulebookv1.GameState{a.State, a.View}, nil); d != "" {
				return fmt.Errorf("ApplyFor(%v, %d) and Apply then View give other states: %s", t.move, viewer, d)
			}
			if d := answerDiff(events, nil, a.Events, nil); d != "" {
				return fmt.Errorf("ApplyFor(%v, %d) and Apply give other events: %s", t.move, viewer, d)
			}
			if d := answerDiff(c.g.ViewEvents(events, viewer), nil, a.SeenEvents, nil); d != "" {
				return fmt.Errorf("ApplyFor(%v, %d) and ViewEvents show other events: %s", t.move, viewer, d)
			}
			if err := c.checkApplyHeld(packed, t.move, viewer, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkPack returns the held form of state, for a Held game (else nil), after checking that it unpacks to state and
// that packing that again gives the same bytes.
func (c seatedCheck) checkPack(state *rulebookv1.GameState) ([]byte, error) {
	if c.held == nil {
		return nil, nil
	}
	packed, err := c.held.Pack(state)
	if err != nil {
		return nil, fmt.Errorf("Pack refuses a state of play: %s", describe(err))
	}
	unpacked, err := c.held.Unpack(packed)
	if d := answerDiff([]*rulebookv1.GameState{state}, nil, []*rulebookv1.GameState{unpacked}, err); d != "" {
		return nil, fmt.Errorf("Unpack(Pack(s)) is not s: %s", d)
	}
	again, err := c.held.Pack(unpacked)
	if err != nil || !bytes.Equal(again, packed) {
		return nil, fmt.Errorf("Pack(Unpack(b)) is not b: %x, then %x (%s)", packed, again, describe(err))
	}
	return packed, nil
}

// checkApplyHeld fails if ApplyHeld, on the held form of the probed state, disagrees with a, ApplyFor's answer, for
// a Held game.
func (c seatedCheck) checkApplyHeld(packed []byte, move *rulebookv1.Move, viewer engine.Player,
	a engine.Applied) error {
	if c.held == nil {
		return nil
	}
	h, err := c.held.ApplyHeld(packed, move, viewer)
	if err != nil {
		return fmt.Errorf("ApplyHeld(%v, %d) refuses a legal move: %s", move, viewer, describe(err))
	}
	next, err := c.held.Unpack(h.Held)
	want, got := []*rulebookv1.GameState{a.State, a.View}, []*rulebookv1.GameState{next, h.View}
	if d := answerDiff(want, nil, got, err); d != "" {
		return fmt.Errorf("ApplyHeld(%v, %d) and ApplyFor give other states: %s", move, viewer, d)
	}
	if d := answerDiff(slices.Concat(a.Events, a.SeenEvents), nil, slices.Concat(h.Events, h.SeenEvents), nil); d != "" {
		return fmt.Errorf("ApplyHeld(%v, %d) and ApplyFor give other events: %s", move, viewer, d)
	}
	w, err := engine.ApplyHeldWire(c.g, packed, move, viewer)
	if err != nil {
		return fmt.Errorf("ApplyHeldWire(%v, %d) refuses a legal move: %s", move, viewer, describe(err))
	}
	if w.View != nil || !bytes.Equal(w.Held, h.Held) {
		return fmt.Errorf("ApplyHeldWire(%v, %d) gives a view message, or another held form than ApplyHeld", move, viewer)
	}
	if err := sameWire("ApplyHeldWire's view", w.ViewWire, a.View); err != nil {
		return err
	}
	if d := answerDiff(slices.Concat(a.Events, a.SeenEvents), nil, slices.Concat(w.Events, w.SeenEvents), nil); d != "" {
		return fmt.Errorf("ApplyHeldWire(%v, %d) and ApplyFor give other events: %s", move, viewer, d)
	}
	return nil
}

// checkApplyWire fails if ApplyWire, on state and move, disagrees with Apply's answer next and events: its state must
// be the bytes of protobuf's deterministic encoding of next.
func checkApplyWire(g engine.Game, state *rulebookv1.GameState, move *rulebookv1.Move, next *rulebookv1.GameState,
	events []*rulebookv1.Event) error {
	wire, wireEvents, err := engine.ApplyWire(g, state, move)
	if err != nil {
		return fmt.Errorf("ApplyWire(%v) refuses a legal move: %s", move, describe(err))
	}
	if d := answerDiff(events, nil, wireEvents, nil); d != "" {
		return fmt.Errorf("ApplyWire(%v) and Apply give other events: %s", move, d)
	}
	return sameWire("ApplyWire's state", wire, next)
}

// sameWire fails unless wire is the deterministic wire form of state, byte for byte.
func sameWire(what string, wire []byte, state *rulebookv1.GameState) error {
	want, err := proto.MarshalOptions{Deterministic: true}.Marshal(state)
	if err != nil {
		return err
	}
	if !bytes.Equal(wire, want) {
		return fmt.Errorf("%s is not the wire form of %v:\n got % x\nwant % x", what, state, wire, want)
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

// EnvelopeHarness adapts spec g, seen through its envelopes as the service drives it, on games set up with options,
// to the suite, with what b declares: GameHarness, with b's candidates and playable moves, and its hidden
// information re-dealt on the decoded state.
func EnvelopeHarness[S engine.Rules[S, M, E, C], M engine.Proto[*rulebookv1.Move], E any,
	C engine.Proto[*rulebookv1.Score], D engine.Definition[S, M, E]](g engine.Spec[S, M, E, C, D], b Battery[S, M],
	options *rulebookv1.GameOptions) Harness[*rulebookv1.GameState, *rulebookv1.Move] {
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
	var candidates func(s *rulebookv1.GameState) []*rulebookv1.Move
	if b.Candidates != nil {
		candidates = func(s *rulebookv1.GameState) []*rulebookv1.Move {
			t, ok := typed(s)
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
		h.Legal = func(s *rulebookv1.GameState) []*rulebookv1.Move {
			t, ok := typed(s)
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
