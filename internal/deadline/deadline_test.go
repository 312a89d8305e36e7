package deadline

import (
	"context"
	"testing"
	"time"
)

// TestMargin checks the margin of calls of every length: Fixed and a quarter of the time left, that quarter at most
// a second, and what a call with no time left keeps.
func TestMargin(t *testing.T) {
	for _, tt := range []struct {
		left, want time.Duration
	}{
		{-time.Second, Fixed},
		{0, Fixed},
		{Minimum, Fixed + Minimum/4},
		{100 * time.Millisecond, 45 * time.Millisecond},
		{time.Second, 270 * time.Millisecond},
		{4 * time.Second, Fixed + time.Second},
		{time.Minute, Fixed + time.Second},
	} {
		if got := Margin(tt.left); got != tt.want {
			t.Errorf("Margin(%v) = %v, want %v", tt.left, got, tt.want)
		}
	}
}

// TestLast checks the moment by which a call must begin its answer, from a fixed start (no clock is read): its
// deadline less its margin; none without a deadline.
func TestLast(t *testing.T) {
	start := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	ctx, cancel := context.WithDeadline(context.Background(), start.Add(time.Second))
	defer cancel()
	last, left, ok := Last(ctx, start)
	if want := start.Add(730 * time.Millisecond); !ok || !last.Equal(want) || left != time.Second {
		t.Errorf("Last = %v, %v, %v; want %v, 1s, true", last, left, ok, want)
	}
	if _, _, ok := Last(context.Background(), start); ok {
		t.Error("a context with no deadline has a last moment")
	}
}
