// Package explain words the refusals of rulebook's service for a person at a terminal: the ErrorInfo reason of a
// refused move turned into a sentence with its facts, squares named as the move notation names them
// (engine.Square), such as "c3 holds player 2's stones: you may only add to your own cells or an
// empty one." A reason it has no sentence for is told by the server's own message.
package explain

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine"
)

// Refusal returns err, the refusal of a call about game, as a sentence for people ending in a full stop. For a
// gRPC status with an ErrorInfo whose reason the game (or the service) has a sentence for, it is that sentence with
// the status's facts; otherwise the status's message. An error that is no status is its own text.
func Refusal(game string, err error) string {
	st, ok := status.FromError(err)
	if !ok {
		return sentence(err.Error())
	}
	for _, d := range st.Details() {
		info, ok := d.(*errdetails.ErrorInfo)
		if !ok {
			continue
		}
		f := facts(info.GetMetadata())
		if say, ok := sentences[game][info.GetReason()]; ok {
			if text, err := say(f); err == nil {
				return sentence(text)
			}
		}
		if say, ok := common[info.GetReason()]; ok {
			if text, err := say(f); err == nil {
				return sentence(text)
			}
		}
	}
	return sentence(st.Message())
}

// squareFirst matches a text that starts with the name of a square, which keeps its lower case.
var squareFirst = regexp.MustCompile(`^[a-z]{1,2}[0-9]+\b`)

// sentence returns text with a capital first letter (unless it starts with a square's name, such as c3) and a full
// stop at its end.
func sentence(text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return "The server refused without saying why."
	}
	if !squareFirst.MatchString(text) {
		text = strings.ToUpper(text[:1]) + text[1:]
	}
	if !strings.HasSuffix(text, ".") {
		text += "."
	}
	return text
}

// A wording turns the facts of a refusal into a sentence; it fails when a fact it needs is missing or malformed,
// and the refusal is then told by the server's message.
type wording func(f facts) (string, error)

// facts are the metadata of an ErrorInfo, read as the wordings need them.
type facts map[string]string

// errFact is the error of a fact that is missing or malformed.
var errFact = errors.New("a fact is missing or malformed")

// text returns fact key, which must be there.
func (f facts) text(key string) (string, error) {
	v, ok := f[key]
	if !ok || v == "" {
		return "", errFact
	}
	return v, nil
}

// number returns fact key as a number.
func (f facts) number(key string) (int, error) {
	n, err := strconv.Atoi(f[key])
	if err != nil {
		return 0, errFact
	}
	return n, nil
}

// square returns the name of the square whose column and row are the facts colKey and rowKey (from 0).
func (f facts) square(colKey, rowKey string) (string, error) {
	col, err := f.number(colKey)
	if err != nil {
		return "", err
	}
	row, err := f.number(rowKey)
	if err != nil {
		return "", err
	}
	return engine.Square(col, row), nil
}

// sayf returns a wording that formats the facts values gives.
func sayf(format string, values ...func(facts) (any, error)) wording {
	return func(f facts) (string, error) {
		args := make([]any, len(values))
		for i, v := range values {
			var err error
			if args[i], err = v(f); err != nil {
				return "", err
			}
		}
		return fmt.Sprintf(format, args...), nil
	}
}

// The values of the facts the wordings format.

// fact is the text of a fact.
func fact(key string) func(facts) (any, error) {
	return func(f facts) (any, error) { return f.text(key) }
}

// lowerFact is the text of a fact in lower case.
func lowerFact(key string) func(facts) (any, error) {
	return func(f facts) (any, error) {
		v, err := f.text(key)
		return strings.ToLower(v), err
	}
}

// square is the name of a square from the facts of its column and row.
func square(colKey, rowKey string) func(facts) (any, error) {
	return func(f facts) (any, error) { return f.square(colKey, rowKey) }
}

// position is a Micropul position "x,y" from the facts x and y.
func position(xKey, yKey string) func(facts) (any, error) {
	return func(f facts) (any, error) {
		x, err := f.number(xKey)
		if err != nil {
			return nil, err
		}
		y, err := f.number(yKey)
		return fmt.Sprintf("%d,%d", x, y), err
	}
}

// letters is a fact of letters ("ABD"), spelled out as "A, B and D".
func letters(key string) func(facts) (any, error) {
	return func(f facts) (any, error) {
		v, err := f.text(key)
		if err != nil {
			return nil, err
		}
		parts := strings.Split(v, "")
		if len(parts) == 1 {
			return parts[0], nil
		}
		return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1], nil
	}
}
