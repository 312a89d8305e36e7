// Package enginetest is the conformance suite every rule engine runs: seeded random playouts to the end with every
// invariant checked, Apply never mutating its input, Validate agreeing with Apply, Legal complete and stable,
// deterministic replays, lossless protobuf round trips, well-formed errors and, for games with hidden information,
// views, and answers to each seat (GameHarness), that reveal nothing hidden.
//
// A game built as an engine.Spec declares a Battery once, next to its spec, and runs the whole suite, on its typed
// engine and on its envelopes as the service drives them, with one call at the depth go test was asked for:
//
//	func TestConformance(t *testing.T) {
//		enginetest.Run(t, mygame.Spec, battery, enginetest.ChosenDepth(t))
//	}
//
// Any other engine adapts itself with a Harness and calls RunHarness.
package enginetest

import (
	"errors"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
)

// Harness adapts one engine, with its own state type S and move type M, to the conformance suite. New, Legal,
// Validate, Apply, Over, Encode, Decode and EncodeMove are required; the rest are optional.
//
// The suite calls the functions from one goroutine, many times on the same state; a pure engine needs nothing more.
type Harness[S, M any] struct {
	// New returns an initial state for a seed. The suite calls it with the seeds 1, 2, ... Playouts; it may vary the
	// options with the seed.
	New func(seed uint64) (S, error)
	// Legal lists every legal move in s, for every player who may move, in a stable order.
	Legal func(s S) []M
	// Candidates lists moves to probe in s, legal or not (every move of every player, and some malformed ones): the
	// suite checks that Validate agrees with Apply on each and that every candidate that validates is in Legal. Nil
	// probes only the moves of Legal, which proves much less.
	Candidates func(s S) []M
	// Validate, Apply and Over are the engine's own.
	Validate func(s S, m M) error
	Apply    func(s S, m M) (S, error)
	Over     func(s S) bool
	// Check verifies every invariant of s that a decoder would (a state the engine made must always pass). Nil
	// checks nothing.
	Check func(s S) error
	// Encode and Decode convert to and from the game's protobuf message; Decode checks what it reads. Encode must
	// capture the whole state (the suite compares states by their encodings).
	Encode func(s S) proto.Message
	Decode func(m proto.Message) (S, error)
	// EncodeMove converts a move to a protobuf message holding everything that tells two moves apart, the player
	// included (for example the rulebookv1.Move envelope). The suite compares moves by its deterministic encoding.
	EncodeMove func(m M) proto.Message
	// MaxPlies bounds a playout; reaching it without the game ending fails the suite. 0 means 1000.
	MaxPlies int
	// Playouts is the number of seeded random playouts; 0 means 100.
	Playouts int
	// CheckEvery thins the per-state checks of a long playout: past its first FullyChecked states, only every
	// CheckEvery-th state and the last one (where the game ends) get them; the others are only played through (and
	// still replayed for determinism and checked for changes). 0 or 1 checks every state.
	CheckEvery int

	// Players lists the seats of s, for the view checks; NoPlayer (a spectator) is always checked too.
	Players func(s S) []engine.Player
	// View returns what viewer (NoPlayer for a spectator) may see of s. With Players set, the suite checks that it
	// leaves s unchanged and, with Redeal, that it shows nothing viewer may not see.
	View func(s S, viewer engine.Player) S
	// Redeal returns s with everything viewer may not see dealt anew from seed (other players' hands, the order of a
	// face-down pile, the random generator's state), keeping all that viewer sees. The suite checks that
	// View(Redeal(s, p, seed), p) equals View(s, p), and that some re-deal changes some state (else the check proved
	// nothing). Nil skips that check: right for a game of perfect information.
	Redeal func(s S, viewer engine.Player, seed uint64) S
	// Secrets lists what Redeal deals anew, item by item (the core's order, the hands, the die): the suite fails an
	// item that no re-deal of the run changed, for the re-deals would then prove nothing about it.
	Secrets []Secret[S]

	// seats is CheckSeatAnswers, which GameHarness sets for a game with hidden information: it checks the probed
	// state and counts what it compared.
	seats func(h *Harness[S, M], p *probe[S, M]) (seatCounts, error)
	// position is CheckPosition, which GameHarness sets.
	position func(p *probe[S, M]) error
}

// Secret is one item of what a seat may not see, for Harness.Secrets.
type Secret[S any] struct {
	// Name names the item in failures ("core order").
	Name string
	// Of returns the item in s, as a value that reflect.DeepEqual compares.
	Of func(s S) any
}

// playouts returns the number of playouts to run.
func (h *Harness[S, M]) playouts() int {
	if h.Playouts <= 0 {
		return 100
	}
	return h.Playouts
}

// maxPlies returns the longest playout allowed.
func (h *Harness[S, M]) maxPlies() int {
	if h.MaxPlies <= 0 {
		return 1000
	}
	return h.MaxPlies
}

// viewers returns who may look at s: NoPlayer (a spectator), then the seats.
func (h *Harness[S, M]) viewers(s S) []engine.Player {
	return append([]engine.Player{engine.NoPlayer}, h.Players(s)...)
}

// complete reports a required function that is missing, or a view function without the others it needs.
func (h *Harness[S, M]) complete() error {
	switch {
	case h.New == nil, h.Legal == nil, h.Validate == nil, h.Apply == nil, h.Over == nil:
		return errors.New("enginetest: Harness needs New, Legal, Validate, Apply and Over")
	case h.Encode == nil, h.Decode == nil, h.EncodeMove == nil:
		return errors.New("enginetest: Harness needs Encode, Decode and EncodeMove")
	case (h.View == nil) != (h.Players == nil):
		return errors.New("enginetest: Harness needs View and Players together")
	case h.Redeal != nil && h.View == nil:
		return errors.New("enginetest: Harness.Redeal needs View and Players")
	case len(h.Secrets) > 0 && h.Redeal == nil:
		return errors.New("enginetest: Harness.Secrets needs Redeal")
	case h.seats != nil && h.Redeal == nil:
		return errors.New("enginetest: a harness of hidden information (GameHarness) needs Redeal")
	}
	return nil
}
