// Package deadline is when a call must begin its answer for the answer to reach its caller by the call's deadline,
// on a machine busy enough that a process waits tens of milliseconds for a CPU: the margin the server keeps before a
// deadline, at which SuggestMove's search stops and a heavy call's wait for its turn ends. It lies beneath the
// service and the server, which share it.
package deadline

import (
	"context"
	"time"
)

const (
	// Fixed is the part of a margin that every call keeps, however short its time: about two waits for a CPU on a
	// busy machine (the answer's way out of the server, and into its caller).
	Fixed = 20 * time.Millisecond
	// maxShare bounds the part of a margin that grows with the call's time.
	maxShare = time.Second
	// Minimum is the least time a call must have left when it begins for the server to take it on: SuggestMove
	// refuses a call with less (DEADLINE_TOO_SHORT), whose answer could not reach its caller in time anyway. It is
	// below Fixed, so that a call that waited for its turn until its margin (which a heavy call never waits past)
	// still has it.
	Minimum = 10 * time.Millisecond
)

// Margin returns how long before its deadline a call that had left time to it when it began must begin its answer:
// Fixed and a quarter of left, that quarter at most maxShare (1 s).
func Margin(left time.Duration) time.Duration {
	return Fixed + min(max(left, 0)/4, maxShare)
}

// Last returns the moment by which a call of ctx, begun at start, must begin its answer: ctx's deadline less the
// Margin of the time the call had left at start, and the time it had left; ok is false when ctx has no deadline.
func Last(ctx context.Context, start time.Time) (last time.Time, left time.Duration, ok bool) {
	d, ok := ctx.Deadline()
	if !ok {
		return time.Time{}, 0, false
	}
	left = d.Sub(start)
	return d.Add(-Margin(left)), left, true
}
