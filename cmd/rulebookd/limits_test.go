package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// panickingGame is Exploze whose Score panics.
type panickingGame struct{ exploze.Game }

// Score panics.
func (panickingGame) Score(*rulebookv1.GameState) (*rulebookv1.Score, error) { panic("engine bug") }

// TestPanicRecovery checks that a panicking engine costs one INTERNAL answer, over gRPC and REST, and not the server.
func TestPanicRecovery(t *testing.T) {
	ts := startServer(t, testConfig(), engine.Game(panickingGame{}))
	state := succeeded(ts.client.NewGame(callContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	_, err := ts.client.Score(callContext(t), &rulebookv1.ScoreRequest{Game: "exploze", State: state})
	if st := status.Convert(err); st.Code() != codes.Internal || st.Message() != "internal error" {
		t.Errorf("a panic answered %v, want a bare INTERNAL", err)
	}
	if code, body := ts.post(t, "/v1/games/exploze:score", `{"state":{"exploze":{}}}`); code != http.StatusInternalServerError {
		t.Errorf("a panic over REST answered %d %s, want 500", code, body)
	}
	succeeded(ts.client.ListGames(callContext(t), &rulebookv1.ListGamesRequest{}))(t)
}

// TestMessageLimit checks that a request over the size limit is refused on both transports, and one under it is not.
func TestMessageLimit(t *testing.T) {
	cfg := testConfig()
	cfg.maxMessageBytes = 4096
	ts := startServer(t, cfg)
	huge := &rulebookv1.NewGameRequest{Game: "exploze" + strings.Repeat("x", 8192)}
	_, err := ts.client.NewGame(callContext(t), huge)
	if status.Code(err) != codes.ResourceExhausted {
		t.Errorf("an oversized gRPC request: %v, want RESOURCE_EXHAUSTED", err)
	}
	code, body := ts.post(t, "/v1/games/exploze:new", `{"seed": "1", "pad": "`+strings.Repeat("x", 8192)+`"}`)
	if code < 400 || code >= 500 {
		t.Errorf("an oversized REST request: %d %s, want a 4xx refusal", code, body)
	}
	if code, body := ts.post(t, "/v1/games/exploze:new", `{"seed": "1"}`); code != http.StatusOK {
		t.Errorf("a small REST request: %d %s", code, body)
	}
}

// TestDeadline checks that every call runs under the configured limit, and that a caller's shorter deadline wins.
func TestDeadline(t *testing.T) {
	interceptor := deadline(time.Minute)
	remaining := func(ctx context.Context) time.Duration {
		var left time.Duration
		_, _ = interceptor(ctx, nil, &grpc.UnaryServerInfo{}, func(ctx context.Context, _ any) (any, error) {
			d, ok := ctx.Deadline()
			if !ok {
				t.Fatal("the handler ran without a deadline")
			}
			left = time.Until(d)
			return nil, nil
		})
		return left
	}
	if left := remaining(context.Background()); left <= 50*time.Second || left > time.Minute {
		t.Errorf("no caller deadline: %v left, want about a minute", left)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if left := remaining(ctx); left > time.Second {
		t.Errorf("a caller's 1s deadline: %v left", left)
	}
}
