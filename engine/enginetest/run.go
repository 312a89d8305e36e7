package enginetest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"
)

// The checks of the suite, each reported by Run as a sub-test of that name.
const (
	// CheckPlayouts: every playout ends within MaxPlies, every state along it passes Check, New and the Apply of a
	// chosen legal move succeed.
	CheckPlayouts = "Playouts"
	// CheckImmutable: Legal, Validate and Apply leave their input unchanged, and neither a state Apply returned nor
	// any state of a playout changes later (no memory shared with a state that is changed).
	CheckImmutable = "Immutable"
	// CheckValidateAgrees: Validate and Apply both accept a move or both refuse it with equal *engine.Error values.
	CheckValidateAgrees = "ValidateAgreesWithApply"
	// CheckLegalApplies: every move of Legal validates and applies, and the state it makes passes Check.
	CheckLegalApplies = "LegalMovesApply"
	// CheckLegalComplete: every candidate that validates is in Legal.
	CheckLegalComplete = "LegalComplete"
	// CheckLegalStable: Legal returns the same moves in the same order each time, with no duplicate.
	CheckLegalStable = "LegalStable"
	// CheckGameOver: a state is over exactly when Legal is empty, and in it every candidate is refused.
	CheckGameOver = "GameOver"
	// CheckErrors: every refusal is a well-formed *engine.Error (see CheckError).
	CheckErrors = "Errors"
	// CheckRoundTrip: Decode(Encode(s)) encodes equal to s, also through wire bytes, and has the same legal moves.
	CheckRoundTrip = "RoundTrip"
	// CheckDeterminism: a playout replayed with the same seed goes through identical states.
	CheckDeterminism = "Determinism"
	// CheckViews: View and Redeal leave their input unchanged, a re-dealt state passes Check, and a view is
	// unchanged by re-dealing what the viewer may not see.
	CheckViews = "Views"
	// CheckSeatAnswers: for a game with hidden information (GameHarness with Hidden), what the game tells a viewer
	// depends on nothing that viewer may not see. For each viewer (NoPlayer, then each seat) and each re-deal s' of a
	// state s for that viewer, these answers are the same for s' as for s: Score; for a seat, Legal and the answer of
	// Validate (nil, or the same reason, message, field and facts) to each probed move of the seat; and, for each
	// legal move m of another seat that s' accepts too, View(Apply(s', m), viewer) and ViewEvents of the move's events
	// for viewer. The mover is left out of that last comparison: a move may show its mover what it reveals (a tile
	// taken from their own face-down supply), and the next state's view checks what the mover then sees. So is a move
	// whose events, in s or s', make something hidden public (Hidden.Reveals), such as a die rolled; the check fails
	// if it compared no move at all. Legal for NoPlayer, the moves of whoever may move, is no seat's answer and is not
	// compared. ViewEvents must leave its input unchanged and give one event for each.
	CheckSeatAnswers = "SeatAnswers"
	// CheckPosition: for a game's Positions (GameHarness), Seats counts the standings of Score, and Open reads the
	// held form of each state as the same state, whose held form is the same bytes.
	CheckPosition = "Position"
)

// checks lists the checks in the order Run reports them.
var checks = []string{
	CheckPlayouts, CheckImmutable, CheckValidateAgrees, CheckLegalApplies, CheckLegalComplete, CheckLegalStable,
	CheckGameOver, CheckErrors, CheckRoundTrip, CheckDeterminism, CheckViews, CheckSeatAnswers, CheckPosition,
}

// maxReported is how many failures of one check a report keeps; it counts the rest.
const maxReported = 5

// RunHarness plays h.Playouts seeded random games to the end with h's engine and checks it at every state. It reports
// each check as a sub-test named by one of the Check constants, so that one can be run alone (-run
// Conformance/Immutable) and every failure names the seed and ply that show it.
func RunHarness[S, M any](t *testing.T, h Harness[S, M]) {
	t.Helper()
	if err := h.complete(); err != nil {
		t.Fatal(err)
	}
	seeds := make([]uint64, h.playouts())
	for i := range seeds {
		seeds[i] = uint64(i + 1)
	}
	r := h.run(seeds)
	t.Logf("%d playouts, %d states, %d moves probed", len(seeds), r.states, r.moves)
	if h.Redeal != nil {
		t.Logf("%d re-deals changed a state", r.redealsChanged)
	}
	if h.seats != nil {
		n := r.seats
		t.Logf("seat answers: %d re-dealt states, %d answers of Validate, %d bot's suggestions, %d answers to "+
			"another seat's move compared (%d not: illegal in the re-deal; %d not: revealing what was hidden)", n.dealt,
			n.validated, n.suggested, n.told, n.illegal, n.revealing)
	}
	for _, name := range checks {
		t.Run(name, func(t *testing.T) {
			switch {
			case name == CheckViews && h.View == nil:
				t.Skip("the harness has no View")
			case name == CheckSeatAnswers && h.seats == nil:
				t.Skip("the harness has no hidden information to re-deal (see GameHarness)")
			case name == CheckPosition && h.position == nil:
				t.Skip("the harness drives no game's Positions (see GameHarness)")
			}
			for _, msg := range r.failures[name] {
				t.Error(msg)
			}
			if n := r.dropped[name]; n > 0 {
				t.Errorf("... and %d more failures", n)
			}
		})
	}
}

// report is what a run of the suite found.
type report struct {
	failures       map[string][]string
	dropped        map[string]int
	states, moves  int
	redealsChanged int
	secretsVaried  []bool // for each of Harness.Secrets, whether a re-deal changed it
	seats          seatCounts
}

// fail records a failure of check.
func (r *report) fail(check, format string, args ...any) {
	if len(r.failures[check]) == maxReported {
		r.dropped[check]++
		return
	}
	r.failures[check] = append(r.failures[check], fmt.Sprintf(format, args...))
}

// failed tells whether check has failed.
func (r *report) failed(check string) bool { return len(r.failures[check]) > 0 }

// run plays one playout per seed and checks every state along them.
func (h *Harness[S, M]) run(seeds []uint64) *report {
	r := &report{failures: map[string][]string{}, dropped: map[string]int{}, secretsVaried: make([]bool, len(h.Secrets))}
	for _, seed := range seeds {
		h.playout(r, seed)
	}
	if h.Redeal != nil && r.states > 0 && r.redealsChanged == 0 {
		r.fail(CheckViews, "no Redeal changed any state: the view check proved nothing")
	}
	for i, secret := range h.Secrets {
		if r.states > 0 && !r.secretsVaried[i] {
			r.fail(CheckViews, "no Redeal changed the %s: the view check proved nothing about it", secret.Name)
		}
	}
	if h.seats != nil && r.states > 0 && r.seats.told == 0 {
		r.fail(CheckSeatAnswers, "no answer to another seat's move was compared: the seat check proved little")
	}
	if h.seats != nil && r.states > 0 && r.seats.suggested == 0 {
		r.fail(CheckSeatAnswers, "no bot's suggestion was compared: the seat check proved nothing of the bot")
	}
	return r
}

// rng returns the generator that picks the moves of seed's playout.
func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x72756c65626f6f6b)) }

// playout plays seed's game with random legal moves, checking its states (see CheckEvery), then replays it to check determinism
// and that no state of it has changed since it was made.
func (h *Harness[S, M]) playout(r *report, seed uint64) {
	s, err := h.New(seed)
	if err != nil {
		r.fail(CheckPlayouts, "seed %d: New: %v", seed, err)
		return
	}
	pick := rng(seed)
	var path []S
	var snapshots []proto.Message
	for ply := 0; ; ply++ {
		path, snapshots = append(path, s), append(snapshots, proto.Clone(h.Encode(s)))
		legal, over := h.Legal(s), h.Over(s)
		if h.checked(ply) || over || len(legal) == 0 {
			p := h.probe(s)
			r.states++
			r.moves += len(p.tries)
			h.checkState(r, fmt.Sprintf("seed %d, ply %d", seed, ply), p)
		}
		if ply >= h.maxPlies() && !over {
			r.fail(CheckPlayouts, "seed %d, ply %d: the game is not over after MaxPlies = %d plies", seed, ply, h.maxPlies())
			break
		}
		if over || len(legal) == 0 {
			break // GameOver has reported a state that is not over with no legal move
		}
		m := legal[pick.IntN(len(legal))]
		if s, err = h.Apply(s, m); err != nil {
			r.fail(CheckPlayouts, "seed %d, ply %d: Apply(%+v), a legal move: %v", seed, ply, m, err)
			break
		}
	}
	for i, s := range path {
		if d := diff(snapshots[i], h.Encode(s)); d != "" {
			r.fail(CheckImmutable, "seed %d, ply %d: the state changed after later moves of the playout: %s", seed, i, d)
			break
		}
	}
	h.replay(r, seed, snapshots)
}

// FullyChecked is how many states at the start of a playout get every per-state check whatever CheckEvery says.
const FullyChecked = 32

// checked reports whether the state after ply moves of a playout gets the per-state checks (see CheckEvery).
func (h *Harness[S, M]) checked(ply int) bool {
	return h.CheckEvery <= 1 || ply < FullyChecked || ply%h.CheckEvery == 0
}

// checkState runs every per-state check on p and records what fails.
func (h *Harness[S, M]) checkState(r *report, at string, p *probe[S, M]) {
	if h.Check != nil {
		if err := h.Check(p.state); err != nil {
			r.fail(CheckPlayouts, "%s: Check: %v", at, err)
		}
	}
	for _, c := range []struct {
		name string
		err  error
	}{
		{CheckImmutable, p.checkImmutable(h)},
		{CheckValidateAgrees, p.checkValidateAgrees()},
		{CheckLegalApplies, p.checkLegalApplies(h)},
		{CheckLegalComplete, p.checkLegalComplete()},
		{CheckLegalStable, p.checkLegalStable()},
		{CheckGameOver, p.checkGameOver()},
		{CheckErrors, p.checkErrors()},
		{CheckRoundTrip, h.checkRoundTrip(p)},
	} {
		if c.err != nil {
			r.fail(c.name, "%s: %v", at, c.err)
		}
	}
	if h.View != nil {
		changed, err := h.checkViews(p, r.secretsVaried)
		r.redealsChanged += changed
		if err != nil {
			r.fail(CheckViews, "%s: %v", at, err)
		}
	}
	if h.seats != nil {
		n, err := h.seats(h, p)
		r.seats.add(n)
		if err != nil {
			r.fail(CheckSeatAnswers, "%s: %v", at, err)
		}
	}
	if h.position != nil {
		if err := h.position(p); err != nil {
			r.fail(CheckPosition, "%s: %v", at, err)
		}
	}
}

// replay plays seed's game again and compares its states with the first playout's snapshots.
func (h *Harness[S, M]) replay(r *report, seed uint64, snapshots []proto.Message) {
	s, err := h.New(seed)
	pick := rng(seed)
	for ply, want := range snapshots {
		if err != nil {
			r.fail(CheckDeterminism, "seed %d, ply %d: the replay failed: %v", seed, ply, err)
			return
		}
		if d := diff(want, h.Encode(s)); d != "" {
			r.fail(CheckDeterminism, "seed %d, ply %d: the replay differs: %s", seed, ply, d)
			return
		}
		if ply == len(snapshots)-1 {
			return
		}
		legal := h.Legal(s)
		if len(legal) == 0 {
			r.fail(CheckDeterminism, "seed %d, ply %d: the replay has no legal move", seed, ply)
			return
		}
		s, err = h.Apply(s, legal[pick.IntN(len(legal))])
	}
}

// playouts returns how many playouts of a setup declaring long of them to play on the typed engine and on the
// envelopes: at Long, long and a quarter of it (the envelopes cost more and check what the typed engine does); at
// Quick, one of each.
func (d Depth) playouts(long int) (typed, envelopes int) {
	if d == Long {
		return max(1, long), max(1, long/4)
	}
	return 1, 1
}
