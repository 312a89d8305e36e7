package service

import (
	"errors"
	"strconv"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/internal/refusal"
)

// Reason codes the service itself gives, besides those of the engines.
const (
	// ReasonUnknownGame: the request names a game the service does not host.
	ReasonUnknownGame = "UNKNOWN_GAME"
	// ReasonMissingField: a required field of the request is not set.
	ReasonMissingField = "MISSING_FIELD"
	// ReasonInternal: the service failed; the request may be retried.
	ReasonInternal = "INTERNAL"
	// ReasonFieldTooLarge: a field is longer (a string) or has more items (a list) than the API allows.
	ReasonFieldTooLarge = "FIELD_TOO_LARGE"
	// ReasonFieldOutOfRange: a number or an enum value is outside what the API allows.
	ReasonFieldOutOfRange = "FIELD_OUT_OF_RANGE"
	// ReasonConflictingFields: the request sets fields of which only one may be set (a state and a token).
	ReasonConflictingFields = "CONFLICTING_FIELDS"
	// ReasonPlainStateRefused: the request brings a plain state (or a setup), and the server accepts only tokens.
	ReasonPlainStateRefused = "PLAIN_STATE_REFUSED"
	// ReasonSeedRefused: the request chooses a seed, and the server accepts only tokens (whoever picks the seed knows
	// every hidden card).
	ReasonSeedRefused = "SEED_REFUSED"
	// ReasonPassWithoutToken: the request has a seat pass but a plain state instead of a token.
	ReasonPassWithoutToken = "SEAT_PASS_WITHOUT_TOKEN"
	// ReasonRecordTokens: a Replay request has tokens without starting from a token, or not one per move.
	ReasonRecordTokens = "RECORD_TOKENS_MISMATCH"
	// ReasonRecordMismatch: in an audit, a move of the record does not lead to the record's next token.
	ReasonRecordMismatch = "RECORD_MISMATCH"
	// ReasonRecordUnfinished: an audit holds moves of other seats than the caller's, and its last token does not hold
	// the game over.
	ReasonRecordUnfinished = "RECORD_UNFINISHED"
	// ReasonNoSuchSeat: the request names a seat the game does not have.
	ReasonNoSuchSeat = "NO_SUCH_SEAT"
	// ReasonNotYourSeat: a token caller asks to move, or to see moves or a view, for a seat its pass does not prove
	// (a caller without a pass is a spectator, and may not move).
	ReasonNotYourSeat = "NOT_YOUR_SEAT"
	// ReasonDeadlineTooShort: a SuggestMove call had less than deadline.Minimum (10 ms) left before its deadline when
	// it began, too little for its answer to reach its caller in time.
	ReasonDeadlineTooShort = "DEADLINE_TOO_SHORT"
)

// ErrInternal is what a caller sees of a failure that is the service's own fault (or a panic), whatever its cause.
var ErrInternal = refusal.New(codes.Internal, ReasonInternal, "internal error", nil)

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
		return refusal.New(codes.InvalidArgument, e.Reason, e.Message, e.Facts,
			&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{violation}}), false
	case engine.Illegal:
		violation := &errdetails.PreconditionFailure_Violation{Type: e.Reason, Description: e.Message}
		return refusal.New(codes.FailedPrecondition, e.Reason, e.Message, e.Facts,
			&errdetails.PreconditionFailure{Violations: []*errdetails.PreconditionFailure_Violation{violation}}), false
	}
	return ErrInternal, true
}

// missingField is the INVALID_ARGUMENT error for a required field left unset.
func missingField(field string) error {
	return refusal.Field(ReasonMissingField, field, field+" is required")
}

// permissionDenied is the PERMISSION_DENIED error with reason, message and facts.
func permissionDenied(reason, message string, facts map[string]string) error {
	violation := &errdetails.PreconditionFailure_Violation{Type: reason, Description: message}
	return refusal.New(codes.PermissionDenied, reason, message, facts,
		&errdetails.PreconditionFailure{Violations: []*errdetails.PreconditionFailure_Violation{violation}})
}

// plainStateRefused is the error for a plain state (or setup) sent to a server that accepts only tokens.
func plainStateRefused() error {
	return permissionDenied(ReasonPlainStateRefused,
		"this server accepts only tokens: start the game with NewGame and send its token", nil)
}

// seedRefused is the error for a seed chosen by the caller of a server that accepts only tokens.
func seedRefused() error {
	return permissionDenied(ReasonSeedRefused, "this server draws every seed itself: leave the seed unset", nil)
}

// notYourSeat is the error for a token caller of seat (NoPlayer: no pass) acting, in field, for asked.
func notYourSeat(seat engine.Player, field string, asked int32) error {
	facts := map[string]string{"seat": strconv.Itoa(int(seat)), "field": field, "asked": strconv.Itoa(int(asked))}
	switch {
	case seat == engine.NoPlayer && field == "move.player":
		return permissionDenied(ReasonNotYourSeat, "without a seat pass the caller is a spectator, who may not move", facts)
	case seat == engine.NoPlayer:
		return permissionDenied(ReasonNotYourSeat, "without a seat pass the caller is a spectator: "+field+" must be 0", facts)
	case field == "move.player":
		return permissionDenied(ReasonNotYourSeat, "the seat pass is for seat "+strconv.Itoa(int(seat))+": "+field+" must be "+
			strconv.Itoa(int(seat)), facts)
	}
	return permissionDenied(ReasonNotYourSeat, "the seat pass is for seat "+strconv.Itoa(int(seat))+": "+field+" must be "+
		strconv.Itoa(int(seat))+" or 0", facts)
}

// unknownGame is the NOT_FOUND error for a game id the service does not host.
func unknownGame(id string) error {
	return refusal.New(codes.NotFound, ReasonUnknownGame, "unknown game "+strconv.Quote(id)+"; ListGames lists the hosted games",
		map[string]string{"game": id})
}
