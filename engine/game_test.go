package engine_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// plainGame is a Game that is not Seated: SeatsOf and ApplyFor fall back on its other methods.
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
