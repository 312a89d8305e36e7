package server

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"
)

// grpcTarget returns the gRPC server as the handler that Vanguard calls with each Connect or gRPC-Web call (as a
// gRPC call over http.Handler): the call's deadline, that of its request's context, goes to the gRPC server as its
// grpc-timeout (unless the caller's own, already there, is shorter), and the request's context ends only if the
// client goes away, not at that deadline. grpc-go's ServeHTTP abandons a call whose request's context ends, and with
// it the answer being written, OK or DEADLINE_EXCEEDED alike, which the client would then read as UNKNOWN or an
// HTTP 500; the call's own context still ends at the deadline.
func (s *Server) grpcTarget() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if deadline, ok := ctx.Deadline(); ok {
			remaining := max(time.Until(deadline), time.Nanosecond)
			if caller, ok := parseGRPCTimeout(r.Header.Get("Grpc-Timeout")); !ok || remaining < caller {
				r.Header.Set("Grpc-Timeout", formatGRPCTimeout(remaining))
			}
		}
		untilGone, cancel := context.WithCancel(context.WithoutCancel(ctx))
		defer cancel()
		defer context.AfterFunc(ctx, func() {
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				cancel() // the client went away
			}
		})()
		s.grpc.ServeHTTP(w, r.WithContext(untilGone))
	})
}

// grpcTimeoutUnits are the units of a grpc-timeout, by the letter that ends it, largest first.
var grpcTimeoutUnits = []struct {
	letter byte
	unit   time.Duration
}{{'H', time.Hour}, {'M', time.Minute}, {'S', time.Second}, {'m', time.Millisecond}, {'u', time.Microsecond}, {'n', time.Nanosecond}}

// maxGRPCTimeoutValue is the largest number of a grpc-timeout: 8 digits.
const maxGRPCTimeoutValue = 99_999_999

// parseGRPCTimeout returns the duration of a grpc-timeout header's value, such as "250m" (the longest duration for
// one beyond it), and whether it is one.
func parseGRPCTimeout(v string) (time.Duration, bool) {
	if len(v) < 2 || len(v) > 9 {
		return 0, false
	}
	n, err := strconv.ParseUint(v[:len(v)-1], 10, 32)
	if err != nil {
		return 0, false
	}
	for _, u := range grpcTimeoutUnits {
		if u.letter != v[len(v)-1] {
			continue
		}
		if n > uint64(math.MaxInt64/u.unit) {
			return math.MaxInt64, true
		}
		return time.Duration(n) * u.unit, true
	}
	return 0, false
}

// formatGRPCTimeout returns d, not negative, as a grpc-timeout header's value, in the finest unit whose 8 digits hold
// it, rounded up so that the timeout never ends before d (hours hold any duration).
func formatGRPCTimeout(d time.Duration) string {
	for i := len(grpcTimeoutUnits) - 1; ; i-- {
		u := grpcTimeoutUnits[i]
		n := d / u.unit
		if d%u.unit != 0 {
			n++
		}
		if n <= maxGRPCTimeoutValue || i == 0 {
			return strconv.FormatInt(int64(n), 10) + string(u.letter)
		}
	}
}
