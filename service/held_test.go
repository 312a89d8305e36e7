package service_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service/seal"
)

// TestTokensHoldTheWireForm checks that every game's tokens hold the deterministic wire form of the state's envelope.
func TestTokensHoldTheWireForm(t *testing.T) {
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	s := newService(t, false)
	for _, g := range games {
		game := g.Info().GetId()
		started, err := s.NewGame(context.Background(), &rulebookv1.NewGameRequest{Game: game, Seal: true})
		if err != nil {
			t.Fatal(err)
		}
		c, err := ring.Open(game, started.GetToken(), seal.ScopeSealed)
		if err != nil {
			t.Fatal(err)
		}
		want, err := proto.MarshalOptions{Deterministic: true}.Marshal(opener(t, game, started.GetToken()))
		if err != nil || string(c.State) != string(want) {
			t.Errorf("a %s token holds % x, not the wire form of its state (%v)", game, c.State, err)
		}
	}
}
