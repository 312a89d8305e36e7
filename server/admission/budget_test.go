package admission

import (
	"sync"
	"testing"

	"github.com/rulebook/rulebook/internal/refusal"
)

// TestBudget walks a budget of 100 bytes through its states: takes that fit, one that does not (SERVER_BUSY), one
// larger than the whole (REQUEST_TOO_LARGE), a release (twice: the second does nothing) that makes room again.
func TestBudget(t *testing.T) {
	b := NewBudget(100, nil)
	steps := []struct {
		name       string
		take       int64
		wantReason string
		wantHeld   int64
	}{
		{"60 of 100", 60, "", 60},
		{"40 more", 40, "", 100},
		{"1 more", 1, ReasonServerBusy, 100},
		{"more than the whole", 101, refusal.ReasonRequestTooLarge, 100},
	}
	var releases []func()
	for _, s := range steps {
		release, err := b.Acquire(s.take)
		if got := refusal.Reason(err); got != s.wantReason || b.InFlight() != s.wantHeld {
			t.Fatalf("%s: reason %q (%v), %d held; want %q, %d held", s.name, got, err, b.InFlight(), s.wantReason, s.wantHeld)
		}
		if err == nil {
			releases = append(releases, release)
		}
	}
	releases[0]()
	releases[0]()
	if b.InFlight() != 40 {
		t.Fatalf("after releasing 60 twice: %d held, want 40", b.InFlight())
	}
	if _, err := b.Acquire(60); err != nil {
		t.Errorf("60 after the release: %v", err)
	}
}

// TestBudgetConcurrent takes and gives back a budget from many goroutines at once: what is held never goes over the
// limit, and everything is back at the end.
func TestBudgetConcurrent(t *testing.T) {
	b := NewBudget(1000, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				release, err := b.Acquire(int64(1 + (g*7+i)%300))
				if held := b.InFlight(); held > b.Limit() {
					t.Errorf("%d held, over the limit of %d", held, b.Limit())
					return
				}
				if err == nil {
					release()
				}
			}
		})
	}
	wg.Wait()
	if b.InFlight() != 0 {
		t.Errorf("%d held once every goroutine is done", b.InFlight())
	}
}
