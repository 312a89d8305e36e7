package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestSuggestMoveDeadline asks over gRPC for a suggestion with the longest think time and a deadline much shorter:
// the search stops before the deadline, less its margin, and the call answers a move instead of DEADLINE_EXCEEDED.
func TestSuggestMoveDeadline(t *testing.T) {
	ts := startServer(t, testConfig())
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "micropul"}))(t).GetState()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	resp, err := ts.RPC.SuggestMove(ctx, &rulebookv1.SuggestMoveRequest{Game: "micropul", State: state,
		ThinkTime: durationpb.New(10 * time.Second)})
	if err != nil {
		t.Fatalf("thinking 10 s within a deadline of 2 s: %v, want a move", err)
	}
	if resp.GetMove().GetMicropul() == nil || resp.GetIterations() == 0 {
		t.Errorf("answer %v: want a Micropul move, searched", resp)
	}
}

// TestSuggestMoveREST asks for suggestions over REST, POST /v1/games/{game}:suggest: by level, which searches a
// fixed number of iterations whatever the machine's load, so the answer has an evaluation and a principal variation;
// and with a think time in JSON (a Duration as a string), which may search nothing on a busy machine, so only the
// move is required of it.
func TestSuggestMoveREST(t *testing.T) {
	ts := startServer(t, testConfig())
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	suggest := func(req *rulebookv1.SuggestMoveRequest) (*rulebookv1.SuggestMoveResponse, []byte) {
		t.Helper()
		body, err := protojson.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		code, out := ts.Post(t, "/v1/games/exploze:suggest", string(body))
		if code != http.StatusOK {
			t.Fatalf("HTTP %d: %s", code, out)
		}
		resp := &rulebookv1.SuggestMoveResponse{}
		if err := protojson.Unmarshal(out, resp); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return resp, out
	}
	resp, out := suggest(&rulebookv1.SuggestMoveRequest{State: state, Level: rulebookv1.BotLevel_BOT_LEVEL_EASY})
	if resp.GetMove().GetExploze() == nil || resp.GetEvaluation() == nil || len(resp.GetPrincipalVariation()) == 0 {
		t.Errorf("answer %s: want a move, an evaluation and a principal variation", out)
	}
	resp, out = suggest(&rulebookv1.SuggestMoveRequest{State: state, ThinkTime: durationpb.New(5 * time.Millisecond)})
	if resp.GetMove().GetExploze() == nil || resp.GetThought() == nil {
		t.Errorf("answer %s: want a move and the time thought", out)
	}
}
