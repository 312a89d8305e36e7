package server

import (
	"testing"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestEventDetail plays a move that sets off an Exploze chain over each transport, asking for its events, their
// counts and neither.
func TestEventDetail(t *testing.T) {
	ts := startServer(t, testConfig())
	moves := servertest.ExplozeCornerChain()
	for _, tr := range servertest.Transports {
		t.Run(tr.Name, func(t *testing.T) {
			state := tr.NewGame(t, ts.Client, &rulebookv1.NewGameRequest{Game: "exploze", Options: servertest.ExplozeOptions(6, 6, 2)}).GetState()
			for _, m := range moves[:2] {
				state = tr.Apply(t, ts.Client, &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: m}).GetState()
			}
			apply := func(detail rulebookv1.EventDetail) *rulebookv1.ApplyMoveResponse {
				return tr.Apply(t, ts.Client, &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: moves[2], Events: detail})
			}
			all := apply(rulebookv1.EventDetail_EVENT_DETAIL_ALL)
			summary := apply(rulebookv1.EventDetail_EVENT_DETAIL_SUMMARY)
			none := apply(rulebookv1.EventDetail_EVENT_DETAIL_NONE)
			var counted uint32
			for _, c := range summary.GetEventCounts() {
				counted += c.GetCount()
			}
			switch {
			case len(all.GetEvents()) < 2 || len(all.GetEventCounts()) != 0:
				t.Errorf("all: %v", all)
			case len(summary.GetEvents()) != 0 || int(counted) != len(all.GetEvents()) || summary.GetEventCounts()[0].GetKind() != "exploze.placed":
				t.Errorf("summary %v, want counts of the %d events, the first exploze.placed", summary.GetEventCounts(), len(all.GetEvents()))
			case len(none.GetEvents()) != 0 || len(none.GetEventCounts()) != 0 || none.GetState() == nil:
				t.Errorf("none: %v", none)
			}
		})
	}
}
