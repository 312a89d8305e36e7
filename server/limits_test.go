package server

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/refusal"
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
	cfg.MaxConcurrentCalls, cfg.MaxHeavyCalls = 2, 1
	ts := startServer(t, cfg, engine.Game(panickingGame{}))
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	internal := servertest.WantError{Code: codes.Internal, HTTPCode: http.StatusInternalServerError, Reason: service.ReasonInternal}
	cases := []servertest.ErrorCase{
		servertest.RequestCase(t, "Score", "Score", &rulebookv1.ScoreRequest{Game: "exploze", State: state}, internal),
		servertest.RequestCase(t, "ApplyMove", "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: servertest.ExplozeMove(1)}, internal),
		servertest.RequestCase(t, "Replay", "Replay", &rulebookv1.ReplayRequest{Game: "exploze", State: state, Moves: []*rulebookv1.Move{servertest.ExplozeMove(1)}}, internal),
	}
	for range 3 {
		servertest.CheckErrorCases(t, ts.Client, cases)
	}
	_, err := ts.RPC.Score(servertest.CallContext(t), &rulebookv1.ScoreRequest{Game: "exploze", State: state})
	if st := status.Convert(err); st.Message() != "internal error" {
		t.Errorf("a panic answered %q, want the bare \"internal error\"", st.Message())
	}
	servertest.Succeeded(ts.RPC.ListGames(servertest.CallContext(t), &rulebookv1.ListGamesRequest{}))(t)
}

// TestDeadline checks that a RulesService call gets its deadline, the call timeout, as its stream opens, and that a
// caller's shorter deadline wins; other services get none (a health watch may last).
func TestDeadline(t *testing.T) {
	s := &Server{cfg: Config{CallTimeout: time.Minute}}
	remaining := func(ctx context.Context, method string) (time.Duration, bool) {
		ctx, err := s.callDeadline(ctx, &tap.Info{FullMethodName: method})
		if err != nil {
			t.Fatal(err)
		}
		d, ok := ctx.Deadline()
		return time.Until(d), ok
	}
	if left, ok := remaining(context.Background(), rulebookv1.RulesService_ApplyMove_FullMethodName); !ok || left <= 50*time.Second || left > time.Minute {
		t.Errorf("no caller deadline: %v left (%v), want about a minute", left, ok)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if left, _ := remaining(ctx, rulebookv1.RulesService_Score_FullMethodName); left > time.Second {
		t.Errorf("caller's deadline of 1s: %v left, want at most 1s", left)
	}
	if _, ok := remaining(context.Background(), healthpb.Health_Watch_FullMethodName); ok {
		t.Error("a health watch got a deadline")
	}
}

// TestDeadlineCoversTheRequest opens RulesService calls that never send their request, over a connection without
// any deadline of the caller's: each is answered DEADLINE_EXCEEDED once the server's call timeout is over, and the
// server goes on answering other calls.
func TestDeadlineCoversTheRequest(t *testing.T) {
	cfg := testConfig()
	cfg.CallTimeout = 200 * time.Millisecond
	ts := startServer(t, cfg)
	var streams []grpc.ClientStream
	for range 3 {
		stream, err := ts.Conn.NewStream(context.Background(), &grpc.StreamDesc{ClientStreams: true, ServerStreams: true},
			rulebookv1.RulesService_ApplyMove_FullMethodName)
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, stream)
	}
	for i, stream := range streams {
		if err := stream.RecvMsg(&rulebookv1.ApplyMoveResponse{}); status.Code(err) != codes.DeadlineExceeded {
			t.Errorf("call %d without its request: %v, want DEADLINE_EXCEEDED", i, err)
		}
	}
	servertest.Succeeded(ts.RPC.ListGames(servertest.CallContext(t), &rulebookv1.ListGamesRequest{}))(t)
}

// TestHealthWhenBusy fills every call slot of a server with calls held in flight and checks that the gRPC health
// check (which the kubelet's probes use) and /healthz still answer SERVING, while another call is refused.
func TestHealthWhenBusy(t *testing.T) {
	game := blockingGame{started: make(chan struct{}, 2), release: make(chan struct{})}
	cfg := testConfig()
	cfg.MaxConcurrentCalls, cfg.MaxHeavyCalls = 2, 1
	ts := startServer(t, cfg, engine.Game(game))
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	var held sync.WaitGroup
	heldErrs := make(chan error, 2)
	for range 2 {
		held.Go(func() {
			_, err := ts.RPC.ApplyMove(servertest.CallContext(t), &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: servertest.ExplozeMove(1)})
			heldErrs <- err
		})
		<-game.started
	}
	_, err := ts.RPC.ListGames(servertest.CallContext(t), &rulebookv1.ListGamesRequest{})
	servertest.WantBusy(t, err, "ListGames with every slot taken")
	resp, err := healthpb.NewHealthClient(ts.Conn).Check(servertest.CallContext(t), &healthpb.HealthCheckRequest{Service: "rulebook.v1.RulesService"})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health check with every slot taken: %v %v, want SERVING", resp, err)
	}
	if code, body := ts.Get(t, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz with every slot taken: %d %s, want 200", code, body)
	}
	close(game.release)
	held.Wait()
	close(heldErrs)
	for err := range heldErrs {
		if err != nil {
			t.Errorf("a held call: %v", err)
		}
	}
}

// slowShape is an 8 x 8 square without four cells, placed so that it has no symmetry: counting its 2,074 tilings by
// the pentominoes searches the whole tree, for a fraction of a second to seconds.
const slowShape = "########|########|##.#####|########|########|#####.##|#.######|#######."

// TestHeavyCallsLeaveRoomForLightOnes runs six slow SolvePuzzle counts at once on a server that serves one heavy call
// (and lets one more wait) among two calls in all, and light calls over gRPC and REST while they last: every light
// call must be answered, the surplus counts refused with SERVER_BUSY, and each count otherwise answered or stopped by
// its deadline. The deadline only bounds the test; nothing depends on how long a count takes, except that six calls
// started together arrive before the first count ends.
func TestHeavyCallsLeaveRoomForLightOnes(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConcurrentCalls, cfg.MaxHeavyCalls = 2, 1 // a waiting heavy call that held a slot would leave none
	ts := startServer(t, cfg)
	shape, err := polyomino.ParseGrid(slowShape)
	if err != nil {
		t.Fatal(err)
	}
	req := &rulebookv1.SolvePuzzleRequest{Pieces: pentominoes, Goal: rulebookv1.PuzzleGoal_PUZZLE_GOAL_COUNT}
	for _, c := range shape {
		req.Shape = append(req.Shape, &rulebookv1.PuzzleCell{X: int32(c.X), Y: int32(c.Y)})
	}
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()

	const heavy = 6
	errs := make(chan error, heavy)
	var counts sync.WaitGroup
	for range heavy {
		counts.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := ts.RPC.SolvePuzzle(ctx, req)
			errs <- err
		})
	}
	countsDone := make(chan struct{})
	go func() { counts.Wait(); close(countsDone) }()

	light := []struct {
		name string
		call func() error
	}{
		{"ListGames", func() error {
			_, err := ts.RPC.ListGames(servertest.CallContext(t), &rulebookv1.ListGamesRequest{})
			return err
		}},
		{"ApplyMove", func() error {
			_, err := ts.RPC.ApplyMove(servertest.CallContext(t), &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: servertest.ExplozeMove(1)})
			return err
		}},
		{"GET /v1/games", func() error {
			if code, body := ts.Get(t, "/v1/games"); code != http.StatusOK {
				return errors.New(string(body))
			}
			return nil
		}},
	}
	calls := 0
	for running := true; running && calls < 3000; calls++ {
		select {
		case <-countsDone:
			running = false
		default:
		}
		l := light[calls%len(light)]
		if err := l.call(); err != nil {
			t.Fatalf("%s beside the counts: %v", l.name, err)
		}
	}
	servertest.Await(t, countsDone, "the end of the counts")
	close(errs)
	busy := 0
	for err := range errs {
		code, reason := status.Code(err), refusal.Reason(err)
		switch {
		case servertest.IsBusy(err):
			busy++
		case err == nil, code == codes.DeadlineExceeded, reason == service.ReasonSearchTooLarge:
		default:
			t.Errorf("a count: %v, want an answer, DEADLINE_EXCEEDED or SERVER_BUSY", err)
		}
	}
	t.Logf("%d light calls answered beside %d counts, of which %d refused", calls, heavy, busy)
	if busy == 0 {
		t.Errorf("none of %d counts started together was refused with SERVER_BUSY; at most 2 may run or wait", heavy)
	}
}
