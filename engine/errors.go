package engine

import (
	"errors"
	"fmt"
)

// Kind tells why an engine refused its input.
type Kind int

const (
	// Invalid input is malformed: it breaks the shape of a state or a move (a coordinate off the board, counts that
	// cannot occur in any game). The service answers it with INVALID_ARGUMENT.
	Invalid Kind = iota + 1
	// Illegal input is well formed but breaks a rule of the game (an opponent's cell, a move out of turn). The
	// service answers it with FAILED_PRECONDITION.
	Illegal
	// Internal is the engine's own failure on input that may well be valid: a broken invariant or a safety cap
	// reached (such as EXPLOSION_CAP_EXCEEDED in Exploze). It is a bug, never the caller's fault; the service answers
	// it with INTERNAL.
	Internal
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case Invalid:
		return "invalid"
	case Illegal:
		return "illegal"
	case Internal:
		return "internal"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is a typed refusal: a stable reason code, a sentence for people, and the facts behind it.
type Error struct {
	Kind Kind
	// Reason is a stable UPPER_SNAKE_CASE code, such as CELL_OWNED_BY_OPPONENT. Clients may switch on it.
	Reason string
	// Message is a human sentence naming the facts.
	Message string
	// Field is the path of the offending field inside the game's protobuf message, in protobuf JSON-path form
	// relative to the game's own message (for example "stones[3]"); empty when no single field is at fault.
	Field string
	// Facts are the details a client may act on (coordinates, players, counts), keyed by lowerCamelCase names.
	Facts map[string]string
}

// Error returns the human sentence.
func (e *Error) Error() string { return e.Message }

// Invalidf returns an Invalid error about field with the given reason and a formatted message.
func Invalidf(reason, field string, facts map[string]string, format string, args ...any) *Error {
	return &Error{Kind: Invalid, Reason: reason, Field: field, Facts: facts, Message: fmt.Sprintf(format, args...)}
}

// Illegalf returns an Illegal error with the given reason and a formatted message.
func Illegalf(reason string, facts map[string]string, format string, args ...any) *Error {
	return &Error{Kind: Illegal, Reason: reason, Facts: facts, Message: fmt.Sprintf(format, args...)}
}

// AsError returns the *Error inside err, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// WithinField returns err with its field placed under the message at path: an Invalid *Error about field f of that
// message becomes one about path.f, or about path itself when it named no field. Other errors come back unchanged.
// Engines use it to turn a field of their own message into a path of the service's request ("state.exploze.toMove").
func WithinField(err error, path string) error {
	e, ok := AsError(err)
	if !ok || e.Kind != Invalid {
		return err
	}
	moved := *e
	moved.Field = path
	if e.Field != "" {
		moved.Field = path + "." + e.Field
	}
	return &moved
}

// Internalf returns an Internal error with the given reason and a formatted message: the engine's own failure.
func Internalf(reason string, format string, args ...any) *Error {
	return &Error{Kind: Internal, Reason: reason, Message: fmt.Sprintf(format, args...)}
}
