package enginetest

import (
	"fmt"
	"reflect"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
)

// redeals is how many times the view and seat checks re-deal a state for each viewer.
const redeals = 2

// redealSeed returns the seed of viewer's k-th re-deal of a state.
func redealSeed(viewer engine.Player, k uint64) uint64 { return uint64(viewer)<<32 | k }

// checkViews fails if View or Redeal changes its input, if a re-dealt state fails Check, or if a viewer's view of the
// probed state changes when what that viewer may not see is dealt anew (NoPlayer, the spectator, included). It
// returns how many re-deals changed the state, so that the suite can tell a check that proved nothing.
//
// It also marks in varied each of h.Secrets that some re-deal changed.
func (h *Harness[S, M]) checkViews(p *probe[S, M], varied []bool) (changed int, err error) {
	for _, viewer := range h.viewers(p.state) {
		view := proto.Clone(h.Encode(h.View(p.state, viewer)))
		if d := diff(p.snapshot, h.Encode(p.state)); d != "" {
			return changed, fmt.Errorf("View(s, %d) changed s: %s", viewer, d)
		}
		if h.Redeal == nil {
			continue
		}
		for k := range uint64(redeals) {
			seed := redealSeed(viewer, k)
			dealt := h.Redeal(p.state, viewer, seed)
			if !proto.Equal(p.snapshot, h.Encode(dealt)) {
				changed++
			}
			for i, secret := range h.Secrets {
				varied[i] = varied[i] || !reflect.DeepEqual(secret.Of(p.state), secret.Of(dealt))
			}
			if h.Check != nil {
				if err := h.Check(dealt); err != nil {
					return changed, fmt.Errorf("Redeal(s, %d, %d) fails Check: %v", viewer, seed, err)
				}
			}
			if d := diff(view, h.Encode(h.View(dealt, viewer))); d != "" {
				return changed, fmt.Errorf("View(s, %d) shows what viewer %d may not see: after Redeal(s, %d, %d) %s",
					viewer, viewer, viewer, seed, d)
			}
		}
	}
	if d := diff(p.snapshot, h.Encode(p.state)); d != "" {
		return changed, fmt.Errorf("Redeal changed its input: %s", d)
	}
	return changed, nil
}
