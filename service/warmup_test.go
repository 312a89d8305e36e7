package service_test

import (
	"context"
	"testing"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// TestWarmUp warms a service up: it succeeds for every hosted game, tells the observer nothing, and changes no
// answer: each game's suggestion at a level is the one a service that did not warm up gives.
func TestWarmUp(t *testing.T) {
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	warm, err := service.New(zap.NewNop(), service.Config{Keys: ring, AcceptPlainStates: true, Observer: rec}, games...)
	if err != nil {
		t.Fatal(err)
	}
	if err := warm.WarmUp(); err != nil {
		t.Fatal(err)
	}
	if len(rec.opens)+len(rec.moves)+len(rec.nodes) != 0 {
		t.Errorf("warming up told the observer of tokens %v, moves %v, puzzles %v", rec.opens, rec.moves, rec.nodes)
	}
	cold := newService(t, true)
	for _, g := range games {
		req := &rulebookv1.SuggestMoveRequest{Game: g.Info().GetId(), State: newState(t, g, nil, 2),
			Level: rulebookv1.BotLevel_BOT_LEVEL_EASY, Seed: 3}
		var answers []*rulebookv1.SuggestMoveResponse
		for _, s := range []*service.Service{warm, cold} {
			resp, err := s.SuggestMove(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Thought = nil
			answers = append(answers, resp)
		}
		if !proto.Equal(answers[0], answers[1]) {
			t.Errorf("%s: warmed up, suggested %v; not, %v", req.GetGame(), answers[0], answers[1])
		}
	}
}
