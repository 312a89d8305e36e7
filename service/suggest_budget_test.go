package service

import (
	"context"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestSuggestBudget checks the budget of a search: its level's iterations in the game's info or, with a think time,
// none; and whether
// its Stop asks the search to end, with moments an hour away from now on either side, so that no outcome depends on
// the machine's speed: once the think time or the last moment of the call is past, or its context has ended.
func TestSuggestBudget(t *testing.T) {
	now := time.Now()
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	think := durationpb.New(time.Minute)
	info := &rulebookv1.GameInfo{BotLevels: []*rulebookv1.BotLevelInfo{
		{Level: rulebookv1.BotLevel_BOT_LEVEL_EASY, Iterations: 1},
		{Level: rulebookv1.BotLevel_BOT_LEVEL_MEDIUM, Iterations: 20},
		{Level: rulebookv1.BotLevel_BOT_LEVEL_HARD, Iterations: 300},
	}}
	for _, c := range []struct {
		name        string
		ctx         context.Context
		start, last time.Time
		req         *rulebookv1.SuggestMoveRequest
		iterations  int
		stop        bool
	}{
		{"a level", context.Background(), now, time.Time{}, &rulebookv1.SuggestMoveRequest{Level: rulebookv1.BotLevel_BOT_LEVEL_HARD},
			300, false},
		{"no level", context.Background(), now, time.Time{}, &rulebookv1.SuggestMoveRequest{}, 20, false},
		{"a level, the last moment past", context.Background(), now, past, &rulebookv1.SuggestMoveRequest{}, 20, true},
		{"thinking", context.Background(), now, future, &rulebookv1.SuggestMoveRequest{ThinkTime: think}, 0, false},
		{"thought enough", context.Background(), past, future, &rulebookv1.SuggestMoveRequest{ThinkTime: think}, 0, true},
		{"thinking, the last moment past", context.Background(), now, past, &rulebookv1.SuggestMoveRequest{ThinkTime: think}, 0, true},
		{"thinking, canceled", canceled, now, future, &rulebookv1.SuggestMoveRequest{ThinkTime: think}, 0, true},
	} {
		b := suggestBudget(c.ctx, info, c.start, c.last, c.req)
		if b.Iterations != c.iterations || b.Stopped() != c.stop {
			t.Errorf("%s: %d iterations, stopped %v; want %d, %v", c.name, b.Iterations, b.Stopped(), c.iterations, c.stop)
		}
	}
}
