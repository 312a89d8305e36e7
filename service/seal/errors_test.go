package seal

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestErrorMessages(t *testing.T) {
	reasons := []string{
		ReasonTokenMalformed, ReasonTokenTooLarge, ReasonTokenUnknownKey, ReasonTokenInvalid, ReasonTokenScope,
		ReasonTokenVersionUnsupported, ReasonStateTooLarge,
		ReasonSeatPassMalformed, ReasonSeatPassInvalid,
	}
	seen := make(map[string]string)
	for _, r := range reasons {
		if r != strings.ToUpper(r) || strings.ContainsAny(r, " -.") {
			t.Errorf("reason %q is not UPPER_SNAKE_CASE", r)
		}
		msg := (&Error{Reason: r}).Error()
		if msg == "" || strings.Contains(msg, r) {
			t.Errorf("reason %s: message %q is not a sentence of its own", r, msg)
		}
		if other, dup := seen[msg]; dup {
			t.Errorf("reasons %s and %s share the message %q", r, other, msg)
		}
		seen[msg] = r
	}
	if got := (&Error{Reason: "SOMETHING_NEW"}).Error(); !strings.Contains(got, "SOMETHING_NEW") {
		t.Errorf("unknown reason: message %q does not name it", got)
	}
}

func TestErrorAsIs(t *testing.T) {
	err := fmt.Errorf("opening: %w", fail(ReasonTokenInvalid))
	var e *Error
	if !errors.As(err, &e) || e.Reason != ReasonTokenInvalid {
		t.Fatalf("errors.As: %v", err)
	}
	if !errors.Is(err, &Error{Reason: ReasonTokenInvalid}) {
		t.Error("errors.Is with the same reason: false")
	}
	if errors.Is(err, &Error{Reason: ReasonTokenMalformed}) {
		t.Error("errors.Is with another reason: true")
	}
	if got := Reason(err); got != ReasonTokenInvalid {
		t.Errorf("Reason = %q", got)
	}
	if got := Reason(errors.New("other")); got != "" {
		t.Errorf("Reason of another error = %q", got)
	}
	if got := Reason(nil); got != "" {
		t.Errorf("Reason(nil) = %q", got)
	}
}
