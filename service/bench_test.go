package service_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// BenchmarkApplyMove compares a Micropul move on a mid-game state held plainly (the baseline: validation, decoding,
// the rules) with the same move held as a token (plus opening, the seat pass, sealing and the view).
func BenchmarkApplyMove(b *testing.B) {
	ctx := context.Background()
	s := newService(b, true)
	_, state := randomGame(b, s, "micropul", 4, 20)
	legal, err := s.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: "micropul", State: state})
	if err != nil || len(legal.GetMoves()) == 0 {
		b.Fatal("no legal move", err)
	}
	move := legal.GetMoves()[0]
	sealed, err := s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "micropul", State: state, Seal: true})
	if err != nil {
		b.Fatal(err)
	}
	pass := sealed.GetSeatPasses()[move.GetPlayer()-1]
	b.Run("plain", func(b *testing.B) {
		req := &rulebookv1.ApplyMoveRequest{Game: "micropul", State: state, Move: move}
		for b.Loop() {
			if _, err := s.ApplyMove(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("token", func(b *testing.B) {
		req := &rulebookv1.ApplyMoveRequest{Game: "micropul", Token: sealed.GetToken(), SeatPass: pass, Move: move}
		for b.Loop() {
			if _, err := s.ApplyMove(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(sealed.GetToken())), "token-bytes")
		b.ReportMetric(float64(proto.Size(state)), "state-bytes")
	})
}
