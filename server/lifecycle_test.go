package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestHealth checks the gRPC health service (whole server and RulesService) and GET /healthz.
func TestHealth(t *testing.T) {
	ts := startServer(t, testConfig())
	health := healthpb.NewHealthClient(ts.Conn)
	for _, service := range []string{"", "rulebook.v1.RulesService"} {
		resp, err := health.Check(servertest.CallContext(t), &healthpb.HealthCheckRequest{Service: service})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("health of %q: %v %v, want SERVING", service, resp, err)
		}
	}
	if code, body := ts.Get(t, "/healthz"); code != http.StatusOK || !bytes.Contains(body, []byte("SERVING")) {
		t.Errorf("/healthz: %d %s", code, body)
	}
}

// TestReflection checks that grpcurl-style clients can discover RulesService.
func TestReflection(t *testing.T) {
	ts := startServer(t, testConfig())
	stream, err := reflectionpb.NewServerReflectionClient(ts.Conn).ServerReflectionInfo(servertest.CallContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&reflectionpb.ServerReflectionRequest{
		MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}); err != nil {
		t.Fatal(err)
	}
	resp, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	want := map[string]bool{"rulebook.v1.RulesService": false, "grpc.health.v1.Health": false}
	for _, n := range names {
		if _, ok := want[n]; ok {
			want[n] = true
		}
	}
	for n, found := range want {
		if !found {
			t.Errorf("reflection lists %v, without %s", names, n)
		}
	}
}

// TestOpenAPI checks that the OpenAPI document is served and describes the REST calls.
func TestOpenAPI(t *testing.T) {
	ts := startServer(t, testConfig())
	code, body := ts.Get(t, "/openapi.json")
	if code != http.StatusOK {
		t.Fatalf("/openapi.json: %d", code)
	}
	var doc struct {
		OpenAPI string                     `json:"openapi"`
		Paths   map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Errorf("the document is OpenAPI %q, not 3", doc.OpenAPI)
	}
	for _, path := range []string{"/v1/games", "/v1/games/{game}:apply", "/v1/games/{game}:legalMoves"} {
		if _, ok := doc.Paths[path]; !ok {
			t.Errorf("OpenAPI document %s has no path %s", doc.OpenAPI, path)
		}
	}
}

// blockingGame is Exploze whose plain states' positions wait, in Apply, until release is closed, to hold calls in
// flight; each Apply sends on started when it begins.
type blockingGame struct {
	exploze.Game
	started chan struct{}
	release chan struct{}
}

// Decode is Exploze's, with a position whose Apply blocks.
func (g blockingGame) Decode(state *rulebookv1.GameState) (engine.Position, error) {
	p, err := g.Game.Decode(state)
	if err != nil {
		return nil, err
	}
	return blockingPosition{p, g}, nil
}

// blockingPosition is a position of a blockingGame.
type blockingPosition struct {
	engine.Position
	g blockingGame
}

// Apply signals that a call is in flight, waits for release, then applies the move.
func (p blockingPosition) Apply(move *rulebookv1.Move) (engine.Position, []*rulebookv1.Event, error) {
	p.g.started <- struct{}{}
	<-p.g.release
	return p.Position.Apply(move)
}

// TestGracefulShutdown stops the server with a call in flight: health turns NOT_SERVING first, the call in flight
// finishes with its answer, and the server then stops cleanly.
func TestGracefulShutdown(t *testing.T) {
	game := blockingGame{started: make(chan struct{}), release: make(chan struct{})}
	cfg := testConfig()
	cfg.DrainDelay = 200 * time.Millisecond
	ts := startServer(t, cfg, engine.Game(game))

	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	move := &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{}}}
	inFlight := make(chan error, 1)
	go func() {
		_, err := ts.RPC.ApplyMove(servertest.CallContext(t), &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: move})
		inFlight <- err
	}()
	<-game.started

	stopped := make(chan error, 1)
	go func() { stopped <- ts.stop() }()

	health := healthpb.NewHealthClient(ts.Conn)
	notServing := false
	for range 100 { // the drain delay is 200ms; 100 tries of 10ms cover it
		resp, err := health.Check(servertest.CallContext(t), &healthpb.HealthCheckRequest{Service: "rulebook.v1.RulesService"})
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_NOT_SERVING {
			notServing = true
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !notServing {
		t.Error("health never reported NOT_SERVING during the drain")
	}
	select {
	case err := <-stopped:
		t.Fatalf("server stopped (%v) with a call in flight", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(game.release)
	if err := <-inFlight; err != nil {
		t.Errorf("call in flight: %v, want it to finish", err)
	}
	if err := <-stopped; err != nil {
		t.Errorf("stop: %v", err)
	}
	_, err := ts.RPC.ListGames(servertest.CallContext(t), &rulebookv1.ListGamesRequest{})
	if status.Code(err) != codes.Unavailable {
		t.Errorf("a call after shutdown: %v, want UNAVAILABLE", err)
	}
}

// TestDrainClosesRESTConnections stops a server with a REST call in flight and a long drain delay: while it drains,
// every REST answer (the call in flight's, and a new call's on a connection that was open before) says
// Connection: close, so that a proxy never sends another request on a connection the server is about to close.
func TestDrainClosesRESTConnections(t *testing.T) {
	game := blockingGame{started: make(chan struct{}, 1), release: make(chan struct{})}
	cfg := testConfig()
	cfg.DrainDelay = time.Minute // ended by the test, through StopNow
	ts := startServer(t, cfg, engine.Game(game))
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	apply := servertest.RequestCase(t, "", "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state,
		Move: servertest.ExplozeMove(1)}, servertest.WantError{})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	post := func(path, body string) *http.Response {
		resp, err := client.Post(ts.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := post("/v1/games/exploze:new", `{}`); resp.Close { // leaves an idle connection open
		t.Fatal("an answer before the drain closed its connection")
	}
	inFlight := make(chan *http.Response, 1)
	go func() { inFlight <- post(apply.Path, apply.Body) }()
	<-game.started

	stopped := make(chan error, 1)
	go func() { stopped <- ts.stop() }()
	health := healthpb.NewHealthClient(ts.Conn)
	for i := 0; ; i++ { // until the drain has begun
		resp, err := health.Check(servertest.CallContext(t), &healthpb.HealthCheckRequest{Service: "rulebook.v1.RulesService"})
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_NOT_SERVING {
			break
		}
		if i == 60_000 {
			t.Fatal("the server never began to drain")
		}
		time.Sleep(time.Millisecond)
	}
	if resp := post("/v1/games/exploze:new", `{}`); resp.StatusCode != http.StatusOK || !resp.Close {
		t.Errorf("a new call while draining: HTTP %d, Connection: close %v; want 200 and close", resp.StatusCode, resp.Close)
	}
	close(game.release)
	if resp := <-inFlight; resp.StatusCode != http.StatusOK || !resp.Close {
		t.Errorf("the call in flight: HTTP %d, Connection: close %v; want 200 and close", resp.StatusCode, resp.Close)
	}
	ts.srv.StopNow()
	if err := <-stopped; err != nil {
		t.Errorf("stop: %v", err)
	}
}

// TestStopNow stops a server that has a call held in flight, with a drain delay and a shutdown timeout far longer
// than any test: StopNow (a second signal) ends the shutdown at once, cancelling the call.
func TestStopNow(t *testing.T) {
	game := blockingGame{started: make(chan struct{}, 1), release: make(chan struct{})}
	defer close(game.release)
	cfg := testConfig()
	cfg.DrainDelay, cfg.ShutdownTimeout = time.Hour, time.Hour
	ts := startServer(t, cfg, engine.Game(game))
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	inFlight := make(chan error, 1)
	go func() {
		_, err := ts.RPC.ApplyMove(servertest.CallContext(t), &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: servertest.ExplozeMove(1)})
		inFlight <- err
	}()
	<-game.started
	stopped := make(chan error, 1)
	go func() { stopped <- ts.stop() }()
	ts.srv.StopNow()
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("stop: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("StopNow did not end the shutdown")
	}
	if err := <-inFlight; status.Code(err) == codes.OK {
		t.Error("the call held in flight was answered, want it cancelled")
	}
}
