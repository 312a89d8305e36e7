package enginetest

import (
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
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

// PreviousForms checks a game's reader of the private form in which the tokens of an earlier release held its states
// (engine.PreviousForm), on the fixtures in the file at path: lines "seed plies options hex", and lines starting with
// '#'. Each holds the held form (hex, engine.PrivateForm first, as such a token held it) of the state of a game set up
// with options (GameOptions' JSON) and seed, then played for at most plies plies, ply i playing move 7*i (modulo their
// number) of the legal moves of whoever may move, until the game is over. It fails t unless g opens each held form to
// that state, and returns the held forms, for the seeds of FuzzPreviousForm.
func PreviousForms(t testing.TB, g engine.Game, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var forms [][]byte
	for line := range strings.Lines(string(data)) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		var seed uint64
		var plies int
		var options, hexForm string
		if _, err := fmt.Sscan(line, &seed, &plies, &options, &hexForm); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		held, err := hex.DecodeString(hexForm)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		want, err := playedTo(g, options, seed, plies)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		p, err := g.Open(held)
		if err != nil {
			t.Fatalf("%s: Open refuses it: %v", hexForm, err)
		}
		if d := diff(want.Encode(), p.Encode()); d != "" {
			t.Errorf("%d %d %s: Open gives another state: %s", seed, plies, options, d)
		}
		forms = append(forms, held)
	}
	if len(forms) == 0 {
		t.Fatalf("%s holds no fixture", path)
	}
	return forms
}

// playedTo returns the state of a fixture of PreviousForms: a game of g with options (in JSON) and seed, after at most
// plies plies.
func playedTo(g engine.Game, options string, seed uint64, plies int) (engine.Position, error) {
	o := &rulebookv1.GameOptions{}
	if err := protojson.Unmarshal([]byte(options), o); err != nil {
		return nil, err
	}
	p, err := g.New(o, seed)
	for ply := 0; err == nil && ply < plies && !p.Score().GetGameOver(); ply++ {
		var legal []*rulebookv1.Move
		if legal, err = p.Legal(engine.NoPlayer); err == nil && len(legal) > 0 {
			p, _, err = p.Apply(legal[ply*7%len(legal)])
		}
	}
	return p, err
}

// FuzzPreviousForm is the body of a game's fuzz target of Open, on the bytes after engine.PrivateForm in the held
// forms of seeds (see PreviousForms): Open never panics on arbitrary bytes, read as such a form or as the wire form
// of a state, and a position it accepts opens again from its held form as the same position.
func FuzzPreviousForm(f *testing.F, g engine.Game, seeds [][]byte) {
	for _, held := range seeds {
		f.Add(held[1:])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, held := range [][]byte{append([]byte{engine.PrivateForm}, b...), b} {
			p, err := g.Open(held)
			if err != nil {
				continue
			}
			again, _, err := p.Held(engine.NoPlayer)
			if err == nil {
				var back engine.Position
				if back, err = g.Open(again); err == nil && !proto.Equal(back.Encode(), p.Encode()) {
					err = fmt.Errorf("another state: %v", back.Encode())
				}
			}
			if err != nil {
				t.Fatalf("% x opens, but not again from its held form: %v", held, err)
			}
		}
	})
}
