package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service"
)

// Methods as the limiter sees them.
var (
	heavyCall  = &grpc.UnaryServerInfo{FullMethod: rulebookv1.RulesService_SolvePuzzle_FullMethodName}
	lightCall  = &grpc.UnaryServerInfo{FullMethod: rulebookv1.RulesService_ApplyMove_FullMethodName}
	healthCall = &grpc.UnaryServerInfo{FullMethod: healthpb.Health_Check_FullMethodName}
)

// heldCall is a call through a limiter whose handler, once it runs, waits for release.
type heldCall struct {
	running chan struct{} // closed when the handler runs
	release chan struct{} // closed to let the handler return
	done    chan error    // the call's error, once it returns
}

// hold makes a call of info through l in a goroutine, under ctx.
func hold(ctx context.Context, l *limiter, info *grpc.UnaryServerInfo) *heldCall {
	c := &heldCall{running: make(chan struct{}), release: make(chan struct{}), done: make(chan error, 1)}
	go func() {
		_, err := l.intercept(ctx, nil, info, func(context.Context, any) (any, error) {
			close(c.running)
			<-c.release
			return nil, nil
		})
		c.done <- err
	}()
	return c
}

// wait returns the call's error, failing the test if it does not return within a generous bound.
func (c *heldCall) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-c.done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("a call never returned")
		return nil
	}
}

// await fails the test unless ch is closed within a generous bound.
func await(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s never happened", what)
	}
}

// awaitWaiting fails the test unless a heavy call (what) waits in l's waiting room within a generous bound: the only
// way to see a call wait.
func awaitWaiting(t *testing.T, l *limiter, what string) {
	t.Helper()
	for i := 0; len(l.waiting) == 0; i++ {
		if i == 10_000 {
			t.Fatalf("%s never waited", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// callThrough makes a call of info through l that returns at once, and returns its error.
func callThrough(l *limiter, info *grpc.UnaryServerInfo) error {
	_, err := l.intercept(context.Background(), nil, info, func(context.Context, any) (any, error) { return nil, nil })
	return err
}

// wantBusy fails the test unless err is RESOURCE_EXHAUSTED with reason SERVER_BUSY.
func wantBusy(t testing.TB, err error, what string) {
	t.Helper()
	if !isBusy(err) {
		t.Errorf("%s: %v, want RESOURCE_EXHAUSTED SERVER_BUSY", what, err)
	}
}

// isBusy reports whether err is RESOURCE_EXHAUSTED with reason SERVER_BUSY.
func isBusy(err error) bool {
	code, reason := codeReason(err)
	return code == codes.ResourceExhausted && reason == reasonServerBusy
}

// TestLimiter walks a limiter of 2 calls, 1 of them heavy, through each of its states with calls held in flight:
// a second heavy call waits and a third is refused; waiting heavy calls hold no general slot; light calls are refused
// only when every slot is taken; health checks are never refused; a waiting call leaves at its deadline; a panic
// gives its slots back; and every slot is free at the end.
func TestLimiter(t *testing.T) {
	l := newLimiter(2, 1)
	first := hold(context.Background(), l, heavyCall)
	await(t, first.running, "the first heavy call")
	waiting := hold(context.Background(), l, heavyCall)
	awaitWaiting(t, l, "the second heavy call")
	wantBusy(t, callThrough(l, heavyCall), "a third heavy call, with one running and one waiting")
	if err := callThrough(l, lightCall); err != nil {
		t.Errorf("a light call beside a running and a waiting heavy call: %v", err)
	}
	light := hold(context.Background(), l, lightCall)
	await(t, light.running, "the held light call")
	wantBusy(t, callThrough(l, lightCall), "a light call with every slot taken")
	if err := callThrough(l, healthCall); err != nil {
		t.Errorf("a health check with every slot taken: %v, want it answered", err)
	}

	close(light.release)
	close(first.release)
	for _, c := range []*heldCall{light, first} {
		if err := c.wait(t); err != nil {
			t.Errorf("a held call: %v", err)
		}
	}
	await(t, waiting.running, "the waiting heavy call's turn")
	close(waiting.release)
	if err := waiting.wait(t); err != nil {
		t.Errorf("the heavy call that waited: %v", err)
	}

	again := hold(context.Background(), l, heavyCall)
	await(t, again.running, "a heavy call")
	ctx, cancel := context.WithCancel(context.Background())
	late := hold(ctx, l, heavyCall)
	awaitWaiting(t, l, "the late heavy call")
	cancel()
	if err := late.wait(t); status.Code(err) != codes.Canceled {
		t.Errorf("a heavy call whose caller left while it waited: %v, want CANCELED", err)
	}
	close(again.release)
	if err := again.wait(t); err != nil {
		t.Errorf("a held call: %v", err)
	}

	func() {
		defer func() { _ = recover() }()
		_, _ = l.intercept(context.Background(), nil, heavyCall, func(context.Context, any) (any, error) { panic("engine bug") })
	}()
	if len(l.calls) != 0 || len(l.heavy) != 0 || len(l.waiting) != 0 {
		t.Errorf("slots still taken after every call returned: %d calls, %d heavy, %d waiting", len(l.calls), len(l.heavy), len(l.waiting))
	}
}

// TestHealthWhenBusy fills every call slot of a server with calls held in flight and checks that the gRPC health
// check (which the kubelet's probes use) and /healthz still answer SERVING, while another call is refused.
func TestHealthWhenBusy(t *testing.T) {
	game := blockingGame{started: make(chan struct{}, 2), release: make(chan struct{})}
	cfg := testConfig()
	cfg.maxConcurrentCalls, cfg.maxHeavyCalls = 2, 1
	ts := startServer(t, cfg, engine.Game(game))
	state := succeeded(ts.client.NewGame(callContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	var held sync.WaitGroup
	heldErrs := make(chan error, 2)
	for range 2 {
		held.Go(func() {
			_, err := ts.client.ApplyMove(callContext(t), &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: explozeMove(1)})
			heldErrs <- err
		})
		<-game.started
	}
	_, err := ts.client.ListGames(callContext(t), &rulebookv1.ListGamesRequest{})
	wantBusy(t, err, "ListGames with every slot taken")
	resp, err := healthpb.NewHealthClient(ts.conn).Check(callContext(t), &healthpb.HealthCheckRequest{Service: "rulebook.v1.RulesService"})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health check with every slot taken: %v %v, want SERVING", resp, err)
	}
	if code, body := ts.get(t, "/healthz"); code != http.StatusOK {
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
	cfg.maxConcurrentCalls, cfg.maxHeavyCalls = 2, 1 // a waiting heavy call that held a slot would leave none
	ts := startServer(t, cfg)
	shape, err := polyomino.ParseGrid(slowShape)
	if err != nil {
		t.Fatal(err)
	}
	req := &rulebookv1.SolvePuzzleRequest{Pieces: pentominoes, Goal: rulebookv1.PuzzleGoal_PUZZLE_GOAL_COUNT}
	for _, c := range shape {
		req.Shape = append(req.Shape, &rulebookv1.PuzzleCell{X: int32(c.X), Y: int32(c.Y)})
	}
	state := succeeded(ts.client.NewGame(callContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()

	const heavy = 6
	errs := make(chan error, heavy)
	var counts sync.WaitGroup
	for range heavy {
		counts.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := ts.client.SolvePuzzle(ctx, req)
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
			_, err := ts.client.ListGames(callContext(t), &rulebookv1.ListGamesRequest{})
			return err
		}},
		{"ApplyMove", func() error {
			_, err := ts.client.ApplyMove(callContext(t), &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: explozeMove(1)})
			return err
		}},
		{"GET /v1/games", func() error {
			if code, body := ts.get(t, "/v1/games"); code != http.StatusOK {
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
	await(t, countsDone, "the end of the counts")
	close(errs)
	busy := 0
	for err := range errs {
		code, reason := codeReason(err)
		switch {
		case isBusy(err):
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

// codeReason returns the code and the ErrorInfo reason of err.
func codeReason(err error) (codes.Code, string) {
	st := status.Convert(err)
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return st.Code(), info.GetReason()
		}
	}
	return st.Code(), ""
}

// TestRESTBodiesLimited checks that no more than max-concurrent-calls REST requests with a body are read at once
// (they are read before the limits on gRPC calls apply): one more is refused at once with 429 and SERVER_BUSY, while
// requests without a body, such as health checks, are still served.
func TestRESTBodiesLimited(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			entered <- struct{}{}
			<-release
		}
		w.WriteHeader(http.StatusOK)
	})
	handler := limitBodies(next, runtime.NewServeMux(), &runtime.JSONPb{}, 1024, 1)
	post := func() *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/games/exploze:new", strings.NewReader("{}")))
		return w
	}
	held := make(chan *httptest.ResponseRecorder)
	go func() { held <- post() }()
	await(t, entered, "the first call")

	second := make(chan *httptest.ResponseRecorder, 1)
	go func() { second <- post() }()
	select {
	case busy := <-second:
		if busy.Code != http.StatusTooManyRequests || !strings.Contains(busy.Body.String(), reasonServerBusy) {
			t.Errorf("a second body while one is read: HTTP %d %s, want 429 %s", busy.Code, busy.Body, reasonServerBusy)
		}
	case <-entered:
		close(release)
		t.Fatal("a second body was let in while one was read")
	case <-time.After(10 * time.Second):
		t.Fatal("a second body was neither served nor refused")
	}
	health := httptest.NewRecorder()
	handler.ServeHTTP(health, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if health.Code != http.StatusOK {
		t.Errorf("a health check while the bodies are all taken: HTTP %d", health.Code)
	}
	close(release)
	if first := <-held; first.Code != http.StatusOK {
		t.Errorf("the first call: HTTP %d", first.Code)
	}
	go func() { held <- post() }() // the slot is free again
	await(t, entered, "a call after the first ended")
	if again := <-held; again.Code != http.StatusOK {
		t.Errorf("a call after the first ended: HTTP %d", again.Code)
	}
}
