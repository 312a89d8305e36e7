package seal

import "errors"

// Reason codes of an [*Error]. They are stable: clients may switch on them.
const (
	// ReasonTokenMalformed: the token is not in a token format (prefix, key id, base64, too short to hold a nonce,
	// a table and a tag).
	ReasonTokenMalformed = "TOKEN_MALFORMED"
	// ReasonTokenTooLarge: the token is longer than MaxTokenBytes.
	ReasonTokenTooLarge = "TOKEN_TOO_LARGE"
	// ReasonTokenUnknownKey: the token is well formed but names a key id the keyring does not hold (a key retired,
	// or a token of another service).
	ReasonTokenUnknownKey = "TOKEN_UNKNOWN_KEY"
	// ReasonTokenInvalid: the token failed authentication: altered, truncated, sealed for another game, or sealed
	// under another key with the same id.
	ReasonTokenInvalid = "TOKEN_INVALID"
	// ReasonTokenScope: the token is authentic, but of ScopePlain (sealed for a caller that may choose any board),
	// and it was opened by a caller that holds only tokens, on a server not told to take such tokens from it.
	ReasonTokenScope = "TOKEN_SCOPE_REFUSED"
	// ReasonTokenVersionUnsupported: the token's prefix names a format this build does not know (a newer build's,
	// during a rolling update). The service gives it too for an authentic token whose state this build cannot read,
	// or that breaks this build's rules (a token sealed under other rules).
	ReasonTokenVersionUnsupported = "TOKEN_VERSION_UNSUPPORTED"
	// ReasonStateTooLarge: Seal was given a state longer than MaxStateBytes. It is the sealer's fault, not a
	// token holder's.
	ReasonStateTooLarge = "STATE_TOO_LARGE"
	// ReasonSeatPassMalformed: the seat pass is not in the seat pass format, or its seat is not in 1..MaxSeat.
	ReasonSeatPassMalformed = "SEAT_PASS_MALFORMED"
	// ReasonSeatPassInvalid: the seat pass is well formed but was not made for this table, game and seat.
	ReasonSeatPassInvalid = "SEAT_PASS_INVALID"
)

// Error is the refusal of a token or a seat pass (or of a state too large to seal). Use errors.As to get at it, or
// errors.Is with an *Error of the same Reason.
type Error struct {
	// Reason is one of the Reason constants.
	Reason string
}

// Error returns a short, fixed sentence for the reason; it never holds any part of the token, pass or key.
func (e *Error) Error() string {
	switch e.Reason {
	case ReasonTokenMalformed:
		return "malformed state token"
	case ReasonTokenTooLarge:
		return "state token too large"
	case ReasonTokenUnknownKey:
		return "state token sealed under a key this service does not hold"
	case ReasonTokenInvalid:
		return "state token is not authentic"
	case ReasonTokenScope:
		return "state token sealed for a caller that may choose any board"
	case ReasonTokenVersionUnsupported:
		return "state token of a format or rules version this service does not read"
	case ReasonStateTooLarge:
		return "state too large to seal"
	case ReasonSeatPassMalformed:
		return "malformed seat pass"
	case ReasonSeatPassInvalid:
		return "seat pass is not valid"
	}
	return "seal error " + e.Reason
}

// Is reports whether target is an *Error with the same Reason, so that errors.Is(err, &Error{Reason: r}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Reason == e.Reason
}

// Reason returns the Reason of the *Error in err's chain, or "" if there is none.
func Reason(err error) string {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Reason
	}
	return ""
}

// fail returns the *Error for reason.
func fail(reason string) error { return &Error{Reason: reason} }
