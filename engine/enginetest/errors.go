package enginetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// CheckError fails t unless err is a well-formed refusal from an engine: an *engine.Error (possibly wrapped) of
// Kind Invalid or Illegal, with an UPPER_SNAKE_CASE Reason, a non-empty Message and lowerCamelCase fact names. A nil
// err fails too. Engine tests call it on each error they provoke, before looking at its reason.
func CheckError(t testing.TB, err error) {
	t.Helper()
	if bad := errorProblem(err); bad != nil {
		t.Error(bad)
	}
}

// errorProblem returns what is wrong with err as an engine refusal, or nil.
func errorProblem(err error) error {
	if err == nil {
		return errors.New("no error where an *engine.Error was expected")
	}
	e, ok := engine.AsError(err)
	switch {
	case !ok:
		return fmt.Errorf("error %q is a %T, not an *engine.Error", err, err)
	case e.Kind != engine.Invalid && e.Kind != engine.Illegal:
		return fmt.Errorf("error %q has kind %v, neither Invalid nor Illegal", err, e.Kind)
	case !upperSnake(e.Reason):
		return fmt.Errorf("error %q has reason %q, not in UPPER_SNAKE_CASE", err, e.Reason)
	case e.Message == "":
		return fmt.Errorf("error %s has no message", e.Reason)
	}
	for name := range e.Facts {
		if !lowerCamel(name) {
			return fmt.Errorf("error %s has a fact named %q, not in lowerCamelCase", e.Reason, name)
		}
	}
	return nil
}

// upperSnake reports whether s is in UPPER_SNAKE_CASE: words of capitals and digits joined by single underscores,
// starting with a capital.
func upperSnake(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' || c == '_':
			if i == 0 || c == '_' && (s[i-1] == '_' || i == len(s)-1) {
				return false
			}
		default:
			return false
		}
	}
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// lowerCamel reports whether s is in lowerCamelCase: a small letter, then letters and digits.
func lowerCamel(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || i > 0 && ('A' <= c && c <= 'Z' || '0' <= c && c <= '9')) {
			return false
		}
	}
	return s != ""
}
