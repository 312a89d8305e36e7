package server

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestDeadlineOutcomes makes many Connect and gRPC-Web calls at once, with a deadline short enough that under that
// load some run out of time and others finish just before it: the server's call timeout, then the caller's. It counts
// their outcomes: each succeeds or is DEADLINE_EXCEEDED (CANCELLED when the client gives up first), never UNKNOWN,
// INTERNAL or an HTTP 500, as a call the server finished would be if its answer were lost at the deadline.
func TestDeadlineOutcomes(t *testing.T) {
	const short, long = 60 * time.Millisecond, time.Minute
	for _, tt := range []struct {
		name                 string
		callTimeout, callers time.Duration
	}{
		{"the server's deadline", short, long},
		{"the caller's deadline", long, short},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.MaxConcurrentCalls, cfg.CallTimeout = 512, tt.callTimeout
			ts := startServer(t, cfg)
			outcomes := map[string]int{}
			var mu sync.Mutex
			for _, opts := range [][]connect.ClientOption{nil, {connect.WithGRPCWeb()}} {
				client := connect.NewClient[rulebookv1.NewGameRequest, rulebookv1.NewGameResponse](http.DefaultClient,
					ts.URL+rulesServicePrefix+"NewGame", opts...)
				var calls sync.WaitGroup
				for range 150 {
					calls.Go(func() {
						ctx, cancel := context.WithTimeout(context.Background(), tt.callers)
						defer cancel()
						_, err := client.CallUnary(ctx, connect.NewRequest(&rulebookv1.NewGameRequest{Game: "micropul", Seal: true}))
						mu.Lock()
						defer mu.Unlock()
						if err == nil {
							outcomes["ok"]++
							return
						}
						code := connect.CodeOf(err)
						outcomes[code.String()]++
						if code != connect.CodeDeadlineExceeded && code != connect.CodeCanceled {
							t.Errorf("a call ended %v", err)
						}
					})
				}
				calls.Wait()
			}
			t.Logf("outcomes: %v", outcomes)
		})
	}
}

// TestAnswerPastDeadline holds a Connect and a gRPC-Web call in the engine until after the server's deadline has
// passed, then lets each finish: the call must reach its client as the server ended it, OK or DEADLINE_EXCEEDED,
// never UNKNOWN or an HTTP 500 (grpc-go's ServeHTTP dropped the answer of a call whose request's context had ended).
// The wait only makes the case likely; the outcome is checked whatever the time.
func TestAnswerPastDeadline(t *testing.T) {
	game := blockingGame{started: make(chan struct{}), release: make(chan struct{})}
	cfg := testConfig()
	cfg.CallTimeout = 50 * time.Millisecond
	ts := startServer(t, cfg, engine.Game(game))
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	for _, opts := range [][]connect.ClientOption{nil, {connect.WithGRPCWeb()}} {
		apply := connect.NewClient[rulebookv1.ApplyMoveRequest, rulebookv1.ApplyMoveResponse](http.DefaultClient,
			ts.URL+rulesServicePrefix+"ApplyMove", opts...)
		done := make(chan error)
		go func() {
			_, err := apply.CallUnary(servertest.CallContext(t), connect.NewRequest(&rulebookv1.ApplyMoveRequest{
				Game: "exploze", State: state, Move: servertest.ExplozeMove(1)}))
			done <- err
		}()
		<-game.started
		time.Sleep(4 * cfg.CallTimeout)
		game.release <- struct{}{}
		if err := <-done; err != nil && connect.CodeOf(err) != connect.CodeDeadlineExceeded {
			t.Errorf("a call finished past the deadline reached its client as %v, want its answer or DEADLINE_EXCEEDED", err)
		}
	}
}
