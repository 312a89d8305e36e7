package service

import (
	"errors"
	"strconv"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"

	"github.com/rulebook/rulebook/engine"
)

// ErrorDomain is the domain of every ErrorInfo the service returns.
const ErrorDomain = "rulebook"

// Reason codes the service itself gives, besides those of the engines.
const (
	// ReasonUnknownGame: the request names a game the service does not host.
	ReasonUnknownGame = "UNKNOWN_GAME"
	// ReasonMissingField: a required field of the request is not set.
	ReasonMissingField = "MISSING_FIELD"
	// ReasonInternal: the service failed; the request may be retried.
	ReasonInternal = "INTERNAL"
)

// ErrInternal is what a caller sees of a failure that is the service's own fault (or a panic), whatever its cause.
var ErrInternal = newStatus(codes.Internal, ReasonInternal, "internal error", nil)

// toStatus turns an engine's refusal into a gRPC status carrying an ErrorInfo, and a BadRequest field violation
// for malformed input or a PreconditionFailure for a broken rule. It reports whether err was an internal failure.
func toStatus(err error) (_ error, internal bool) {
	var e *engine.Error
	if !errors.As(err, &e) {
		return ErrInternal, true
	}
	switch e.Kind {
	case engine.Invalid:
		violation := &errdetails.BadRequest_FieldViolation{Field: e.Field, Description: e.Message, Reason: e.Reason}
		return newStatus(codes.InvalidArgument, e.Reason, e.Message, e.Facts,
			&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{violation}}), false
	case engine.Illegal:
		violation := &errdetails.PreconditionFailure_Violation{Type: e.Reason, Description: e.Message}
		return newStatus(codes.FailedPrecondition, e.Reason, e.Message, e.Facts,
			&errdetails.PreconditionFailure{Violations: []*errdetails.PreconditionFailure_Violation{violation}}), false
	}
	return ErrInternal, true
}

// missingField is the INVALID_ARGUMENT error for a required field left unset.
func missingField(field string) error {
	return fieldError(ReasonMissingField, field, field+" is required")
}

// fieldError is the INVALID_ARGUMENT error about field with reason and message.
func fieldError(reason, field, message string) error {
	violation := &errdetails.BadRequest_FieldViolation{Field: field, Description: message, Reason: reason}
	return newStatus(codes.InvalidArgument, reason, message, map[string]string{"field": field},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{violation}})
}

// unknownGame is the NOT_FOUND error for a game id the service does not host.
func unknownGame(id string) error {
	return newStatus(codes.NotFound, ReasonUnknownGame, "unknown game "+strconv.Quote(id)+"; ListGames lists the hosted games",
		map[string]string{"game": id})
}

// newStatus builds a status with an ErrorInfo for reason and facts, followed by the given details.
func newStatus(code codes.Code, reason, message string, facts map[string]string, details ...protoadapt.MessageV1) error {
	info := &errdetails.ErrorInfo{Reason: reason, Domain: ErrorDomain, Metadata: facts}
	st, err := status.New(code, message).WithDetails(append([]protoadapt.MessageV1{info}, details...)...)
	if err != nil { // only for a detail that cannot be marshalled, which these never are
		return status.Error(code, message)
	}
	return st.Err()
}
