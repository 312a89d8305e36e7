// Package refusal builds the errors with which rulebook refuses a call, on every layer (the service, the server's
// limits, the REST gateway): a gRPC status whose details start with an ErrorInfo of the domain "rulebook", a stable
// reason code and the facts, followed by any further details (a BadRequest naming the field at fault, a
// PreconditionFailure naming the rule). Over REST the same status is the JSON body.
package refusal

import (
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
)

// Domain is the domain of every ErrorInfo rulebook returns.
const Domain = "rulebook"

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
func Reason(err error) string {
	for _, d := range status.Convert(err).Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == Domain {
			return info.GetReason()
		}
	}
	return ""
}
