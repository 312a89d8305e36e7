package micropul

import (
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestViewsRevealNothing checks along seeded games that no view's message holds a fact its viewer may not know: no
// core, no supply contents, no other hand; only counts. Views decode, are refused as moves' states, and events
// shown to a viewer hold no drawn ids and no other player's taken tile.
func TestViewsRevealNothing(t *testing.T) {
	for _, opts := range []Options{DefaultOptions(), {Players: 1}} {
		s := newGame(t, opts, 11)
		for ply := 0; !s.Over() && ply < 120; ply++ {
			for viewer := engine.Player(0); int(viewer) <= opts.Players; viewer++ {
				m := s.View(viewer).Proto()
				if !m.GetIsView() || m.GetViewer() != int32(viewer) || len(m.GetCore()) > 0 ||
					m.GetCoreCount() != uint32(s.CoreCount()) {
					t.Fatalf("view of %d: core %v, count %d, is_view %v", viewer, m.GetCore(), m.GetCoreCount(), m.GetIsView())
				}
				for i, p := range m.GetPlayers() {
					own := engine.Player(i+1) == viewer
					if len(p.GetSupply()) > 0 || !own && len(p.GetHand()) > 0 || own && len(p.GetHand()) != int(p.GetHandCount()) {
						t.Fatalf("view of %d shows player %d: %v", viewer, i+1, p)
					}
				}
				v, err := FromProto(m)
				if err != nil {
					t.Fatalf("view of %d does not decode: %v", viewer, err)
				}
				_, err = Game{}.Legal(&rulebookv1.GameState{Game: &rulebookv1.GameState_Micropul{Micropul: m}}, 0)
				wantError(t, err, engine.Invalid, ReasonStateIsView, "state.micropul.isView")
				if v.Score().Players[0].Total != s.Score().Players[0].Total {
					t.Fatalf("a view scores differently")
				}
			}
			legal := s.Legal(s.ToMove())
			next, events := apply(t, s, legal[(ply*31)%len(legal)])
			for viewer := engine.Player(0); int(viewer) <= opts.Players; viewer++ {
				for _, e := range ViewEvents(events, viewer) {
					switch e := e.(type) {
					case TilesDrawn:
						if len(e.Tiles) > 0 || !e.Hidden {
							t.Fatalf("viewer %d sees drawn tiles %v", viewer, e.Tiles)
						}
					case TileTaken:
						if e.Player != viewer && (!e.Hidden || e.Tile != 0) {
							t.Fatalf("viewer %d sees player %d's taken tile", viewer, e.Player)
						}
					}
				}
			}
			s = next
		}
	}
	enginetest.CheckError(t, (&State{view: true}).checkShape(Move{}))
	if !slices.Equal(ViewEvents([]Event{TileTaken{Player: 1, Tile: 5}}, 1), []Event{TileTaken{Player: 1, Tile: 5}}) {
		t.Error("the owner does not see the tile taken")
	}
}
