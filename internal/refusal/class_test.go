package refusal_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"go.uber.org/zap/zapcore"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/internal/refusal"
)

// TestClassify checks the class of errors of each kind: a reason that says more than its code has the reason's HTTP
// status and is the caller's (info), one that does not has its code's; an error with no reason (or one of another
// domain) is counted under its code's name; the server's own failures are logged at error, a call cut short at warn.
func TestClassify(t *testing.T) {
	otherDomain, err := status.New(codes.InvalidArgument, "x").WithDetails(&errdetails.ErrorInfo{Reason: "THEIRS", Domain: "elsewhere"})
	if err != nil {
		t.Fatal(err)
	}
	info, warn, errorLevel := zapcore.InfoLevel, zapcore.WarnLevel, zapcore.ErrorLevel
	tests := []struct {
		name string
		err  error
		want refusal.Class
	}{
		{"an answer", nil, refusal.Class{HTTPStatus: http.StatusOK, Level: info, Metric: "OK"}},
		{"a malformed request", refusal.New(codes.InvalidArgument, "MALFORMED_JSON", "m", nil),
			refusal.Class{HTTPStatus: http.StatusBadRequest, Level: info, Metric: "MALFORMED_JSON"}},
		{"a broken rule", refusal.New(codes.FailedPrecondition, "COLOR_CONFLICT", "m", nil),
			refusal.Class{HTTPStatus: http.StatusBadRequest, Level: info, Metric: "COLOR_CONFLICT"}},
		{"an unknown game", refusal.New(codes.NotFound, "UNKNOWN_GAME", "m", nil),
			refusal.Class{HTTPStatus: http.StatusNotFound, Level: info, Metric: "UNKNOWN_GAME"}},
		{"a busy server", refusal.New(codes.ResourceExhausted, "SERVER_BUSY", "m", nil),
			refusal.Class{HTTPStatus: http.StatusTooManyRequests, Level: info, Metric: "SERVER_BUSY"}},
		{"a request too large", refusal.New(codes.ResourceExhausted, refusal.ReasonRequestTooLarge, "m", nil),
			refusal.Class{HTTPStatus: http.StatusRequestEntityTooLarge, Level: info, Metric: refusal.ReasonRequestTooLarge}},
		{"a request late", refusal.New(codes.DeadlineExceeded, refusal.ReasonRequestTimeout, "m", nil),
			refusal.Class{HTTPStatus: http.StatusRequestTimeout, Level: info, Metric: refusal.ReasonRequestTimeout}},
		{"a wrong method", refusal.New(codes.Unimplemented, refusal.ReasonMethodNotAllowed, "m", nil),
			refusal.Class{HTTPStatus: http.StatusMethodNotAllowed, Level: info, Metric: refusal.ReasonMethodNotAllowed}},
		{"a wrong content type", refusal.New(codes.InvalidArgument, refusal.ReasonUnsupportedMediaType, "m", nil),
			refusal.Class{HTTPStatus: http.StatusUnsupportedMediaType, Level: info, Metric: refusal.ReasonUnsupportedMediaType}},
		{"an unknown caller", refusal.New(codes.Unauthenticated, "API_KEY_UNKNOWN", "m", nil),
			refusal.Class{HTTPStatus: http.StatusUnauthorized, Level: info, Metric: "API_KEY_UNKNOWN"}},
		{"a seat not the caller's", refusal.New(codes.PermissionDenied, "NOT_YOUR_SEAT", "m", nil),
			refusal.Class{HTTPStatus: http.StatusForbidden, Level: info, Metric: "NOT_YOUR_SEAT"}},
		{"the service's failure", refusal.New(codes.Internal, "INTERNAL", "m", nil),
			refusal.Class{HTTPStatus: http.StatusInternalServerError, Level: errorLevel, Metric: "INTERNAL"}},
		{"a call past its deadline", status.Error(codes.DeadlineExceeded, "m"),
			refusal.Class{HTTPStatus: http.StatusGatewayTimeout, Level: warn, Metric: "DeadlineExceeded"}},
		{"a server going away", status.Error(codes.Unavailable, "m"),
			refusal.Class{HTTPStatus: http.StatusServiceUnavailable, Level: warn, Metric: "Unavailable"}},
		{"a call its client cancelled", status.Error(codes.Canceled, "m"),
			refusal.Class{HTTPStatus: 499, Level: info, Metric: "Canceled"}},
		{"a method not served", status.Error(codes.Unimplemented, "m"),
			refusal.Class{HTTPStatus: http.StatusNotImplemented, Level: info, Metric: "Unimplemented"}},
		{"an error that is no status", errors.New("m"),
			refusal.Class{HTTPStatus: http.StatusInternalServerError, Level: errorLevel, Metric: "Unknown"}},
		{"a reason of another domain", otherDomain.Err(),
			refusal.Class{HTTPStatus: http.StatusBadRequest, Level: info, Metric: "InvalidArgument"}},
		{"a code gRPC does not have", status.Error(codes.Code(99), "m"),
			refusal.Class{HTTPStatus: http.StatusInternalServerError, Level: errorLevel, Metric: "Code(99)"}},
	}
	for _, tt := range tests {
		if got := refusal.Classify(tt.err); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestCodeStatus checks that a code without a reason has the HTTP status that grpc-gateway gives it (which is also
// Connect's), so that a refusal has the same status whichever of them answers it.
func TestCodeStatus(t *testing.T) {
	for c := codes.OK; c <= codes.Unauthenticated; c++ {
		if got, want := refusal.Classify(status.Error(c, "m")).HTTPStatus, runtime.HTTPStatusFromCode(c); got != want {
			t.Errorf("%s: HTTP %d, grpc-gateway's %d", c, got, want)
		}
	}
}

// TestLevel checks the level of the log line of an answer by its HTTP status.
func TestLevel(t *testing.T) {
	for code, want := range map[int]zapcore.Level{
		http.StatusOK: zapcore.InfoLevel, http.StatusNotFound: zapcore.InfoLevel, http.StatusRequestTimeout: zapcore.InfoLevel,
		499: zapcore.InfoLevel, http.StatusInternalServerError: zapcore.ErrorLevel, http.StatusNotImplemented: zapcore.InfoLevel,
		http.StatusBadGateway: zapcore.ErrorLevel, http.StatusServiceUnavailable: zapcore.WarnLevel,
		http.StatusGatewayTimeout: zapcore.WarnLevel,
	} {
		if got := refusal.Level(code); got != want {
			t.Errorf("HTTP %d: %s, want %s", code, got, want)
		}
	}
}
