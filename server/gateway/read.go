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

	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/gateway/restjson"
	"github.com/rulebook/rulebook/service/refusal"
)

// Reasons of the gateway's refusals of a request it could not read.
const (
	// ReasonMalformedBody: the body could not be read (a broken chunked encoding, a connection that broke).
	ReasonMalformedBody = "MALFORMED_BODY"
	// ReasonRequestTimeout: the body did not arrive within the call's deadline (HTTP 408).
	ReasonRequestTimeout = "REQUEST_TIMEOUT"
)

// chargeStep is how much of the budget a body of unknown length takes at a time, as it arrives: enough that a long
// body takes the budget a few times only, and little enough that a body trickling in holds little.
const chargeStep = 4 << 10

// readBody reads the body of a request with one (POST), as ReadBody does, and then takes from the budget what
// decoding it is estimated to take (ChargeJSON); it returns the body with the budget it holds, to give back
// with release once the call is answered. A body it refuses is answered here, closing the connection (what is left
// of the body is never read), and ok is false.
func (g *Gateway) readBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), ok bool) {
	fail := func(err error) ([]byte, func(), bool) {
		w.Header().Set("Connection", "close")
		g.Refuse(w, r, err)
		return nil, nil, false
	}
	body, release, err := ReadBody(w, r, int64(g.opts.MaxBodyBytes), g.opts.Budget)
	if err != nil {
		return fail(err)
	}
	if release, err = ChargeJSON(body, release, g.opts.Budget); err != nil {
		return fail(err)
	}
	return body, release, true
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

// ReadBody reads the body of r, answered by w, within limit bytes, budget and r's deadline, and returns it with the
// budget it holds, to give back with release once the request is answered: the body's bytes, taken before reading
// when the request declares its length, else as they arrive. Its error is a refusal with a stable reason:
// REQUEST_TOO_LARGE (a body longer than limit), the budget's, REQUEST_TIMEOUT (a body not in by the deadline) or
// MALFORMED_BODY.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64, budget *admission.Budget) (body []byte, release func(), err error) {
	if r.ContentLength > limit {
		return nil, nil, tooLarge(limit)
	}
	release = func() {}
	if r.ContentLength > 0 {
		if release, err = budget.Acquire(r.ContentLength); err != nil {
			return nil, nil, err
		}
	}
	if deadline, ok := r.Context().Deadline(); ok {
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(deadline) // not every connection can (HTTP/2 can, per stream)
		defer func() { _ = rc.SetReadDeadline(time.Time{}) }()
	}
	charged := &chargedReader{r: http.MaxBytesReader(w, r.Body, limit), budget: budget, free: max(r.ContentLength, 0)}
	body, err = io.ReadAll(charged)
	release = both(release, charged.release)
	if err != nil {
		release()
		return nil, nil, unreadable(r.Context(), err)
	}
	return body, release, nil
}

// chargedReader reads from r and takes from the budget what it reads beyond free, chargeStep at a time.
type chargedReader struct {
	r       io.Reader
	budget  *admission.Budget
	free    int64  // what may still be read without taking more of the budget
	release func() // gives back all that it took
}

// Read reads from r, taking more of the budget first when what was taken is used up.
func (c *chargedReader) Read(p []byte) (int, error) {
	if c.free <= 0 {
		taken, err := c.budget.Acquire(chargeStep)
		if err != nil {
			return 0, err
		}
		c.release, c.free = both(c.release, taken), chargeStep
	}
	n, err := c.r.Read(p[:min(int64(len(p)), c.free)])
	c.free -= int64(n)
	return n, err
}

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
		return refusal.New(codes.DeadlineExceeded, ReasonRequestTimeout, "the body did not arrive before the call's deadline", nil)
	}
	return refusal.New(codes.InvalidArgument, ReasonMalformedBody, "the body could not be read: "+restjson.Shorten(err.Error()), nil)
}

// tooLarge is the refusal (413) of a body longer than limit.
func tooLarge(limit int64) error {
	n := strconv.FormatInt(limit, 10)
	return refusal.New(codes.ResourceExhausted, ReasonRequestTooLarge, "the request is longer than the "+n+
		" bytes the server accepts", map[string]string{"limit": n})
}
