package server

import (
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/rulebook/rulebook/engine/exploze"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// BenchmarkApplyMove measures one ApplyMove on a 6 x 6 opening: in the engine (decoded, applied and encoded through
// engine.Game's Position, the baseline), over gRPC on loopback, and over REST through the gateway, so that the cost
// of each layer reads as a ratio.
func BenchmarkApplyMove(b *testing.B) {
	ts := startServer(b, testConfig())
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(b), &rulebookv1.NewGameRequest{Game: "exploze"}))(b).GetState()
	req := &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: &rulebookv1.Move{
		Player: 1, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: 2, Col: 3}}}}
	body, err := protojson.Marshal(req)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("engine", func(b *testing.B) {
		for b.Loop() {
			p, err := exploze.Spec.Decode(req.GetState())
			if err != nil {
				b.Fatal(err)
			}
			next, _, err := p.Apply(req.GetMove())
			if err != nil {
				b.Fatal(err)
			}
			next.Encode()
		}
	})
	b.Run("gRPC", func(b *testing.B) {
		ctx := servertest.CallContext(b)
		for b.Loop() {
			if _, err := ts.RPC.ApplyMove(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("REST", func(b *testing.B) {
		for b.Loop() {
			if code, out := ts.Post(b, "/v1/games/exploze:apply", string(body)); code != 200 {
				b.Fatalf("%d %s", code, out)
			}
		}
	})
}
