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

// readBody reads the body of a request with one (POST), within the size limit, the budget and the call's deadline,
// and returns it with the budget it holds, to give back with release once the call is answered: the body's bytes
// (taken before reading when the request declares its length, else as they arrive) and then what decoding it is
// estimated to take (admission.JSONCost). A body it refuses is answered here, closing the connection (what is left
// of the body is never read), and ok is false.
func (g *Gateway) readBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), ok bool) {
	release = func() {}
	fail := func(err error) ([]byte, func(), bool) {
		release()
		w.Header().Set("Connection", "close")
		g.refuse(w, r, err)
		return nil, nil, false
	}
	limit := int64(g.opts.MaxBodyBytes)
	if r.ContentLength > limit {
		return fail(tooLarge(limit))
	}
	if r.ContentLength > 0 {
		taken, err := g.opts.Budget.Acquire(r.ContentLength)
		if err != nil {
			return fail(err)
		}
		release = taken
	}
	if deadline, ok := r.Context().Deadline(); ok {
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(deadline) // not every connection can (HTTP/2 can, per stream)
		defer func() { _ = rc.SetReadDeadline(time.Time{}) }()
	}
	charged := &chargedReader{r: http.MaxBytesReader(w, r.Body, limit), budget: g.opts.Budget, free: max(r.ContentLength, 0)}
	body, err := io.ReadAll(charged)
	release = both(release, charged.release)
	if err != nil {
		return fail(unreadable(r.Context(), err))
	}
	if extra := admission.JSONCost(body) - int64(len(body)); extra > 0 {
		taken, err := g.opts.Budget.Acquire(extra)
		if err != nil {
			return fail(err)
		}
		release = both(release, taken)
	}
	return body, release, true
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

// unreadable is the refusal of a body whose reading failed with err, for a request with context ctx.
func unreadable(ctx context.Context, err error) error {
	var tooLong *http.MaxBytesError
	switch {
	case errors.As(err, &tooLong):
		return tooLarge(tooLong.Limit)
	case refusal.Reason(err) != "": // the budget's refusal
		return err
	case errors.Is(err, os.ErrDeadlineExceeded), ctx.Err() != nil:
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
