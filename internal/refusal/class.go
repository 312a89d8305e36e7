package refusal

import (
	"net/http"

	"go.uber.org/zap/zapcore"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Class is how every transport answers, logs and counts a call's error: what Classify says of it.
type Class struct {
	// HTTPStatus is the status of the answer over REST, and over Connect when the server answers the call itself:
	// the reason's, for a reason that says more than its code (reasonStatus), else the code's (codeStatus).
	HTTPStatus int
	// Level is the level of the call's log line: Level(HTTPStatus).
	Level zapcore.Level
	// Metric is the reason label of rulebook_refusals_total: the reason, or the name of the code when there is none.
	Metric string
}

// Classify returns the class of err, the error of a call (nil for one answered).
func Classify(err error) Class {
	st := status.Convert(err)
	reason := reasonOf(st)
	code, ok := reasonStatus[reason]
	if !ok {
		code = http.StatusInternalServerError
		if c := st.Code(); int(c) < len(codeStatus) {
			code = codeStatus[c]
		}
	}
	if reason == "" {
		reason = st.Code().String()
	}
	return Class{HTTPStatus: code, Level: Level(code), Metric: reason}
}

// Level returns the level of the log line of a call or request answered with httpStatus: error for the server's own
// failures (500, and the 5xx no caller's mistake gives), warn for a call cut short by its deadline (504) or by the
// server going away (503), info for the rest: answers, and the callers' mistakes (4xx, 501 for a method that is not
// served).
func Level(httpStatus int) zapcore.Level {
	switch {
	case httpStatus == http.StatusServiceUnavailable || httpStatus == http.StatusGatewayTimeout:
		return zapcore.WarnLevel
	case httpStatus >= http.StatusInternalServerError && httpStatus != http.StatusNotImplemented:
		return zapcore.ErrorLevel
	}
	return zapcore.InfoLevel
}

// reasonStatus are the HTTP statuses of the reasons that say more than their gRPC code.
var reasonStatus = map[string]int{
	ReasonRequestTooLarge:      http.StatusRequestEntityTooLarge, // RESOURCE_EXHAUSTED: 429 otherwise
	ReasonRequestTimeout:       http.StatusRequestTimeout,        // DEADLINE_EXCEEDED: 504 otherwise
	ReasonMethodNotAllowed:     http.StatusMethodNotAllowed,      // UNIMPLEMENTED: 501 otherwise
	ReasonUnsupportedMediaType: http.StatusUnsupportedMediaType,  // INVALID_ARGUMENT: 400 otherwise
}

// codeStatus are the HTTP statuses of the gRPC codes, as google.rpc.Code gives them (and grpc-gateway and Connect
// answer them).
var codeStatus = [...]int{
	codes.OK:                 http.StatusOK,
	codes.Canceled:           499, // Client Closed Request
	codes.Unknown:            http.StatusInternalServerError,
	codes.InvalidArgument:    http.StatusBadRequest,
	codes.DeadlineExceeded:   http.StatusGatewayTimeout,
	codes.NotFound:           http.StatusNotFound,
	codes.AlreadyExists:      http.StatusConflict,
	codes.PermissionDenied:   http.StatusForbidden,
	codes.ResourceExhausted:  http.StatusTooManyRequests,
	codes.FailedPrecondition: http.StatusBadRequest,
	codes.Aborted:            http.StatusConflict,
	codes.OutOfRange:         http.StatusBadRequest,
	codes.Unimplemented:      http.StatusNotImplemented,
	codes.Internal:           http.StatusInternalServerError,
	codes.Unavailable:        http.StatusServiceUnavailable,
	codes.DataLoss:           http.StatusInternalServerError,
	codes.Unauthenticated:    http.StatusUnauthorized,
}

// reasonOf returns the reason of st's ErrorInfo in the rulebook domain, or "" if it has none.
func reasonOf(st *status.Status) string {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == Domain {
			return info.GetReason()
		}
	}
	return ""
}
