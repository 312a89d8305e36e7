// Package refusal builds the errors with which rulebook refuses a call, on every layer (the service, the server's
// limits, the REST gateway, the WebAssembly module), and classifies them for every transport (Classify): a gRPC
// status whose details start with an ErrorInfo of the domain "rulebook", a stable reason code and the facts, followed
// by any further details (a BadRequest naming the field at fault, a PreconditionFailure naming the rule). Over REST
// the same status is the JSON body. It lies beneath both the server and the WebAssembly module, and imports neither.
package refusal

import (
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
)

// Domain is the domain of every ErrorInfo rulebook returns.
const Domain = "rulebook"

// Reasons that more than one layer or transport gives.
const (
	// ReasonInvalidField: a field breaks one of the API's structural rules (a pattern, a minimum length), or a JSON
	// body has a field the API does not have, of the wrong type, or given twice.
	ReasonInvalidField = "INVALID_FIELD"
	// ReasonRequestTooLarge: a request is longer than the largest the server accepts, or would take more memory than
	// the whole budget of the requests in flight (HTTP 413).
	ReasonRequestTooLarge = "REQUEST_TOO_LARGE"
	// ReasonRequestTimeout: a request did not arrive in time: at the server's minimum rate, within the call's
	// deadline (HTTP 408).
	ReasonRequestTimeout = "REQUEST_TIMEOUT"
	// ReasonMethodNotAllowed: the path takes other methods (HTTP 405), which the Allow header names.
	ReasonMethodNotAllowed = "METHOD_NOT_ALLOWED"
	// ReasonUnsupportedMediaType: a request is of a content type the server does not take (HTTP 415).
	ReasonUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	// ReasonUnknownPath: nothing is served at the path (HTTP 404).
	ReasonUnknownPath = "UNKNOWN_PATH"
)

// New returns the error of a call refused with code and message: an ErrorInfo of reason and facts, then details.
func New(code codes.Code, reason, message string, facts map[string]string, details ...protoadapt.MessageV1) error {
	info := &errdetails.ErrorInfo{Reason: reason, Domain: Domain, Metadata: facts}
	st, err := status.New(code, message).WithDetails(append([]protoadapt.MessageV1{info}, details...)...)
	if err != nil { // only for a detail that cannot be marshalled, which these never are
		return status.Error(code, message)
	}
	return st.Err()
}

// Field returns the INVALID_ARGUMENT error about field with reason and message: an ErrorInfo naming the field in its
// facts, and a BadRequest field violation.
func Field(reason, field, message string) error {
	violation := &errdetails.BadRequest_FieldViolation{Field: field, Description: message, Reason: reason}
	return New(codes.InvalidArgument, reason, message, map[string]string{"field": field},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{violation}})
}

// Reason returns the reason of err's ErrorInfo in the rulebook domain, or "" if it has none.
func Reason(err error) string { return reasonOf(status.Convert(err)) }
