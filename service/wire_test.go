package service_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// TestApplyMoveWire plays seeded games of every game and checks, at every ply, with plain states and with tokens,
// that ApplyMoveWire answers the bytes of protobuf's deterministic encoding of ApplyMove's answer (the token aside,
// whose nonce differs: it must hold the same state), and that both refuse a move alike.
func TestApplyMoveWire(t *testing.T) {
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	fixed := time.Unix(1_800_000_000, 0) // both calls of a ply stamp a move alike
	s, err := service.New(zap.NewNop(), service.Config{Keys: ring, AcceptPlainStates: true,
		Now: func() time.Time { return fixed }}, games...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	details := []rulebookv1.EventDetail{rulebookv1.EventDetail_EVENT_DETAIL_UNSPECIFIED,
		rulebookv1.EventDetail_EVENT_DETAIL_SUMMARY, rulebookv1.EventDetail_EVENT_DETAIL_NONE}
	for _, g := range games {
		game := g.Info().GetId()
		t.Run(game, func(t *testing.T) {
			state := servertest.Succeeded(s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: game, Seed: proto.Uint64(3)}))(t).GetState()
			rng := rand.New(rand.NewPCG(3, 4))
			for ply := 0; ply < 40; ply++ {
				legal := servertest.Succeeded(s.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: game, State: state}))(t).GetMoves()
				if len(legal) == 0 {
					break
				}
				move := legal[rng.IntN(len(legal))]
				sealed := servertest.Succeeded(s.Replay(ctx, &rulebookv1.ReplayRequest{Game: game, State: state, Seal: true}))(t)
				plain := &rulebookv1.ApplyMoveRequest{Game: game, State: state, Move: move, Events: details[ply%len(details)]}
				token := &rulebookv1.ApplyMoveRequest{Game: game, Token: sealed.GetToken(), Move: move,
					SeatPass: sealed.GetSeatPasses()[move.GetPlayer()-1], Events: details[(ply+1)%len(details)]}
				for _, req := range []*rulebookv1.ApplyMoveRequest{plain, token} {
					checkApplyMoveWire(t, s, game, req)
				}
				off := proto.CloneOf(token)
				off.SeatPass = sealed.GetSeatPasses()[int(move.GetPlayer())%len(sealed.GetSeatPasses())]
				checkApplyMoveWire(t, s, game, off) // refused unless the game lets that seat move too
				state = servertest.Succeeded(s.ApplyMove(ctx, plain))(t).GetState()
			}
		})
	}
}

// checkApplyMoveWire fails t unless ApplyMoveWire answers req with the encoding of ApplyMove's answer, or refuses it
// as ApplyMove does.
func checkApplyMoveWire(t *testing.T, s *service.Service, game string, req *rulebookv1.ApplyMoveRequest) {
	t.Helper()
	want, wantErr := s.ApplyMove(context.Background(), req)
	wire, err := s.ApplyMoveWire(context.Background(), req)
	if wantErr != nil || err != nil {
		wantCode, wantReason := reasonOf(wantErr)
		if code, reason := reasonOf(err); wantErr == nil || err == nil || code != wantCode || reason != wantReason {
			t.Fatalf("ApplyMove refuses with %v, ApplyMoveWire with %v", wantErr, err)
		}
		return
	}
	got := &rulebookv1.ApplyMoveResponse{}
	if err := proto.Unmarshal(wire, got); err != nil {
		t.Fatalf("ApplyMoveWire's answer does not decode: %v", err)
	}
	if want.GetToken() != "" {
		if !proto.Equal(opener(t, game, got.GetToken()), opener(t, game, want.GetToken())) {
			t.Fatal("ApplyMoveWire's token holds another state than ApplyMove's")
		}
		want.Token = got.GetToken()
	}
	encoded, err := proto.MarshalOptions{Deterministic: true}.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(wire, encoded) {
		t.Fatalf("ApplyMoveWire answers\n% x\nApplyMove's answer encodes to\n% x", wire, encoded)
	}
}
