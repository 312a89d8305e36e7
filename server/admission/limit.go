// Package admission decides which calls a server takes on, so that one heavy or hostile caller cannot starve the
// others. A call it refuses gets RESOURCE_EXHAUSTED with the reason SERVER_BUSY, which a client may retry later.
package admission

import (
	"context"
	"errors"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/internal/deadline"
	"github.com/rulebook/rulebook/internal/refusal"
)

// ReasonServerBusy is the reason of a call refused because the server already serves as many calls as it may.
const ReasonServerBusy = "SERVER_BUSY"

// heavyMethods are the calls whose work grows with the request far beyond the others': a search, a whole record, a bot's search.
var heavyMethods = map[string]bool{
	rulebookv1grpc.RulesService_SolvePuzzle_FullMethodName: true,
	rulebookv1grpc.RulesService_Replay_FullMethodName:      true,
	rulebookv1grpc.RulesService_SuggestMove_FullMethodName: true,
}

// Limiter bounds the RulesService calls served at once, so that one heavy caller cannot starve the others (it is
// for RulesService only: health checks, the kubelet's probes, must be answered however busy the server is, or a pod
// would be restarted, or taken out of its Service, for being busy). At most
// len(calls) in all, refused at once beyond; of which at most len(heavy) heavy calls, with as many again waiting
// for a turn (until their deadline less its margin, deadline.Last, then refused), and the rest refused. A heavy call
// takes its heavy turn before a general slot, so heavy calls that wait never hold the slots light calls need.
type Limiter struct {
	calls, heavy, waiting chan struct{}
	observer              Observer
}

// Names of the limits, as an Observer is told of them.
const (
	LimitCalls        = "calls"
	LimitHeavyCalls   = "heavy_calls"
	LimitRequestBytes = "request_bytes"
)

// Observer is told when a limit makes a call wait, or refuses it; its methods are called concurrently.
type Observer interface {
	// Waited is called when a call waits for limit.
	Waited(limit string)
	// Refused is called when limit refuses a call.
	Refused(limit string)
}

// NewLimiter returns a limiter of maxCalls calls, of which maxHeavy heavy ones, telling observer (if not nil) of
// its waits and refusals.
func NewLimiter(maxCalls, maxHeavy int, observer Observer) *Limiter {
	return &Limiter{calls: make(chan struct{}, maxCalls), heavy: make(chan struct{}, maxHeavy),
		waiting: make(chan struct{}, maxHeavy), observer: orNone(observer)}
}

// InUse returns the calls that limit (LimitCalls or LimitHeavyCalls) holds now, a heavy call waiting for its turn
// not counted.
func (l *Limiter) InUse(limit string) int {
	if limit == LimitHeavyCalls {
		return len(l.heavy)
	}
	return len(l.calls)
}

// Capacity returns the calls that limit (LimitCalls or LimitHeavyCalls) may hold at once.
func (l *Limiter) Capacity(limit string) int {
	if limit == LimitHeavyCalls {
		return cap(l.heavy)
	}
	return cap(l.calls)
}

// Intercept serves the call within the limits, or refuses it with RESOURCE_EXHAUSTED and reason SERVER_BUSY.
func (l *Limiter) Intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if heavyMethods[info.FullMethod] {
		if err := l.heavyTurn(ctx); err != nil {
			return nil, err
		}
		defer func() { <-l.heavy }()
	}
	select {
	case l.calls <- struct{}{}:
		defer func() { <-l.calls }()
	default:
		l.observer.Refused(LimitCalls)
		return nil, Busy("calls", cap(l.calls))
	}
	return handler(ctx, req)
}

// heavyTurn waits for a heavy call's turn: at once if one is free, else in the queue if it has room, until ctx is
// canceled or, if ctx has a deadline, until the moment by which the call must answer (deadline.Last, from now), when
// it is refused as busy (a call that waited longer could not answer in time), as it is if the deadline itself passes
// first (a wait the machine's load drew out): the queue's refusal of a call whose time ran out while it waited.
func (l *Limiter) heavyTurn(ctx context.Context) error {
	select {
	case l.heavy <- struct{}{}:
		return nil
	default:
	}
	select {
	case l.waiting <- struct{}{}:
		defer func() { <-l.waiting }()
	default:
		l.observer.Refused(LimitHeavyCalls)
		return Busy("heavy calls", cap(l.heavy))
	}
	l.observer.Waited(LimitHeavyCalls)
	var late <-chan time.Time
	if last, _, ok := deadline.Last(ctx, time.Now()); ok {
		timer := time.NewTimer(time.Until(last))
		defer timer.Stop()
		late = timer.C
	}
	select {
	case l.heavy <- struct{}{}:
		return nil
	case <-late:
	case <-ctx.Done():
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return status.FromContextError(ctx.Err()).Err()
		}
	}
	l.observer.Refused(LimitHeavyCalls)
	return Busy("heavy calls", cap(l.heavy))
}

// Busy is the error of a call refused because the server serves limit calls of the kind already.
func Busy(kind string, limit int) error {
	n := strconv.Itoa(limit)
	return refusal.New(codes.ResourceExhausted, ReasonServerBusy, "the server is serving as many "+kind+" as it may ("+n+
		"); retry later", map[string]string{"limit": n})
}

// noObserver observes nothing.
type noObserver struct{}

// Waited does nothing.
func (noObserver) Waited(string) {}

// Refused does nothing.
func (noObserver) Refused(string) {}

// orNone returns o, or an observer of nothing if o is nil.
func orNone(o Observer) Observer {
	if o == nil {
		return noObserver{}
	}
	return o
}
