package exploze

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestStateForms plays seeded random games on boards of several sizes and checks at every ply that the private form
// of the state unpacks to the same state.
func TestStateForms(t *testing.T) {
	for _, opts := range []Options{{Rows: 2, Cols: 2, Players: 2}, {Rows: 3, Cols: 5, Players: 3}, DefaultOptions(),
		{Rows: 8, Cols: 8, Players: 8}, {Rows: 32, Cols: 32, Players: 2}} {
		rng := rand.New(rand.NewPCG(7, uint64(opts.Rows*opts.Cols)))
		s := newGame(t, opts)
		for ply := 0; ply < 400 && !s.Over(); ply++ {
			packed := definition{}.PackState(nil, s)
			back, err := definition{}.UnpackState(packed)
			if err != nil {
				t.Fatalf("%dx%d ply %d: %v", opts.Rows, opts.Cols, ply, err)
			}
			if !proto.Equal(back.Proto(), s.Proto()) {
				t.Fatalf("%dx%d ply %d: unpacked %v, want %v", opts.Rows, opts.Cols, ply, back, s)
			}
			legal := s.Legal(s.ToMove())
			s, _ = play(t, s, coordOf(legal[rng.IntN(len(legal))]))
		}
	}
}

// TestUnpackRefuses checks that bytes PackState did not make are an error.
func TestUnpackRefuses(t *testing.T) {
	start := definition{}.PackState(nil, newGame(t, Options{Rows: 2, Cols: 2, Players: 2}))
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"other version", append([]byte{packVersion + 1}, start[1:]...)},
		{"header cut short", start[:3]},
		{"cells cut short", start[:len(start)-1]},
		{"bytes left over", append(append([]byte{}, start...), 0)},
		{"no rows", []byte{packVersion, 0, 2, 2, 0, 1, 0, 0, 0, 0}},
		{"rows above the largest board", []byte{packVersion, MaxSize + 1, 2, 2, 0, 1}},
		{"varint too long", []byte{packVersion, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
		{"a stone without an owner", []byte{packVersion, 2, 2, 2, 1, 2, cellBase, 0, 0, 0}},
		{"an owner out of range", []byte{packVersion, 2, 2, 2, 1, 2, cellBase + 5, 0, 0, 0}},
	} {
		if s, err := (definition{}).UnpackState(c.b); err == nil {
			t.Errorf("%s: unpacked % x to %v", c.name, c.b, s)
		}
	}
}

// FuzzUnpack unpacks arbitrary bytes as the private form of a state (enginetest.FuzzUnpack).
func FuzzUnpack(f *testing.F) {
	enginetest.FuzzUnpack(f, definition{}, FromProto, newGame(f, DefaultOptions()))
}

// BenchmarkHeldForm reads a benchmark position's state from the bytes a token holds and writes it back, as the
// service does on every ApplyMove of a token: form=packed from its private form, and form=wire (the baseline, in the
// same run) from the wire form of its message, as tokens held it before.
func BenchmarkHeldForm(b *testing.B) {
	for _, p := range benchPositions(b) {
		packed := definition{}.PackState(nil, p.s)
		wire, err := proto.MarshalOptions{Deterministic: true}.Marshal(p.s.Proto())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p.name+"/form=wire", func(b *testing.B) {
			for b.Loop() {
				m := &rulebookv1.ExplozeState{}
				if err := proto.Unmarshal(wire, m); err != nil {
					b.Fatal(err)
				}
				s, err := FromProto(m)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := (proto.MarshalOptions{Deterministic: true}).Marshal(s.Proto()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(p.name+"/form=packed", func(b *testing.B) {
			for b.Loop() {
				s, err := definition{}.UnpackState(packed)
				if err != nil {
					b.Fatal(err)
				}
				definition{}.PackState(nil, s)
			}
		})
	}
}
