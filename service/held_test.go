package service_test

import (
	"context"
	"encoding/hex"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
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
		_, held, err := ring.Open(game, started.GetToken())
		if err != nil {
			t.Fatal(err)
		}
		want, err := proto.MarshalOptions{Deterministic: true}.Marshal(opener(t, game, started.GetToken()))
		if err != nil || string(held) != string(want) {
			t.Errorf("a %s token holds % x, not the wire form of its state (%v)", game, held, err)
		}
	}
}

// TestPreviousFormTokens checks that a token of an earlier release, which held Exploze's private form (a 2 x 2 board
// before the first move), still plays, and that the token ApplyMove answers holds the wire form.
func TestPreviousFormTokens(t *testing.T) {
	ctx := context.Background()
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	table, err := seal.NewTable(nil)
	if err != nil {
		t.Fatal(err)
	}
	held, err := hex.DecodeString("0001020202000100000000") // engine/exploze/testdata/previous_form.txt
	if err != nil {
		t.Fatal(err)
	}
	old, err := ring.Seal("exploze", table, held)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := newService(t, false).ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: old,
		SeatPass: table.Pass("exploze", 1), Move: &rulebookv1.Move{Player: 1,
			Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: 1, Col: 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetView().GetExploze(); got.GetMovesPlayed() != 1 || got.GetToMove() != 2 {
		t.Errorf("after the first move the view is %v", got)
	}
	if _, next, err := ring.Open("exploze", resp.GetToken()); err != nil || len(next) == 0 ||
		next[0] == engine.PrivateForm {
		t.Errorf("the next token holds % x (%v), not a wire form", next, err)
	}
}
