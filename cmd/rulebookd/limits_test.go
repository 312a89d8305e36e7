package main

import (
	"context"
	"net/http"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service"
)

// panickingGame is Exploze whose Apply and Score panic.
type panickingGame struct{ exploze.Game }

// Apply panics.
func (panickingGame) Apply(*rulebookv1.GameState, *rulebookv1.Move) (*rulebookv1.GameState, []*rulebookv1.Event, error) {
	panic("engine bug")
}

// Score panics.
func (panickingGame) Score(*rulebookv1.GameState) (*rulebookv1.Score, error) { panic("engine bug") }

// TestPanicRecovery checks that a panicking engine costs one INTERNAL answer (a bare "internal error" over gRPC, 500
// over REST), and not the server nor a call slot: the server, which serves two calls at once, answers each panicking
// call of three rounds and then a call that works.
func TestPanicRecovery(t *testing.T) {
	cfg := testConfig()
	cfg.maxConcurrentCalls, cfg.maxHeavyCalls = 2, 1
	ts := startServer(t, cfg, engine.Game(panickingGame{}))
	state := succeeded(ts.client.NewGame(callContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	internal := wantError{codes.Internal, http.StatusInternalServerError, service.ReasonInternal, ""}
	cases := []errorCase{
		requestCase(t, "Score", "Score", &rulebookv1.ScoreRequest{Game: "exploze", State: state}, internal),
		requestCase(t, "ApplyMove", "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: explozeMove(1)}, internal),
		requestCase(t, "Replay", "Replay", &rulebookv1.ReplayRequest{Game: "exploze", State: state, Moves: []*rulebookv1.Move{explozeMove(1)}}, internal),
	}
	for range 3 {
		checkErrorCases(t, ts, cases)
	}
	_, err := ts.client.Score(callContext(t), &rulebookv1.ScoreRequest{Game: "exploze", State: state})
	if st := status.Convert(err); st.Message() != "internal error" {
		t.Errorf("a panic answered %q, want the bare \"internal error\"", st.Message())
	}
	succeeded(ts.client.ListGames(callContext(t), &rulebookv1.ListGamesRequest{}))(t)
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
