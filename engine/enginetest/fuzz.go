package enginetest

import (
	"testing"

	"github.com/rulebook/rulebook/engine"
	"google.golang.org/protobuf/proto"
)

// Codec converts a game's typed state S to and from its protobuf message M, for the fuzz helpers: Encode as the
// state's Proto method, Decode as the game's FromProto, which checks everything it reads.
type Codec[S any, M proto.Message] struct {
	Encode func(s S) M
	Decode func(m M) (S, error)
}

// decodes returns the error, if any, of decoding s's message again.
func (c Codec[S, M]) decodes(s S) error {
	_, err := c.Decode(c.Encode(s))
	return err
}

// FuzzDecode is the body of a game's fuzz target of its state decoder (FuzzFromProto). It adds each message of
// corpus to the seed inputs, as wire bytes (the target's testdata/fuzz corpus is added by go test itself), then
// unmarshals each input into a new M and decodes it: a refusal must be a well-formed *engine.Error (CheckError); a
// state Decode accepts must survive a round trip (decoding its message again gives an equal message) and pass works,
// the game's own checks of a working state (its legal moves apply, its views decode, ...).
func FuzzDecode[S any, M proto.Message](f *testing.F, c Codec[S, M], corpus []M, works func(t *testing.T, s S)) {
	f.Helper()
	for _, m := range corpus {
		wire, err := proto.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(wire)
	}
	var zero M
	f.Fuzz(func(t *testing.T, wire []byte) {
		m := zero.ProtoReflect().Type().New().Interface().(M)
		if err := proto.Unmarshal(wire, m); err != nil {
			return
		}
		s, err := c.Decode(m)
		if err != nil {
			CheckError(t, err)
			return
		}
		back, err := c.Decode(c.Encode(s))
		if err != nil || !proto.Equal(c.Encode(back), c.Encode(s)) {
			t.Fatalf("round trip of %v: %v", s, err)
		}
		works(t, s)
	})
}

// CheckMovesApply fails t unless each of moves applies to s (with apply, the game's Apply) and makes a state that
// decodes again.
func CheckMovesApply[S any, M proto.Message, Mv, E any](t *testing.T, c Codec[S, M], s S, moves []Mv,
	apply func(S, Mv) (S, []E, error)) {
	t.Helper()
	for _, mv := range moves {
		next, _, err := apply(s, mv)
		if err != nil {
			t.Fatalf("move %v refused: %v\n%v", mv, err, s)
		}
		if err := c.decodes(next); err != nil {
			t.Fatalf("after %v the state does not decode: %v\n%v", mv, err, next)
		}
	}
}

// CheckApply is the end of a game's fuzz target of Apply (FuzzApply), once the input has made a state s and a move
// m: Apply must agree with Validate (both accept m or both refuse it), leave s unchanged, and return either a
// well-formed *engine.Error (CheckError) or a state that decodes again. It returns the events of an accepted move,
// and whether m was accepted.
func CheckApply[S any, M proto.Message, Mv, E any](t *testing.T, c Codec[S, M], s S, m Mv, validate func(S, Mv) error,
	apply func(S, Mv) (S, []E, error)) ([]E, bool) {
	t.Helper()
	before := c.Encode(s)
	next, events, err := apply(s, m)
	if verr := validate(s, m); (verr == nil) != (err == nil) {
		t.Fatalf("Validate(%v) = %v but Apply returned %v", m, verr, err)
	}
	if !proto.Equal(before, c.Encode(s)) {
		t.Fatalf("Apply(%v) changed its input", m)
	}
	if err != nil {
		CheckError(t, err)
		return nil, false
	}
	if err := c.decodes(next); err != nil {
		t.Fatalf("after %v the state does not decode: %v\n%v", m, err, next)
	}
	return events, true
}

// FuzzUnpack fuzzes a game's private form of its states (see engine.Packer): UnpackState never panics on arbitrary
// bytes, and a state it accepts packs and unpacks to itself, and its message decodes with decode. The private forms
// of seeds are the seed corpus.
func FuzzUnpack[S engine.Proto[P], P proto.Message](f *testing.F, p engine.Packer[S], decode func(P) (S, error),
	seeds ...S) {
	for _, s := range seeds {
		f.Add(p.PackState(nil, s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := p.UnpackState(b)
		if err != nil {
			return
		}
		back, err := p.UnpackState(p.PackState(nil, s))
		if err != nil || !proto.Equal(back.Proto(), s.Proto()) {
			t.Fatalf("round trip of %v: %v, %v", s, back, err)
		}
		if _, err := decode(s.Proto()); err != nil {
			t.Fatalf("the message of an unpacked state does not decode: %v", err)
		}
	})
}
