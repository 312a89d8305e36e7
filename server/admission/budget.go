package admission

import (
	"strconv"
	"sync/atomic"

	"google.golang.org/grpc/codes"

	"github.com/rulebook/rulebook/internal/refusal"
)

// Budget bounds the memory that the requests in flight take: each request holds what it costs (its size, and an
// estimate of what it takes decoded) from before it is decoded until it is answered, and a request that does not
// fit in what is left is refused, not queued. It is safe for concurrent use.
type Budget struct {
	limit    int64
	used     atomic.Int64
	observer Observer
}

// NewBudget returns a budget of limit bytes, telling observer (if not nil) of its refusals (LimitRequestBytes).
func NewBudget(limit int64, observer Observer) *Budget {
	return &Budget{limit: limit, observer: orNone(observer)}
}

// Acquire takes n bytes of the budget, to be given back by calling release once, or refuses them: with SERVER_BUSY
// if they do not fit in what is left now, and REQUEST_TOO_LARGE if they are more than the whole budget.
func (b *Budget) Acquire(n int64) (release func(), err error) {
	if n > b.limit {
		b.observer.Refused(LimitRequestBytes)
		return nil, tooLarge(n, b.limit)
	}
	for {
		used := b.used.Load()
		if used+n > b.limit {
			b.observer.Refused(LimitRequestBytes)
			return nil, Busy("request bytes", int(b.limit))
		}
		if b.used.CompareAndSwap(used, used+n) {
			var once atomic.Bool
			return func() {
				if once.CompareAndSwap(false, true) {
					b.used.Add(-n)
				}
			}, nil
		}
	}
}

// InFlight returns the bytes taken now.
func (b *Budget) InFlight() int64 { return b.used.Load() }

// Limit returns the bytes of the whole budget.
func (b *Budget) Limit() int64 { return b.limit }

// tooLarge is the refusal of a request of cost bytes, more than the whole budget of limit bytes.
func tooLarge(cost, limit int64) error {
	c, l := strconv.FormatInt(cost, 10), strconv.FormatInt(limit, 10)
	return refusal.New(codes.ResourceExhausted, refusal.ReasonRequestTooLarge, "the request would take about "+c+
		" bytes of memory, more than the "+l+" the server gives all the requests in flight", map[string]string{"cost": c, "limit": l})
}
