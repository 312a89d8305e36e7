package service_test

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service"
)

// FuzzRequests sends arbitrary requests (any bytes, decoded as each kind of request) through the whole service, on a
// server that accepts plain states and one that accepts only tokens: nothing may panic, and every refusal must be a
// client error, never INTERNAL. Replays are cut to 64 moves so that one input's work stays small.
func FuzzRequests(f *testing.F) {
	ctx := context.Background()
	plain, sealed := newService(f, true), newService(f, false)
	moves, _ := randomGame(f, plain, "micropul", 3, 6)
	seeds := []struct {
		kind uint8
		req  proto.Message
	}{
		{0, &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}},
		{1, &rulebookv1.ReplayRequest{Game: "micropul", Setup: &rulebookv1.GameSetup{Seed: 3}, Moves: moves}},
		{2, &rulebookv1.ApplyMoveRequest{Game: "exploze", Move: &rulebookv1.Move{Player: 1}}},
		{2, &rulebookv1.ApplyMoveRequest{Game: "exploze", Move: &rulebookv1.Move{Player: 1,
			Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: 1}}}}},
	}
	for _, seed := range seeds {
		b, err := proto.Marshal(seed.req)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed.kind, b)
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		for _, s := range []*service.Service{plain, sealed} {
			var err error
			switch kind % 7 {
			case 0:
				req := &rulebookv1.NewGameRequest{}
				if proto.Unmarshal(data, req) == nil {
					_, err = s.NewGame(ctx, req)
				}
			case 1:
				req := &rulebookv1.ReplayRequest{}
				if proto.Unmarshal(data, req) == nil && len(req.GetMoves()) <= 64 {
					_, err = s.Replay(ctx, req)
				}
			case 2:
				req := &rulebookv1.ApplyMoveRequest{}
				if proto.Unmarshal(data, req) == nil {
					_, err = s.ApplyMove(ctx, req)
				}
			case 3:
				req := &rulebookv1.ValidateMoveRequest{}
				if proto.Unmarshal(data, req) == nil {
					_, err = s.ValidateMove(ctx, req)
				}
			case 4:
				req := &rulebookv1.ListLegalMovesRequest{}
				if proto.Unmarshal(data, req) == nil {
					_, err = s.ListLegalMoves(ctx, req)
				}
			case 5:
				req := &rulebookv1.ScoreRequest{}
				if proto.Unmarshal(data, req) == nil {
					_, err = s.Score(ctx, req)
				}
			case 6:
				req := &rulebookv1.GetViewRequest{}
				if proto.Unmarshal(data, req) == nil {
					_, err = s.GetView(ctx, req)
				}
			}
			if code, reason := reasonOf(err); code == codes.Internal || code == codes.Unknown {
				t.Fatalf("kind %d: %v (%s)", kind%7, err, reason)
			}
		}
	})
}
