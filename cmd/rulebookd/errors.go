package main

import (
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"

	"github.com/rulebook/rulebook/service"
)

// statusError is the error of a call refused with code and message, as the service refuses calls: an ErrorInfo of
// reason (domain rulebook) and facts, then details.
func statusError(code codes.Code, reason, message string, facts map[string]string, details ...protoadapt.MessageV1) error {
	info := &errdetails.ErrorInfo{Reason: reason, Domain: service.ErrorDomain, Metadata: facts}
	st, err := status.New(code, message).WithDetails(append([]protoadapt.MessageV1{info}, details...)...)
	if err != nil { // only for a detail that cannot be marshalled, which these never are
		return status.Error(code, message)
	}
	return st.Err()
}
