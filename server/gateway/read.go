package gateway

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/internal/restjson"
	"github.com/rulebook/rulebook/server/admission"
)

// ReasonMalformedBody is the reason of a request whose body could not be read (a broken chunked encoding, a
// connection that broke).
const ReasonMalformedBody = "MALFORMED_BODY"

// firstBuffer is the buffer a body is read into before its bytes arrive: small, so that a request that declares a
// long body and sends none holds next to nothing.
const firstBuffer = 512

// Limits bound the reading of a request body.
type Limits struct {
	// MaxBytes is the longest body; a longer one is refused with REQUEST_TOO_LARGE.
	MaxBytes int64
	// Budget is the memory of the requests in flight, which a body takes from as its bytes arrive until its call is
	// answered.
	Budget *admission.Budget
	// ReadTime is how long a body may take to arrive once n of its bytes have: a body must keep coming at the
	// server's minimum rate. Nil means the request's deadline alone.
	ReadTime func(n int64) time.Duration
}

// ChargeJSON returns release, which gives back what body holds of budget, with what decoding body as JSON is
// estimated to take beyond its bytes (admission.JSONCost) taken from budget too; or, if that does not fit, the
// budget's refusal, having called release.
func ChargeJSON(body []byte, release func(), budget *admission.Budget) (func(), error) {
	extra := admission.JSONCost(body) - int64(len(body))
	if extra <= 0 {
		return release, nil
	}
	taken, err := budget.Acquire(extra)
	if err != nil {
		release()
		return nil, err
	}
	return both(release, taken), nil
}

// ReadBody reads the body of r, answered by w, within limits and r's deadline, and returns it with the budget it
// holds, to give back with release once the request is answered. Capacity is taken by work, never by waiting: the
// body takes the budget only for the buffer its bytes have filled (which doubles as they come, up to the length the
// request declares), never for a length it merely declares, and it must keep arriving: its read deadline,
// limits.ReadTime of the bytes in so far, moves on as they come. Its error is a refusal with a stable reason: REQUEST_TOO_LARGE (a body longer than the limit), the budget's,
// REQUEST_TIMEOUT (a body not in by its read deadline or r's) or MALFORMED_BODY.
func ReadBody(w http.ResponseWriter, r *http.Request, limits Limits) (body []byte, release func(), err error) {
	if r.ContentLength > limits.MaxBytes {
		return nil, nil, tooLarge(limits.MaxBytes)
	}
	reader := &arrivingReader{r: http.MaxBytesReader(w, r.Body, limits.MaxBytes), budget: limits.Budget,
		deadline: readDeadline(w, r, limits.ReadTime)}
	defer reader.deadline.clear()
	body, err = reader.readAll(r.ContentLength)
	release = reader.release
	if release == nil {
		release = func() {}
	}
	if err != nil {
		release()
		return nil, nil, unreadable(r.Context(), err)
	}
	return body, release, nil
}

// arrivingReader reads a body from r into a buffer that grows as the bytes arrive, taking from budget what the
// buffer takes, and moving the read deadline on as the bytes come.
type arrivingReader struct {
	r        io.Reader
	budget   *admission.Budget
	deadline deadline
	charged  int64  // what it has taken from the budget: the capacity of its buffer, once it grew
	release  func() // gives back all that it took
}

// readAll reads r to its end, a body that declares its length (-1: none). Its buffer starts at firstBuffer and
// doubles each time the bytes fill it, to the declared length at most (a body longer than it declares is cut by
// net/http), having taken the larger buffer from the budget first.
func (a *arrivingReader) readAll(declared int64) ([]byte, error) {
	b := make([]byte, 0, firstBuffer)
	a.deadline.extend(0)
	for {
		if len(b) == cap(b) {
			size := int64(2 * cap(b))
			if declared > int64(len(b)) {
				size = min(size, declared)
			}
			if err := a.charge(size); err != nil {
				return nil, err
			}
			b = append(make([]byte, 0, size), b...)
		}
		n, err := a.r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if n > 0 {
			a.deadline.extend(int64(len(b)))
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// charge takes from the budget what a buffer of size bytes takes beyond what it took already.
func (a *arrivingReader) charge(size int64) error {
	if size <= a.charged {
		return nil
	}
	taken, err := a.budget.Acquire(size - a.charged)
	if err != nil {
		return err
	}
	a.release, a.charged = both(a.release, taken), size
	return nil
}

// deadline moves the read deadline of one request's body.
type deadline struct {
	rc       *http.ResponseController
	start    time.Time
	readTime func(int64) time.Duration
	call     time.Time // the request's own deadline, if it has one
}

// readDeadline returns the read deadline of r's body, answered by w: readTime of the bytes arrived, from now, but
// never past r's own deadline.
func readDeadline(w http.ResponseWriter, r *http.Request, readTime func(int64) time.Duration) deadline {
	d := deadline{rc: http.NewResponseController(w), start: time.Now(), readTime: readTime}
	d.call, _ = r.Context().Deadline()
	return d
}

// extend sets the read deadline for a body of which arrived bytes are in.
func (d deadline) extend(arrived int64) {
	t := d.call
	if d.readTime != nil {
		if until := d.start.Add(d.readTime(arrived)); t.IsZero() || until.Before(t) {
			t = until
		}
	}
	if !t.IsZero() {
		_ = d.rc.SetReadDeadline(t) // not every connection can (HTTP/2 can, per stream)
	}
}

// clear removes the read deadline, once the body is read.
func (d deadline) clear() { _ = d.rc.SetReadDeadline(time.Time{}) }

// both returns a function calling a then b, either of which may be nil.
func both(a, b func()) func() {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func() { a(); b() }
}

// unreadable is the refusal of a body whose reading failed with err, for a request with context ctx: a body that
// ended before its end (its connection closed, or half-closed, with a chunk or the declared length to come) is
// MALFORMED_BODY at once, whatever its context; only one that had not arrived by the deadline is REQUEST_TIMEOUT.
func unreadable(ctx context.Context, err error) error {
	var tooLong *http.MaxBytesError
	switch {
	case errors.As(err, &tooLong):
		return tooLarge(tooLong.Limit)
	case refusal.Reason(err) != "": // the budget's refusal
		return err
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return refusal.New(codes.InvalidArgument, ReasonMalformedBody, "the body was cut short: its connection ended before the body did", nil)
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(ctx.Err(), context.DeadlineExceeded):
		return refusal.New(codes.DeadlineExceeded, refusal.ReasonRequestTimeout, "the body did not arrive in time (at the "+
			"server's minimum rate, and before the call's deadline)", nil)
	}
	return refusal.New(codes.InvalidArgument, ReasonMalformedBody, "the body could not be read: "+restjson.Shorten(err.Error()), nil)
}

// tooLarge is the refusal (413) of a body longer than limit.
func tooLarge(limit int64) error {
	n := strconv.FormatInt(limit, 10)
	return refusal.New(codes.ResourceExhausted, refusal.ReasonRequestTooLarge, "the request is longer than the "+n+
		" bytes the server accepts", map[string]string{"limit": n})
}
