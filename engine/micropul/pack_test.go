package micropul

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// playedTo returns the state after plies seeded random plies of a game with opts (fewer if it ends first).
func playedTo(t testing.TB, opts Options, plies int) *State {
	s := newGame(t, opts, 3)
	rng := rand.New(rand.NewPCG(3, uint64(plies)))
	for range plies {
		legal := s.Legal(s.ToMove())
		if s.Over() || len(legal) == 0 {
			break
		}
		s, _ = apply(t, s, legal[rng.IntN(len(legal))])
	}
	return s
}

// TestPackRoundTrip checks that the private form of states of play, solo and two-player, unpacks to the same state.
func TestPackRoundTrip(t *testing.T) {
	for _, opts := range []Options{DefaultOptions(), {Players: 1}} {
		for _, plies := range []int{0, 1, 10, 30, 200} {
			s := playedTo(t, opts, plies)
			back, err := definition{}.UnpackState(definition{}.PackState(nil, s))
			if err != nil {
				t.Fatalf("%d players, %d plies: %v", opts.Players, plies, err)
			}
			if !proto.Equal(back.Proto(), s.Proto()) {
				t.Fatalf("%d players, %d plies: unpacked %v, want %v", opts.Players, plies, back, s)
			}
		}
	}
}

// TestUnpackRefuses checks that bytes PackState did not make are an error.
func TestUnpackRefuses(t *testing.T) {
	start := definition{}.PackState(nil, newGame(t, DefaultOptions(), 1))
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"other version", append([]byte{packVersion + 1}, start[1:]...)},
		{"cut short", start[:len(start)-1]},
		{"bytes left over", append(append([]byte{}, start...), 0)},
		{"header only", start[:8]},
		{"too many players", append([]byte{packVersion, MaxPlayers + 1}, start[2:]...)},
		{"a board longer than the tiles", []byte{packVersion, 2, 1, 1, 0, 0, 0, 0, NumTiles + 1}},
		{"a coordinate beyond int32", []byte{packVersion, 2, 1, 1, 0, 0, 0, 0, 1, 40,
			0xff, 0xff, 0xff, 0xff, 0x1f, 0, 0}},
	} {
		if s, err := (definition{}).UnpackState(c.b); err == nil {
			t.Errorf("%s: unpacked % x to %v", c.name, c.b, s)
		}
	}
}

// FuzzUnpack unpacks arbitrary bytes as the private form of a state (enginetest.FuzzUnpack).
func FuzzUnpack(f *testing.F) {
	enginetest.FuzzUnpack(f, definition{}, FromProto, newGame(f, DefaultOptions(), 1))
}

// BenchmarkHeldForm reads a mid-game state from the bytes a token holds and writes it back, as the service does on
// every ApplyMove of a token: form=packed from its private form, and form=wire (the baseline, in the same run) from
// the wire form of its message, as tokens held it before.
func BenchmarkHeldForm(b *testing.B) {
	s, _ := midGame(b)
	packed := definition{}.PackState(nil, s)
	wire, err := proto.MarshalOptions{Deterministic: true}.Marshal(s.Proto())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("form=wire", func(b *testing.B) {
		for b.Loop() {
			m := &rulebookv1.MicropulState{}
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
	b.Run("form=packed", func(b *testing.B) {
		for b.Loop() {
			s, err := definition{}.UnpackState(packed)
			if err != nil {
				b.Fatal(err)
			}
			definition{}.PackState(nil, s)
		}
	})
}
