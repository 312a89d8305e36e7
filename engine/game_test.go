package engine_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// plainGame is a Game that is not Seated, Held or Wired: SeatsOf, ApplyFor, Pack, ApplyHeld, ApplyWire and
// ApplyHeldWire fall back on its other methods.
type plainGame struct{ engine.Game }

// TestSeatedAgreesWithTheFallback checks that SeatsOf and ApplyFor answer a Seated game (Micropul, whose views and
// events hide tiles) as they answer the same game without its Seated methods, for a spectator and each seat, and
// refuse the same way.
func TestSeatedAgreesWithTheFallback(t *testing.T) {
	seated, plain := micropul.Game{}, plainGame{micropul.Game{}}
	state, err := seated.New(nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	for ply := range 12 {
		n, err := engine.SeatsOf(seated, state)
		if m, plainErr := engine.SeatsOf(plain, state); n != m || err != nil || plainErr != nil {
			t.Fatalf("ply %d: SeatsOf = %d, %v; without Seated %d, %v", ply, n, err, m, plainErr)
		}
		legal, err := seated.Legal(state, engine.NoPlayer)
		if err != nil || len(legal) == 0 {
			t.Fatalf("ply %d: Legal = %v, %v", ply, legal, err)
		}
		move := legal[ply%len(legal)]
		for seat := engine.NoPlayer; int(seat) <= n; seat++ {
			got, err := engine.ApplyFor(seated, state, move, seat)
			want, wantErr := engine.ApplyFor(plain, state, move, seat)
			if err != nil || wantErr != nil {
				t.Fatalf("ply %d, seat %d: ApplyFor: %v; without Seated: %v", ply, seat, err, wantErr)
			}
			if !sameApplied(got, want) {
				t.Errorf("ply %d, seat %d: ApplyFor = %v, without Seated %v", ply, seat, got, want)
			}
		}
		if state, _, err = seated.Apply(state, move); err != nil {
			t.Fatal(err)
		}
	}
	_, err = engine.ApplyFor(seated, state, nil, 9)
	_, plainErr := engine.ApplyFor(plain, state, nil, 9)
	if e, ok := engine.AsError(err); !ok || e.Reason != "GAME_MISMATCH" || plainErr == nil || err.Error() != plainErr.Error() {
		t.Errorf("ApplyFor of no move = %v; without Seated %v; want the same GAME_MISMATCH", err, plainErr)
	}
}

// sameApplied reports whether a and b hold equal messages.
func sameApplied(a, b engine.Applied) bool {
	equal := func(x, y []*rulebookv1.Event) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !proto.Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return proto.Equal(a.State, b.State) && proto.Equal(a.View, b.View) && equal(a.Events, b.Events) &&
		equal(a.SeenEvents, b.SeenEvents)
}

// TestWiredAgreesWithTheFallback checks that ApplyWire and ApplyHeldWire answer a game whose Definition writes its
// own wire forms (Exploze and Micropul are WireEncoders) with the bytes they give for the same game without its Wired
// methods (protobuf's encoding of the messages), for every seat and a spectator, along a dozen plies.
func TestWiredAgreesWithTheFallback(t *testing.T) {
	for _, wired := range []engine.Game{exploze.Game{}, micropul.Game{}} {
		t.Run(wired.Info().GetId(), func(t *testing.T) {
			plain := plainGame{wired}
			state, err := wired.New(nil, 7)
			if err != nil {
				t.Fatal(err)
			}
			for ply := range 12 {
				legal, err := wired.Legal(state, engine.NoPlayer)
				if err != nil || len(legal) == 0 {
					t.Fatalf("ply %d: Legal = %v, %v", ply, legal, err)
				}
				move := legal[ply%len(legal)]
				got, _, err := engine.ApplyWire(wired, state, move)
				want, _, wantErr := engine.ApplyWire(plain, state, move)
				if err != nil || wantErr != nil || !bytes.Equal(got, want) {
					t.Fatalf("ply %d: ApplyWire = % x, %v; without Wired % x, %v", ply, got, err, want, wantErr)
				}
				held, err := engine.Pack(wired, state)
				if err != nil {
					t.Fatal(err)
				}
				plainHeld, err := engine.Pack(plain, state)
				if err != nil {
					t.Fatal(err)
				}
				n, err := engine.SeatsOf(wired, state)
				if err != nil {
					t.Fatal(err)
				}
				for seat := engine.NoPlayer; int(seat) <= n; seat++ {
					a, err := engine.ApplyHeldWire(wired, held, move, seat)
					b, plainErr := engine.ApplyHeldWire(plain, plainHeld, move, seat)
					if err != nil || plainErr != nil {
						t.Fatalf("ply %d, seat %d: ApplyHeldWire: %v; without Wired: %v", ply, seat, err, plainErr)
					}
					if a.View != nil || b.View != nil || !bytes.Equal(a.ViewWire, b.ViewWire) || !sameApplied(a, b) {
						t.Fatalf("ply %d, seat %d: ApplyHeldWire = %v; without Wired %v", ply, seat, a, b)
					}
				}
				if state, _, err = wired.Apply(state, move); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
