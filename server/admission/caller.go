package admission

import (
	"context"

	"google.golang.org/grpc"

	"github.com/rulebook/rulebook/service/caller"
)

// LimitCallerCalls is the name of the limit of a caller's own calls, as an Observer is told of it.
const LimitCallerCalls = "caller_calls"

// AnonymousCaller is the name under which CallerLimit limits the calls of every anonymous caller together.
const AnonymousCaller = "anonymous"

// CallerLimit bounds the RulesService calls that each of some named callers has open at once, so that one caller
// cannot take every call slot from the others: a call beyond its caller's share is refused with SERVER_BUSY, the
// other callers' calls served as before. A caller without a share of its own is limited only by the Limiter.
type CallerLimit struct {
	slots    map[string]chan struct{} // by caller name, AnonymousCaller for the anonymous callers
	observer Observer
}

// NewCallerLimit returns the limit of max[name] calls at once for each caller named in max (AnonymousCaller for the
// anonymous callers together), telling observer (if not nil) of its refusals.
func NewCallerLimit(max map[string]int, observer Observer) *CallerLimit {
	l := &CallerLimit{slots: make(map[string]chan struct{}, len(max)), observer: orNone(observer)}
	for name, n := range max {
		l.slots[name] = make(chan struct{}, n)
	}
	return l
}

// Intercept serves the call within its caller's share (that of the caller in ctx, see package caller), or refuses it
// with RESOURCE_EXHAUSTED and reason SERVER_BUSY.
func (l *CallerLimit) Intercept(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	name := caller.Name(ctx)
	if name == caller.Anonymous {
		name = AnonymousCaller
	}
	slots, ok := l.slots[name]
	if !ok {
		return handler(ctx, req)
	}
	select {
	case slots <- struct{}{}:
		defer func() { <-slots }()
	default:
		l.observer.Refused(LimitCallerCalls)
		return nil, Busy("calls of this caller", cap(slots))
	}
	return handler(ctx, req)
}
