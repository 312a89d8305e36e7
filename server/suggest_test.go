package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
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

// TestSuggestDeadlinesUnderLoad keeps more CPUs busy than the machine has, with processes beside the server, and
// asks for suggestions in every game, at the start and later on, over gRPC and REST at once (two heavy calls), with a
// deadline of 2 s, far shorter than the think time (10 s): each must answer a legal move, none DEADLINE_EXCEEDED. It
// counts outcomes, not times: the margin that the search keeps before the deadline (a quarter of the time, and twice
// the longest stall it saw) must make up for the load. The least time the answers left before their deadlines is
// logged. With -short, half the positions.
func TestSuggestDeadlinesUnderLoad(t *testing.T) {
	const timeout, think = 2 * time.Second, 10 * time.Second
	ts := startServer(t, testConfig())
	transports := []string{"gRPC", "REST"}
	positions := map[string][]suggestPosition{} // by transport
	for i, g := range []struct {
		name, game string
		options    *rulebookv1.GameOptions
	}{
		{"exploze", "exploze", nil},
		{"exploze 8x8 four players", "exploze", servertest.ExplozeOptions(8, 8, 4)},
		{"kipicot", "kipicot", nil},
		{"micropul", "micropul", nil},
		{"micropul solo", "micropul", servertest.MicropulOptions(1, rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_DEFAULT)},
		{"ubongo-duel", "ubongo-duel", nil},
	} {
		start := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: g.game,
			Options: g.options, Seed: proto.Uint64(3)}))(t).GetState()
		pair := []suggestPosition{{g.name + " at the start", g.game, start}, {g.name + " later", g.game, playOn(t, ts, g.game, start)}}
		for j, transport := range transports {
			if !testing.Short() || (i+j)%2 == 0 {
				positions[transport] = append(positions[transport], pair[(i+j)%2])
			}
		}
	}
	suggest := map[string]func(ctx context.Context, p suggestPosition) (string, *rulebookv1.Move){
		"gRPC": func(ctx context.Context, p suggestPosition) (string, *rulebookv1.Move) {
			resp, err := ts.RPC.SuggestMove(ctx, &rulebookv1.SuggestMoveRequest{Game: p.game, State: p.state,
				ThinkTime: durationpb.New(think)})
			if err != nil {
				return status.Code(err).String() + " " + refusal.Reason(err), nil
			}
			return "OK", resp.GetMove()
		},
		"REST": func(ctx context.Context, p suggestPosition) (string, *rulebookv1.Move) {
			body, err := protojson.Marshal(&rulebookv1.SuggestMoveRequest{State: p.state, ThinkTime: durationpb.New(think)})
			if err != nil {
				t.Fatal(err)
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/games/"+p.game+":suggest", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(grpcTimeoutHeader, strconv.FormatInt(timeout.Milliseconds(), 10)+"m")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return "no answer: " + err.Error(), nil
			}
			defer resp.Body.Close()
			out, err := io.ReadAll(resp.Body)
			switch {
			case err != nil:
				return "answer cut short: " + err.Error(), nil
			case resp.StatusCode != http.StatusOK:
				return "HTTP " + strconv.Itoa(resp.StatusCode) + " " + string(out), nil
			}
			answer := &rulebookv1.SuggestMoveResponse{}
			if err := protojson.Unmarshal(out, answer); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			return "OK", answer.GetMove()
		},
	}
	startBusy(t, 3, 2*time.Minute)
	var mu sync.Mutex
	outcomes, least := map[string]int{}, map[string]time.Duration{}
	var calls sync.WaitGroup
	for _, transport := range transports {
		calls.Go(func() {
			for _, p := range positions[transport] {
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				what, move := suggest[transport](ctx, p)
				deadline, _ := ctx.Deadline()
				left := time.Until(deadline)
				cancel()
				if what == "OK" {
					if _, err := ts.RPC.ValidateMove(servertest.CallContext(t), &rulebookv1.ValidateMoveRequest{Game: p.game,
						State: p.state, Move: move}); err != nil {
						what = "an illegal move: " + err.Error()
					}
				}
				if what != "OK" {
					t.Errorf("%s, %s: %s", transport, p.name, what)
				}
				mu.Lock()
				outcomes[what]++
				if l, ok := least[transport]; !ok || left < l {
					least[transport] = left
				}
				mu.Unlock()
			}
		})
	}
	calls.Wait()
	t.Logf("outcomes: %v; least time left before the deadline when an answer came: %v", outcomes, least)
}

// suggestPosition is a state of a game to ask a suggestion for.
type suggestPosition struct {
	name, game string
	state      *rulebookv1.GameState
}

// playOn returns state of game after a few moves of the bot at a level (the same whatever the machine's speed), or
// fewer if the game would end.
func playOn(t *testing.T, ts *testServer, game string, state *rulebookv1.GameState) *rulebookv1.GameState {
	t.Helper()
	for range 6 {
		move := servertest.Succeeded(ts.RPC.SuggestMove(servertest.CallContext(t), &rulebookv1.SuggestMoveRequest{Game: game,
			State: state, Level: rulebookv1.BotLevel_BOT_LEVEL_EASY, Seed: 1}))(t).GetMove()
		next := servertest.Succeeded(ts.RPC.ApplyMove(servertest.CallContext(t), &rulebookv1.ApplyMoveRequest{Game: game,
			State: state, Move: move}))(t).GetState()
		if servertest.Succeeded(ts.RPC.Score(servertest.CallContext(t), &rulebookv1.ScoreRequest{Game: game, State: next}))(t).GetScore().GetGameOver() {
			break
		}
		state = next
	}
	return state
}
