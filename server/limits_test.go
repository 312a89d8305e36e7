package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
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
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
)

// panickingGame is Exploze whose Decode, of every call on a plain state, panics.
type panickingGame struct{ exploze.Game }

// Decode panics.
func (panickingGame) Decode(*rulebookv1.GameState) (engine.Position, error) { panic("engine bug") }

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
	if left, ok := remaining(context.Background(), rulebookv1grpc.RulesService_ApplyMove_FullMethodName); !ok || left <= 50*time.Second || left > time.Minute {
		t.Errorf("no caller deadline: %v left (%v), want about a minute", left, ok)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if left, _ := remaining(ctx, rulebookv1grpc.RulesService_Score_FullMethodName); left > time.Second {
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
			rulebookv1grpc.RulesService_ApplyMove_FullMethodName)
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

// TestHeavyCallsLeaveRoomForLightOnes fills the heavy turn of a server that serves one heavy call (and lets one more
// wait) among two calls in all: a Replay held in flight by its engine's Apply, then five more Replays at once. One
// of the five waits for the turn and the other four are refused with SERVER_BUSY at once; while the two are held,
// light calls over gRPC and REST are all answered (the waiting call holds no slot they need). Once released, both
// held Replays are answered. Nothing depends on how long a call takes: the engine holds the calls until the test
// lets them go.
func TestHeavyCallsLeaveRoomForLightOnes(t *testing.T) {
	const heavy = 6
	game := blockingGame{started: make(chan struct{}, heavy), release: make(chan struct{})}
	cfg := testConfig()
	cfg.MaxConcurrentCalls, cfg.MaxHeavyCalls = 2, 1 // a waiting heavy call that held a slot would leave none
	ts := startServer(t, cfg, engine.Game(game))
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	replay := &rulebookv1.ReplayRequest{Game: "exploze", State: state, Moves: []*rulebookv1.Move{servertest.ExplozeMove(1)}}
	release := sync.OnceFunc(func() { close(game.release) })
	t.Cleanup(release) // before the server stops, should the test fail with calls held

	errs := make(chan error, heavy)
	var replays sync.WaitGroup
	send := func() {
		replays.Go(func() {
			_, err := ts.RPC.Replay(servertest.CallContext(t), replay)
			errs <- err
		})
	}
	send()
	<-game.started // the first Replay holds the heavy turn and a slot
	for range heavy - 1 {
		send()
	}
	for range heavy - 2 { // all but the one that waits for the turn are refused at once
		err := <-errs
		if !servertest.IsBusy(err) {
			t.Errorf("a Replay beyond the heavy turn and its queue: %v, want SERVER_BUSY", err)
		}
	}

	light := []struct {
		name string
		call func() error
	}{
		{"ListGames", func() error {
			_, err := ts.RPC.ListGames(servertest.CallContext(t), &rulebookv1.ListGamesRequest{})
			return err
		}},
		{"ValidateMove", func() error {
			_, err := ts.RPC.ValidateMove(servertest.CallContext(t), &rulebookv1.ValidateMoveRequest{Game: "exploze", State: state, Move: servertest.ExplozeMove(1)})
			return err
		}},
		{"GET /v1/games", func() error {
			if code, body := ts.Get(t, "/v1/games"); code != http.StatusOK {
				return errors.New(string(body))
			}
			return nil
		}},
	}
	const lightCalls = 30
	for i := range lightCalls {
		l := light[i%len(light)]
		if err := l.call(); err != nil {
			t.Fatalf("%s beside the held Replays: %v", l.name, err)
		}
	}

	release()
	replays.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a held Replay: %v, want its answer", err)
		}
	}
	t.Logf("%d light calls answered beside %d Replays, of which %d refused", lightCalls, heavy, heavy-2)
}

// TestWaitingRequestsHoldNothing checks that capacity is taken by work, never by waiting: on a server that serves
// two calls at once, ten gRPC calls whose request never comes (over one connection) and ten REST and Connect bodies
// that declare a length and send one byte hold no call slot and none of the budget, so that gRPC, REST and Connect
// calls are all served beside them. Then, with a short read timeout, each late request is
// refused with REQUEST_TIMEOUT (DEADLINE_EXCEEDED, 408), long before the call timeout.
func TestWaitingRequestsHoldNothing(t *testing.T) {
	for _, late := range []bool{false, true} {
		cfg := testConfig()
		cfg.MaxConcurrentCalls, cfg.MaxHeavyCalls = 2, 1
		cfg.CallTimeout, cfg.ReadTimeout = time.Hour, time.Hour
		if late {
			cfg.ReadTimeout, cfg.MinReadRate = 50*time.Millisecond, 1<<30
		}
		ts := startServer(t, cfg)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel() // before the server's shutdown, which would wait for the streams
		const waiting = 10
		var streams []grpc.ClientStream
		for range waiting {
			stream, err := ts.Conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true},
				rulebookv1grpc.RulesService_ApplyMove_FullMethodName)
			if err != nil {
				t.Fatal(err)
			}
			streams = append(streams, stream)
		}
		var bodies []net.Conn
		for i := range waiting {
			conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			path := "/v1/games/exploze:new"
			if i%2 == 1 {
				path = rulebookv1grpc.RulesService_NewGame_FullMethodName
			}
			if _, err := io.WriteString(conn, "POST "+path+" HTTP/1.1\r\nHost: rulebook\r\nContent-Type: application/json\r\n"+
				"Content-Length: 1000000\r\n\r\n{"); err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, conn)
		}
		if !late {
			for i := range 3 * cfg.MaxConcurrentCalls {
				servertest.Succeeded(ts.RPC.ListGames(servertest.CallContext(t), &rulebookv1.ListGamesRequest{}))(t)
				if code, body := ts.Post(t, "/v1/games/exploze:new", `{}`); code != http.StatusOK {
					t.Fatalf("REST call %d beside waiting requests: HTTP %d %s", i, code, body)
				}
				if code, body := ts.Post(t, rulebookv1grpc.RulesService_NewGame_FullMethodName, `{"game": "exploze"}`); code != http.StatusOK {
					t.Fatalf("Connect call %d beside waiting requests: HTTP %d %s", i, code, body)
				}
			}
			for i := 0; ts.srv.budget.InFlight() > 0; i++ { // until the calls above give theirs back
				if i == 60_000 {
					t.Fatalf("%d bytes of the budget held by %d bodies of one byte, want none", ts.srv.budget.InFlight(), waiting)
				}
				time.Sleep(time.Millisecond)
			}
			continue
		}
		for i, stream := range streams {
			err := stream.RecvMsg(&rulebookv1.ApplyMoveResponse{})
			if status.Code(err) != codes.DeadlineExceeded || refusal.Reason(err) != refusal.ReasonRequestTimeout {
				t.Fatalf("gRPC call %d whose request never came: %v, want DEADLINE_EXCEEDED %s", i, err, refusal.ReasonRequestTimeout)
			}
		}
		for i, conn := range bodies {
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("body %d that never came: no answer: %v", i, err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestTimeout {
				t.Errorf("body %d that never came: HTTP %d, want 408", i, resp.StatusCode)
			}
		}
	}
}
