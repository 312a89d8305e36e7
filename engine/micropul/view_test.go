package micropul

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

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
				p, err := Spec.Decode(&rulebookv1.GameState{Game: &rulebookv1.GameState_Micropul{Micropul: m}})
				if err != nil {
					t.Fatalf("view of %d does not decode: %v", viewer, err)
				}
				_, err = p.Legal(0)
				enginetest.WantError(t, err, engine.Invalid, ReasonStateIsView, "state.micropul.isView")
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
					case Passed:
						if e.Player != viewer && e.Forced {
							t.Fatalf("viewer %d sees that player %d's pass was forced", viewer, e.Player)
						}
					}
				}
			}
			s = next
		}
	}
	enginetest.CheckError(t, (&State{view: true}).checkShape(Move{}))
	own := []Event{TileTaken{Player: 1, Tile: 5}, Passed{Player: 1, Forced: true}}
	if !slices.Equal(ViewEvents(own, 1), own) {
		t.Error("the owner does not see the tile taken, or that their pass was forced")
	}
}

// TestGameViewEvents checks that the engine.Game adapter shows each viewer of the protobuf events what ViewEvents
// shows of the events, without changing its input, sharing the messages of the events it hides nothing of.
func TestGameViewEvents(t *testing.T) {
	events := []Event{
		TilePlaced{Player: 1, Tile: Placed{Tile: 12, At: Coord{0, -1}, Rotation: 1}},
		CatalystActivated{Player: 1, At: Coord{0, -1}, Quadrant: BR, Catalyst: Two, Draw: 2},
		TilesDrawn{Player: 1, Count: 2, Tiles: []int{5, 17}, CoreLeft: 30},
		TileTaken{Player: 2, Tile: 31},
		Passed{Player: 1, Forced: true},
		GameOver{End: Blocked, Winners: []engine.Player{2}},
	}
	full := EventsProto(events)
	before := EventsProto(events)
	p, err := Spec.New(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for viewer := engine.Player(0); viewer <= 2; viewer++ {
		got := p.ViewEvents(full, viewer)
		want := EventsProto(ViewEvents(events, viewer))
		if len(got) != len(want) {
			t.Fatalf("viewer %d: %d events, want %d", viewer, len(got), len(want))
		}
		for i := range want {
			if !proto.Equal(got[i], want[i]) {
				t.Errorf("viewer %d, event %d: %v, want %v", viewer, i, got[i], want[i])
			}
		}
		if got[0] != full[0] || got[5] != full[5] {
			t.Errorf("viewer %d: the events with nothing to hide are copied", viewer)
		}
	}
	for i := range full {
		if !proto.Equal(full[i], before[i]) {
			t.Errorf("event %d changed: %v, was %v", i, full[i], before[i])
		}
	}
}
