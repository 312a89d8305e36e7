package enginetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// seeds returns the seeds 1 to n.
func seeds(n int) []uint64 {
	s := make([]uint64, n)
	for i := range s {
		s[i] = uint64(i + 1)
	}
	return s
}

// TestRunPassesACorrectEngine runs the whole suite, as an engine's test would, on the correct race engine.
func TestRunPassesACorrectEngine(t *testing.T) {
	RunHarness(t, raceHarness(correct))
}

// TestRunWithoutOptionalParts runs the suite on the race engine with neither candidates, Check nor views.
func TestRunWithoutOptionalParts(t *testing.T) {
	h := raceHarness(correct)
	h.Candidates, h.Check, h.Players, h.View, h.Redeal = nil, nil, nil, nil, nil
	RunHarness(t, h)
}

// TestChecksCatchBrokenEngines shows that each check fails on an engine broken in the way it is meant to catch, and
// that no check fails on the correct engine.
func TestChecksCatchBrokenEngines(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault fault
		check string // "" for none
	}{
		{"correct", correct, ""},
		{"mutatingApply", mutatingApply, CheckImmutable},
		{"aliasingApply", aliasingApply, CheckImmutable},
		{"laxValidate", laxValidate, CheckValidateAgrees},
		{"otherReason", otherReason, CheckValidateAgrees},
		{"missingLegal", missingLegal, CheckLegalComplete},
		{"duplicateLegal", duplicateLegal, CheckLegalStable},
		{"unstableLegal", unstableLegal, CheckLegalStable},
		{"plainError", plainError, CheckErrors},
		{"lowercaseReason", lowercaseReason, CheckErrors},
		{"lossyDecode", lossyDecode, CheckRoundTrip},
		{"nondeterministicNew", nondeterministicNew, CheckDeterminism},
		{"endless", endless, CheckPlayouts},
		{"invalidState", invalidState, CheckPlayouts},
		{"invalidStateFromLegal", invalidState, CheckLegalApplies},
		{"legalAfterOver", legalAfterOver, CheckGameOver},
		{"acceptsAfterOver", acceptsAfterOver, CheckGameOver},
		{"leakyView", leakyView, CheckViews},
		{"uselessRedeal", uselessRedeal, CheckViews},
		{"mutatingView", mutatingView, CheckViews},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := raceHarness(c.fault)
			wantCaught(t, h.run(seeds(10)), c.check)
		})
	}
}

// wantCaught fails t unless check failed in r, or, when check is "", unless nothing failed. It logs the failures of
// the other checks.
func wantCaught(t *testing.T, r *report, check string) {
	t.Helper()
	for _, name := range checks {
		if name == check {
			continue
		}
		for _, msg := range r.failures[name] {
			t.Logf("also %s: %s", name, msg)
		}
	}
	switch {
	case check == "":
		if len(r.failures) > 0 {
			t.Errorf("checks failed on a correct engine: %v", r.failures)
		}
	case !r.failed(check):
		t.Errorf("%s did not fail", check)
	default:
		t.Logf("%s: %s", check, r.failures[check][0])
	}
}

// TestBlameNamesTheMutatingCall shows that a mutation is blamed on the call that made it.
func TestBlameNamesTheMutatingCall(t *testing.T) {
	h := raceHarness(mutatingApply)
	r := h.run(seeds(1))
	if got := r.failures[CheckImmutable]; len(got) == 0 || !strings.Contains(got[0], "Apply({Player:1 Add:1}) changed") {
		t.Errorf("Immutable failures = %q, want the first to blame Apply({Player:1 Add:1})", got)
	}
}

// TestReportKeepsFewFailures shows that a check failing at every state reports a few failures and counts the rest.
func TestReportKeepsFewFailures(t *testing.T) {
	h := raceHarness(plainError)
	r := h.run(seeds(10))
	if len(r.failures[CheckErrors]) != maxReported || r.dropped[CheckErrors] == 0 {
		t.Errorf("kept %d failures and dropped %d, want %d and some", len(r.failures[CheckErrors]),
			r.dropped[CheckErrors], maxReported)
	}
}

// TestHarnessComplete shows that a harness missing a required function is refused.
func TestHarnessComplete(t *testing.T) {
	h := raceHarness(correct)
	if err := h.complete(); err != nil {
		t.Fatalf("complete() = %v for a whole harness", err)
	}
	for name, breakIt := range map[string]func(h *Harness[*race, raceMove]){
		"Apply":      func(h *Harness[*race, raceMove]) { h.Apply = nil },
		"EncodeMove": func(h *Harness[*race, raceMove]) { h.EncodeMove = nil },
		"Players":    func(h *Harness[*race, raceMove]) { h.Players = nil },
		"View":       func(h *Harness[*race, raceMove]) { h.View, h.Players = nil, nil },
	} {
		h := raceHarness(correct)
		breakIt(&h)
		if err := h.complete(); err == nil {
			t.Errorf("complete() = nil without %s", name)
		}
	}
	hidden := leakyHarness(noLeak)
	hidden.Redeal = nil
	if err := hidden.complete(); err == nil {
		t.Error("complete() = nil for a GameHarness of hidden information without Redeal")
	}
}

// recorder is a testing.TB that records the errors reported to it.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper()           {}
func (r *recorder) Error(args ...any) { r.errors = append(r.errors, fmt.Sprint(args...)) }

// TestCheckError shows which errors CheckError passes.
func TestCheckError(t *testing.T) {
	good := engine.Illegalf("NOT_YOUR_TURN", map[string]string{"toMove": "2"}, "it is player 2's turn")
	for _, c := range []struct {
		name string
		err  error
		ok   bool
	}{
		{"illegal", good, true},
		{"invalid", engine.Invalidf("OFF_BOARD_2", "row", nil, "row 9 is off the board"), true},
		{"wrapped", fmt.Errorf("move 3: %w", good), true},
		{"nil", nil, false},
		{"plain", fmt.Errorf("no"), false},
		{"no kind", &engine.Error{Reason: "NO_KIND", Message: "m"}, false},
		{"lower case", engine.Illegalf("not_your_turn", nil, "m"), false},
		{"camel case", engine.Illegalf("NotYourTurn", nil, "m"), false},
		{"trailing underscore", engine.Illegalf("NOT_", nil, "m"), false},
		{"empty reason", engine.Illegalf("", nil, "m"), false},
		{"no message", engine.Illegalf("NOT_YOUR_TURN", nil, ""), false},
		{"snake fact", engine.Illegalf("NOT_YOUR_TURN", map[string]string{"to_move": "2"}, "m"), false},
	} {
		rec := &recorder{}
		CheckError(rec, c.err)
		if ok := len(rec.errors) == 0; ok != c.ok {
			t.Errorf("%s: CheckError(%v) reported %q, want ok = %v", c.name, c.err, rec.errors, c.ok)
		}
	}
}

// TestSecretsMustVary shows that a declared secret that no re-deal changes fails CheckViews, and that one that some
// re-deal changes does not.
func TestSecretsMustVary(t *testing.T) {
	for _, c := range []struct {
		name   string
		secret Secret[*race]
		fails  bool
	}{
		{"secrets", Secret[*race]{Name: "secret cards", Of: func(s *race) any { return s.Secrets }}, false},
		{"count", Secret[*race]{Name: "count", Of: func(s *race) any { return s.Count }}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := raceHarness(correct)
			h.Secrets = []Secret[*race]{c.secret}
			r := h.run(seeds(3))
			failed := slices.ContainsFunc(r.failures[CheckViews], func(msg string) bool {
				return strings.Contains(msg, c.secret.Name)
			})
			if failed != c.fails {
				t.Errorf("CheckViews failures %q; want one about the %s: %v", r.failures[CheckViews], c.secret.Name,
					c.fails)
			}
		})
	}
}

// TestChosenDepth shows how the flag and the environment choose the depth.
func TestChosenDepth(t *testing.T) {
	defer func(was string) { *depthFlag = was }(*depthFlag)
	for _, c := range []struct {
		flag, env string
		want      Depth
	}{
		{"", "", Quick}, {"", "long", Long}, {"quick", "long", Quick}, {"long", "", Long},
	} {
		*depthFlag = c.flag
		t.Setenv("RULEBOOK_TEST_DEPTH", c.env)
		if got := ChosenDepth(t); got != c.want {
			t.Errorf("flag %q, environment %q: ChosenDepth = %v, want %v", c.flag, c.env, got, c.want)
		}
	}
}

// TestCheckEveryThinsLongPlayouts plays one long race with every state checked and again with CheckEvery 4: the
// second checks the first FullyChecked states, every fourth after and the last, and neither finds a fault.
func TestCheckEveryThinsLongPlayouts(t *testing.T) {
	checked := func(every int) int {
		h := raceHarness(correct)
		start := h.New
		h.New = func(seed uint64) (*race, error) {
			s, err := start(seed)
			if s != nil {
				s.Target = 150 // at most 3 a move: at least 50 plies
			}
			return s, err
		}
		h.MaxPlies, h.CheckEvery = 1000, every
		r := h.run(seeds(1))
		if len(r.failures) > 0 {
			t.Fatalf("CheckEvery %d: %v", every, r.failures)
		}
		return r.states
	}
	all, thinned := checked(1), checked(4)
	want := 0
	for ply := range all {
		if ply < FullyChecked || ply%4 == 0 || ply == all-1 {
			want++
		}
	}
	if all < FullyChecked+16 || thinned != want {
		t.Errorf("%d states checked in full, %d with CheckEvery 4; want at least %d and %d", all, thinned,
			FullyChecked+16, want)
	}
}
