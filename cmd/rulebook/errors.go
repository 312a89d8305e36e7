package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
)

// usageError is an error in the command line found while running a command, such as a flag whose JSON does not
// parse. run reports it with the command's usage and exit status 2.
type usageError struct{ err error }

// Error returns the message of the wrapped error.
func (u *usageError) Error() string { return u.err.Error() }

// usagef returns a usage error with a formatted message.
func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// describe renders err for people. For a gRPC status it gives the code, the ErrorInfo reason, the message, the
// ErrorInfo metadata sorted by key, and then one indented line per BadRequest field violation, as in
//
//	FailedPrecondition CELL_OWNED_BY_OPPONENT: cell (1,1) holds player 2's stones {col=1 row=1}
//
// Other errors are their own message.
func describe(err error) string {
	st, ok := status.FromError(err)
	if !ok {
		return err.Error()
	}
	var b strings.Builder
	b.WriteString(st.Code().String())
	var violations []*errdetails.BadRequest_FieldViolation
	var info *errdetails.ErrorInfo
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			info = d
		case *errdetails.BadRequest:
			violations = append(violations, d.GetFieldViolations()...)
		}
	}
	if info.GetReason() != "" {
		b.WriteString(" " + info.GetReason())
	}
	b.WriteString(": " + st.Message())
	if md := info.GetMetadata(); len(md) > 0 {
		b.WriteString(" {")
		for i, k := range slices.Sorted(maps.Keys(md)) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(k + "=" + quoteIfNeeded(md[k]))
		}
		b.WriteByte('}')
	}
	for _, v := range violations {
		field := v.GetField()
		if field == "" {
			field = "(none)"
		}
		fmt.Fprintf(&b, "\n  field %s: %s", field, v.GetDescription())
	}
	return b.String()
}

// quoteIfNeeded returns s, quoted when it is empty or holds characters that would make a metadata list ambiguous.
func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\n\"{}=") || !strconv.CanBackquote(s) {
		return strconv.Quote(s)
	}
	return s
}
