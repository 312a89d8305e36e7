package service_test

import (
	"context"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestEventDetail plays a move that sets off an Exploze chain, plainly and held as a token, asking for every event,
// for their counts by kind, and for none: the counts add up to the events, kind by kind, in the order of the kinds'
// first events.
func TestEventDetail(t *testing.T) {
	ctx := context.Background()
	s := newService(t, true)
	moves := servertest.ExplozeCornerChain()
	state, err := s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Setup: &rulebookv1.GameSetup{
		Options: servertest.ExplozeOptions(6, 6, 2)}, Moves: moves[:2]})
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", State: state.GetState(), Seal: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, held := range []struct {
		name string
		req  *rulebookv1.ApplyMoveRequest
	}{
		{"plain", &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state.GetState(), Move: moves[2]}},
		{"token", &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: sealed.GetToken(), SeatPass: sealed.GetSeatPasses()[0], Move: moves[2]}},
	} {
		t.Run(held.name, func(t *testing.T) {
			apply := func(detail rulebookv1.EventDetail) *rulebookv1.ApplyMoveResponse {
				req := proto.CloneOf(held.req)
				req.Events = detail
				resp, err := s.ApplyMove(ctx, req)
				if err != nil {
					t.Fatalf("%v: %v", detail, err)
				}
				return resp
			}
			all := apply(rulebookv1.EventDetail_EVENT_DETAIL_UNSPECIFIED)
			if len(all.GetEvents()) < 2 || len(all.GetEventCounts()) != 0 {
				t.Fatalf("default: %d events and %d counts, want the chain's events and no counts", len(all.GetEvents()), len(all.GetEventCounts()))
			}
			if got := apply(rulebookv1.EventDetail_EVENT_DETAIL_ALL).GetEvents(); !slices.EqualFunc(got, all.GetEvents(), eventsEqual) {
				t.Errorf("EVENT_DETAIL_ALL answered the events %v, the default %v", got, all.GetEvents())
			}
			var kinds []string
			counts := map[string]uint32{}
			for _, e := range all.GetEvents() {
				m := e.GetExploze().ProtoReflect()
				kind := "exploze." + string(m.WhichOneof(m.Descriptor().Oneofs().ByName("kind")).Name())
				if counts[kind] == 0 {
					kinds = append(kinds, kind)
				}
				counts[kind]++
			}
			summary := apply(rulebookv1.EventDetail_EVENT_DETAIL_SUMMARY)
			if len(summary.GetEvents()) != 0 || len(summary.GetEventCounts()) != len(kinds) {
				t.Fatalf("summary: %d events and counts %v, want no events and counts of %v", len(summary.GetEvents()),
					summary.GetEventCounts(), counts)
			}
			for i, c := range summary.GetEventCounts() {
				if c.GetKind() != kinds[i] || c.GetCount() != counts[kinds[i]] {
					t.Errorf("summary count %d: %v, want %s: %d", i, c, kinds[i], counts[kinds[i]])
				}
			}
			none := apply(rulebookv1.EventDetail_EVENT_DETAIL_NONE)
			if len(none.GetEvents()) != 0 || len(none.GetEventCounts()) != 0 {
				t.Errorf("none: %d events and %d counts, want neither", len(none.GetEvents()), len(none.GetEventCounts()))
			}
			if none.GetState() == nil && none.GetToken() == "" {
				t.Error("none: no state nor token")
			}
		})
	}
}

// eventsEqual reports whether a and b are the same event.
func eventsEqual(a, b *rulebookv1.Event) bool { return proto.Equal(a, b) }

// TestReplayEventDetail replays the moves of an Exploze chain asking for the counts of each step's events, and for
// none.
func TestReplayEventDetail(t *testing.T) {
	s := newService(t, true)
	replay := func(detail rulebookv1.EventDetail) []*rulebookv1.ReplayStep {
		resp, err := s.Replay(context.Background(), &rulebookv1.ReplayRequest{Game: "exploze", Setup: &rulebookv1.GameSetup{
			Options: servertest.ExplozeOptions(6, 6, 2)}, Moves: servertest.ExplozeCornerChain(), Events: detail})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetSteps()
	}
	all, summary, none := replay(rulebookv1.EventDetail_EVENT_DETAIL_ALL), replay(rulebookv1.EventDetail_EVENT_DETAIL_SUMMARY),
		replay(rulebookv1.EventDetail_EVENT_DETAIL_NONE)
	if len(all) != 3 || len(summary) != 3 || len(none) != 3 {
		t.Fatalf("%d, %d and %d steps, want 3", len(all), len(summary), len(none))
	}
	for i := range all {
		var counted uint32
		for _, c := range summary[i].GetEventCounts() {
			counted += c.GetCount()
		}
		if len(summary[i].GetEvents()) != 0 || int(counted) != len(all[i].GetEvents()) {
			t.Errorf("step %d: summary %v, want counts of its %d events", i, summary[i], len(all[i].GetEvents()))
		}
		if len(none[i].GetEvents()) != 0 || len(none[i].GetEventCounts()) != 0 {
			t.Errorf("step %d: %v, want no events", i, none[i])
		}
	}
}
