package exploze

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"
)

// TestPackRoundTrip plays seeded random games on boards of several sizes and checks at every ply that the private
// form of the state unpacks to the same state.
func TestPackRoundTrip(t *testing.T) {
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

// FuzzUnpack unpacks arbitrary bytes as the private form of a state: it must never panic, and a state it accepts
// must pack and unpack to itself and decode from its message.
func FuzzUnpack(f *testing.F) {
	f.Add(definition{}.PackState(nil, newGame(f, DefaultOptions())))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := definition{}.UnpackState(b)
		if err != nil {
			return
		}
		back, err := definition{}.UnpackState(definition{}.PackState(nil, s))
		if err != nil || !proto.Equal(back.Proto(), s.Proto()) {
			t.Fatalf("round trip of %v: %v, %v", s, back, err)
		}
		if _, err := FromProto(s.Proto()); err != nil {
			t.Fatalf("the message of an unpacked state does not decode: %v", err)
		}
	})
}

// BenchmarkUnpack unpacks and packs the private form of each benchmark position, as the service does with a token's
// state; BenchmarkFromProto is the same work on the state's message.
func BenchmarkUnpack(b *testing.B) {
	for _, p := range benchPositions(b) {
		packed := definition{}.PackState(nil, p.s)
		b.Run(p.name, func(b *testing.B) {
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
