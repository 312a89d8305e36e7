package enginetest

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
)

// checkImmutable fails if a call changed the probed state, or if a state Apply returned changed afterwards (it
// shares memory that a later Apply on the same input wrote).
func (p *probe[S, M]) checkImmutable(h *Harness[S, M]) error {
	if p.mutated != "" {
		return fmt.Errorf("%s changed its input state", p.mutated)
	}
	for _, t := range p.tries {
		if t.nextWire == nil || bytes.Equal(t.nextWire, h.wire(t.next)) {
			continue
		}
		was := p.snapshot.ProtoReflect().New().Interface()
		if err := proto.Unmarshal(t.nextWire, was); err != nil {
			return fmt.Errorf("an encoded state does not unmarshal: %v", err)
		}
		if d := diff(was, h.Encode(t.next)); d != "" {
			return fmt.Errorf("the state made by Apply(%+v) changed after other moves were applied to its input: %s",
				t.move, d)
		}
	}
	return nil
}

// checkValidateAgrees fails if Validate and Apply disagree on a move: one refuses it and the other not, or they
// refuse it with different errors.
func (p *probe[S, M]) checkValidateAgrees() error {
	for _, t := range p.tries {
		v, a := t.validateErr, t.applyErr
		switch {
		case v == nil && a == nil:
		case v == nil:
			return fmt.Errorf("%+v: Validate accepts it but Apply refuses it: %s", t.move, describe(a))
		case a == nil:
			return fmt.Errorf("%+v: Apply accepts it but Validate refuses it: %s", t.move, describe(v))
		case !sameRefusal(v, a):
			return fmt.Errorf("%+v: Validate says %s but Apply says %s", t.move, describe(v), describe(a))
		}
	}
	return nil
}

// checkLegalApplies fails if a move of Legal does not validate or apply, or makes a state that fails Check.
func (p *probe[S, M]) checkLegalApplies(h *Harness[S, M]) error {
	for _, t := range p.tries {
		switch {
		case !t.legal:
		case t.validateErr != nil:
			return fmt.Errorf("legal move %+v does not validate: %s", t.move, describe(t.validateErr))
		case t.applyErr != nil:
			return fmt.Errorf("legal move %+v does not apply: %s", t.move, describe(t.applyErr))
		case h.Check != nil:
			if err := h.Check(t.next); err != nil {
				return fmt.Errorf("legal move %+v makes a state that fails Check: %v", t.move, err)
			}
		}
	}
	return nil
}

// checkLegalComplete fails if a candidate validates but is not in Legal.
func (p *probe[S, M]) checkLegalComplete() error {
	for _, t := range p.tries {
		if t.candidate && !t.legal && t.validateErr == nil {
			return fmt.Errorf("%+v validates but Legal does not list it", t.move)
		}
	}
	return nil
}

// checkLegalStable fails if two calls of Legal differ, or if Legal lists a move twice.
func (p *probe[S, M]) checkLegalStable() error {
	if !slices.Equal(p.keys, p.again) {
		return fmt.Errorf("two calls of Legal differ: %d moves, then %d (or another order)", len(p.keys), len(p.again))
	}
	seen := map[string]bool{}
	for i, k := range p.keys {
		if seen[k] {
			return fmt.Errorf("Legal lists %+v twice", p.legal[i])
		}
		seen[k] = true
	}
	return nil
}

// checkGameOver fails if the state is over with legal moves, not over without any, or over with a candidate that
// Validate or Apply accepts.
func (p *probe[S, M]) checkGameOver() error {
	switch {
	case !p.over && len(p.legal) == 0:
		return fmt.Errorf("the game is not over but Legal is empty")
	case !p.over:
		return nil
	case len(p.legal) > 0:
		return fmt.Errorf("the game is over but Legal lists %d moves, such as %+v", len(p.legal), p.legal[0])
	}
	for _, t := range p.tries {
		if t.validateErr == nil || t.applyErr == nil {
			return fmt.Errorf("the game is over but %+v is accepted (Validate: %s; Apply: %s)", t.move,
				describe(t.validateErr), describe(t.applyErr))
		}
	}
	return nil
}

// checkErrors fails if Validate or Apply refused a move with an error that CheckError would not pass.
func (p *probe[S, M]) checkErrors() error {
	for _, t := range p.tries {
		for _, err := range []error{t.validateErr, t.applyErr} {
			if err == nil {
				continue
			}
			if bad := errorProblem(err); bad != nil {
				return fmt.Errorf("%+v: %v", t.move, bad)
			}
		}
	}
	return nil
}

// checkRoundTrip fails if the probed state does not survive Encode then Decode, directly and through wire bytes,
// unchanged and with the same legal moves.
func (h *Harness[S, M]) checkRoundTrip(p *probe[S, M]) error {
	decoded, err := h.Decode(proto.Clone(p.snapshot))
	if err != nil {
		return fmt.Errorf("Decode refuses an encoded state: %s", describe(err))
	}
	if d := diff(p.snapshot, h.Encode(decoded)); d != "" {
		return fmt.Errorf("Decode(Encode(s)) differs from s: %s", d)
	}
	if keys := h.moveKeys(h.Legal(decoded)); !slices.Equal(keys, p.keys) {
		return fmt.Errorf("Decode(Encode(s)) has other legal moves than s: %d instead of %d (or another order)",
			len(keys), len(p.keys))
	}
	wire, err := proto.Marshal(p.snapshot)
	if err != nil {
		return fmt.Errorf("the encoded state does not marshal: %v", err)
	}
	m := p.snapshot.ProtoReflect().New().Interface()
	if err := proto.Unmarshal(wire, m); err != nil {
		return fmt.Errorf("the marshalled state does not unmarshal: %v", err)
	}
	if decoded, err = h.Decode(m); err != nil {
		return fmt.Errorf("Decode refuses a state read from wire bytes: %s", describe(err))
	}
	if d := diff(p.snapshot, h.Encode(decoded)); d != "" {
		return fmt.Errorf("the state read from wire bytes differs from s: %s", d)
	}
	return nil
}

// sameRefusal reports whether a and b are the same answer: both nil, equal *engine.Error values, or other errors
// with the same text.
func sameRefusal(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	ae, aok := engine.AsError(a)
	be, bok := engine.AsError(b)
	if !aok || !bok {
		return aok == bok && a.Error() == b.Error()
	}
	return ae.Kind == be.Kind && ae.Reason == be.Reason && ae.Message == be.Message && ae.Field == be.Field &&
		maps.Equal(ae.Facts, be.Facts)
}

// describe formats an error with its reason and kind when it is an *engine.Error, and nil as "ok".
func describe(err error) string {
	if err == nil {
		return "ok"
	}
	if e, ok := engine.AsError(err); ok {
		return fmt.Sprintf("%s %s %q (field %q, facts %v)", e.Kind, e.Reason, e.Message, e.Field, e.Facts)
	}
	return fmt.Sprintf("%T %q", err, err.Error())
}

// diff returns "" when a and b are equal messages, else the first line of their text forms that differs.
func diff(a, b proto.Message) string {
	if proto.Equal(a, b) {
		return ""
	}
	text := prototext.MarshalOptions{Multiline: true}
	al := strings.Split(text.Format(a), "\n")
	bl := strings.Split(text.Format(b), "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = strings.TrimSpace(al[i])
		}
		if i < len(bl) {
			y = strings.TrimSpace(bl[i])
		}
		if x != y {
			return fmt.Sprintf("line %d of the text form: %q, then %q", i+1, x, y)
		}
	}
	return "the messages differ but their text forms do not"
}
