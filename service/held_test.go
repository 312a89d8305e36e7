package service_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// TestWireFormTokens checks that a token holding the wire form of a GameState, as tokens did before games had
// private forms, still plays: for every game, ApplyMove on it answers as on the token NewGame sealed, and the token
// it answers holds the same state.
func TestWireFormTokens(t *testing.T) {
	ctx := context.Background()
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		game := g.Info().GetId()
		t.Run(game, func(t *testing.T) {
			// Two servers with clocks in step, one for each token: the moves of both are stamped with the same time.
			s, other := newService(t, false), newService(t, false)
			started, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: game, Seal: true})
			if err != nil {
				t.Fatal(err)
			}
			opened, err := ring.Open(game, started.GetToken(), seal.ScopeSealed)
			if err != nil {
				t.Fatal(err)
			}
			state := opener(t, game, started.GetToken())
			wire, err := proto.MarshalOptions{Deterministic: true}.Marshal(state)
			if err != nil {
				t.Fatal(err)
			}
			old, err := ring.Seal(game, seal.Contents{RulesVersion: g.Info().GetRulesVersion(), Table: opened.Table, State: wire})
			if err != nil {
				t.Fatal(err)
			}
			if got := opener(t, game, old); !proto.Equal(got, state) {
				t.Fatalf("the wire-form token opens to another state")
			}
			legal, err := g.Legal(state, engine.NoPlayer)
			if err != nil || len(legal) == 0 {
				t.Fatalf("no legal move: %v", err)
			}
			pass := started.GetSeatPasses()[legal[0].GetPlayer()-1]
			var answers []*rulebookv1.ApplyMoveResponse
			for i, token := range []string{started.GetToken(), old} {
				req := &rulebookv1.ApplyMoveRequest{Game: game, Token: token, SeatPass: pass, Move: legal[0]}
				resp, err := []*service.Service{s, other}[i].ApplyMove(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				answers = append(answers, resp)
			}
			if !proto.Equal(opener(t, game, answers[0].GetToken()), opener(t, game, answers[1].GetToken())) {
				t.Errorf("the two tokens lead to other states")
			}
			answers[0].Token, answers[1].Token = "", ""
			if !proto.Equal(answers[0], answers[1]) {
				t.Errorf("ApplyMove answers otherwise on a wire-form token:\n%v\n%v", answers[0], answers[1])
			}
		})
	}
}

// TestPrivateFormTokens checks that the tokens of the games with a private form hold it: they open to bytes that
// start with engine.PrivateForm.
func TestPrivateFormTokens(t *testing.T) {
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	s := newService(t, false)
	for _, game := range []string{"exploze", "micropul"} {
		started, err := s.NewGame(context.Background(), &rulebookv1.NewGameRequest{Game: game, Seal: true})
		if err != nil {
			t.Fatal(err)
		}
		opened, err := ring.Open(game, started.GetToken(), seal.ScopeSealed)
		if err != nil {
			t.Fatal(err)
		}
		if held := opened.State; len(held) == 0 || held[0] != engine.PrivateForm {
			t.Errorf("a %s token holds % x, not its private form", game, held)
		}
	}
}
