package server

import (
	"context"
	"maps"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/server/tracing"
)

// scrape returns the metric families the admin endpoint of ts serves at /metrics.
func scrape(t *testing.T, ts *testServer) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(ts.adminURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return families
}

// sample returns the value of the sample of family with labels (a counter's, a gauge's, a histogram's count), and
// whether there is one.
func sample(families map[string]*dto.MetricFamily, family string, labels map[string]string) (float64, bool) {
	for _, m := range families[family].GetMetric() {
		matched := 0
		for _, l := range m.GetLabel() {
			if v, ok := labels[l.GetName()]; ok && v == l.GetValue() {
				matched++
			}
		}
		if matched < len(labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		}
	}
	return 0, false
}

// metricsList is the list of the metric families the server serves, which the alerts and the dashboard of deploy/
// may use.
const metricsList = "../deploy/prometheus/metrics.txt"

// TestMetricFamilies makes calls of each kind, refusals among them, and checks that the families that /metrics
// serves are those of deploy/prometheus/metrics.txt (-update rewrites it).
func TestMetricFamilies(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process collector's families are Linux's (deploy's Deployment runs on Linux)")
	}
	ts := start(t, setup{cfg: testConfig(), admin: true})
	makeCallsOfEachKind(t, ts)
	var b strings.Builder
	b.WriteString("# The metric families rulebookd serves at /metrics on its admin listener, one a line, sorted (a histogram by " +
		"its family name); the server's tests keep this list in step with what /metrics serves.\n")
	for _, name := range slices.Sorted(maps.Keys(scrape(t, ts))) {
		b.WriteString(name + "\n")
	}
	enginetest.Golden(t, metricsList, []byte(b.String()))
}

// makeCallsOfEachKind makes calls to ts over both transports: a sealed game and a move, a move with an altered
// token, a game the server does not host, a puzzle search, a REST call, and a REST request to an unknown path. It
// returns the game.
func makeCallsOfEachKind(t *testing.T, ts *testServer) *rulebookv1.NewGameResponse {
	t.Helper()
	ctx := servertest.CallContext(t)
	sealed := servertest.Succeeded(ts.RPC.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}))(t)
	servertest.Succeeded(ts.RPC.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: sealed.GetToken(),
		SeatPass: sealed.GetSeatPasses()[0], Move: servertest.ExplozeMove(1)}))(t)
	token := []byte(sealed.GetToken()) // one character changed in the middle: authentic no longer, yet well formed
	if token[len(token)/2] == 'A' {
		token[len(token)/2] = 'B'
	} else {
		token[len(token)/2] = 'A'
	}
	if _, err := ts.RPC.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: string(token),
		SeatPass: sealed.GetSeatPasses()[0], Move: servertest.ExplozeMove(1)}); err == nil {
		t.Fatal("an altered token opened")
	}
	if _, err := ts.RPC.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "chess-" + strings.Repeat("x", 20)}); err == nil {
		t.Fatal("a game it does not host started")
	}
	servertest.Succeeded(ts.RPC.SolvePuzzle(ctx, &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(10, 6), Pieces: pentominoes}))(t)
	if code, body := ts.Post(t, "/v1/games/exploze:score", `{"token": "`+sealed.GetToken()+`"}`); code != http.StatusOK {
		t.Fatalf("REST score: %d %s", code, body)
	}
	if code, _ := ts.Post(t, "/v1/games/exploze:castle", `{}`); code != http.StatusNotFound {
		t.Fatalf("REST on an unknown path: %d", code)
	}
	return sealed
}

// TestMetrics makes calls of each kind over both transports and checks what /metrics on the admin endpoint counts:
// gRPC calls by code, REST requests by route and code, refusals by game, method and reason (a game the server does
// not host as "unknown"), token opens by result, Exploze chains, solver searches, the request memory budget and the
// build.
func TestMetrics(t *testing.T) {
	ts := start(t, setup{cfg: testConfig(), admin: true})
	makeCallsOfEachKind(t, ts)
	families := scrape(t, ts)
	tests := []struct {
		family string
		labels map[string]string
		want   float64 // at least
	}{
		{"grpc_server_handled_total", map[string]string{"grpc_method": "ApplyMove", "grpc_code": "OK", "grpc_type": "unary"}, 1},
		{"grpc_server_handled_total", map[string]string{"grpc_method": "ApplyMove", "grpc_code": "InvalidArgument"}, 1},
		{"grpc_server_handling_seconds", map[string]string{"grpc_method": "NewGame"}, 2},
		{"rulebook_http_requests_total", map[string]string{"route": "/v1/games/{game}:score", "code": "200", "method": "post"}, 1},
		{"rulebook_http_requests_total", map[string]string{"route": "other", "code": "404"}, 1},
		{"rulebook_refusals_total", map[string]string{"game": "exploze", "method": "ApplyMove", "reason": "TOKEN_INVALID"}, 1},
		{"rulebook_refusals_total", map[string]string{"game": "unknown", "method": "NewGame", "reason": "UNKNOWN_GAME"}, 1},
		{"rulebook_refusals_total", map[string]string{"game": "", "method": "", "reason": "UNKNOWN_PATH"}, 1},
		{"rulebook_token_opens_total", map[string]string{"result": "ok"}, 2},
		{"rulebook_token_opens_total", map[string]string{"result": "TOKEN_INVALID"}, 1},
		{"rulebook_exploze_chain_explosions", nil, 1},
		{"rulebook_solver_nodes", nil, 1},
		{"rulebook_request_bytes_limit", nil, float64(testConfig().MaxRequestMemory)},
		{"rulebook_request_bytes_in_flight", nil, 0},
		{"rulebook_build_info", map[string]string{"version": ""}, 1},
		{"go_gc_gomemlimit_bytes", nil, 1},
		{"rulebook_limiter_capacity", map[string]string{"limit": "calls"}, float64(testConfig().MaxConcurrentCalls)},
		{"rulebook_limiter_in_use", map[string]string{"limit": "heavy_calls"}, 0},
		{"rulebook_limiter_refusals_total", map[string]string{"limit": "request_bytes"}, 0},
		{"rulebook_token_opens_total", map[string]string{"result": "TOKEN_UNKNOWN_KEY"}, 0},
		{"rulebook_draining", nil, 0},
		{"go_goroutines", nil, 1},
		{"process_resident_memory_bytes", nil, 1},
	}
	for _, tt := range tests {
		if got, ok := sample(families, tt.family, tt.labels); !ok || got < tt.want {
			t.Errorf("%s%v = %v (found %v), want at least %v", tt.family, tt.labels, got, ok, tt.want)
		}
	}
	for _, m := range families["rulebook_refusals_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "game" && strings.HasPrefix(l.GetValue(), "chess") {
				t.Errorf("a game label of a caller's own: %q", l.GetValue())
			}
		}
	}
}

// TestMetricsLimits fills a server that serves one heavy call and lets one wait, and checks that the limiter counts
// the wait and the refusal.
func TestMetricsLimits(t *testing.T) {
	game := blockingGame{started: make(chan struct{}, 4), release: make(chan struct{})}
	cfg := testConfig()
	cfg.MaxConcurrentCalls, cfg.MaxHeavyCalls = 4, 1
	ts := start(t, setup{cfg: cfg, games: []engine.Game{game}, admin: true})
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	replay := &rulebookv1.ReplayRequest{Game: "exploze", State: state, Moves: []*rulebookv1.Move{servertest.ExplozeMove(1)}}
	done := make(chan error, 2)
	for range 2 { // one runs (held in Apply), one waits for its turn
		go func() { _, err := ts.RPC.Replay(servertest.CallContext(t), replay); done <- err }()
	}
	<-game.started
	for i := 0; ; i++ { // until the second waits: then a third is refused
		if v, _ := sample(scrape(t, ts), "rulebook_limiter_waits_total", map[string]string{"limit": "heavy_calls"}); v >= 1 {
			break
		}
		if i == 60_000 {
			t.Fatal("the second heavy call never waited")
		}
		time.Sleep(time.Millisecond)
	}
	_, err := ts.RPC.Replay(servertest.CallContext(t), replay)
	servertest.WantBusy(t, err, "a third heavy call")
	close(game.release)
	for range 2 {
		if err := <-done; err != nil {
			t.Errorf("a held heavy call: %v", err)
		}
	}
	families := scrape(t, ts)
	if v, _ := sample(families, "rulebook_limiter_refusals_total", map[string]string{"limit": "heavy_calls"}); v != 1 {
		t.Errorf("heavy call refusals %v, want 1", v)
	}
	if v, _ := sample(families, "rulebook_refusals_total", map[string]string{"method": "Replay", "reason": "SERVER_BUSY", "game": "exploze"}); v != 1 {
		t.Errorf("refusals of Replay with SERVER_BUSY %v, want 1 (of the game its request names: it is refused once read)", v)
	}
}

// TestAdminEndpoints checks that the admin endpoints serve the metrics only when the server keeps them, and the
// runtime's profiles only when asked for; a server without metrics still serves its calls.
func TestAdminEndpoints(t *testing.T) {
	for _, tt := range []struct{ metrics, pprof bool }{{true, false}, {false, true}} {
		cfg := testConfig()
		cfg.Metrics, cfg.Pprof = tt.metrics, tt.pprof
		ts := start(t, setup{cfg: cfg, admin: true})
		servertest.Succeeded(ts.RPC.ListGames(servertest.CallContext(t), &rulebookv1.ListGamesRequest{}))(t)
		if code, _ := ts.Get(t, "/v1/games"); code != http.StatusOK {
			t.Errorf("metrics %v: REST ListGames %d", tt.metrics, code)
		}
		for path, want := range map[string]bool{"/metrics": tt.metrics, "/debug/pprof/goroutine?debug=1": tt.pprof} {
			resp, err := http.Get(ts.adminURL + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if wantCode := map[bool]int{false: http.StatusNotFound, true: http.StatusOK}[want]; resp.StatusCode != wantCode {
				t.Errorf("metrics %v, pprof %v: %s answered %d, want %d", tt.metrics, tt.pprof, path, resp.StatusCode, wantCode)
			}
		}
	}
}

// TestTracing traces a server with a span recorder: a REST call is one span, the HTTP request's (the gateway calls
// the service in process), in the trace of the traceparent it came with; a gRPC call with a caller's trace context is
// a child of the caller's span.
func TestTracing(t *testing.T) {
	recorder, ended := tracetest.NewSpanRecorder(), make(endedSpans, 64)
	provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder), sdktrace.WithSpanProcessor(ended))
	cfg := testConfig()
	cfg.Tracing = &tracing.Tracing{Provider: provider, Propagator: propagation.TraceContext{}}
	ts := startServer(t, cfg)
	req, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodPost, ts.URL+"/v1/games/exploze:new", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	req.Header.Set("traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	if code, body := servertest.Do(t, req); code != http.StatusOK {
		t.Fatalf("REST: %d %s", code, body)
	}
	// A server span ends after its answer is sent: wait for it. Any span of the call within it ends before it.
	ended.await(t, func(s sdktrace.ReadOnlySpan) bool { return s.SpanKind() == trace.SpanKindServer })
	spans := recorder.Ended()
	if len(spans) != 1 || spans[0].Name() != "POST /v1/games/{game}:new" || spans[0].SpanKind() != trace.SpanKindServer ||
		spans[0].SpanContext().TraceID().String() != traceID {
		t.Fatalf("spans %v, want one, the REST request's, in the trace %s", names(spans), traceID)
	}

	caller, callerSpan := provider.Tracer("test").Start(context.Background(), "caller")
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(caller, carrier)
	ctx := metadata.NewOutgoingContext(servertest.CallContext(t), metadata.New(carrier))
	servertest.Succeeded(ts.RPC.ListGames(ctx, &rulebookv1.ListGamesRequest{}))(t)
	callerSpan.End()
	ended.await(t, func(s sdktrace.ReadOnlySpan) bool {
		return s.Name() == "rulebook.v1.RulesService/ListGames" && s.Parent().SpanID() == callerSpan.SpanContext().SpanID()
	})
}

// endedSpans is a span processor that passes on each span as it ends, for a test to wait for one.
type endedSpans chan sdktrace.ReadOnlySpan

// OnStart does nothing.
func (endedSpans) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd passes s on.
func (e endedSpans) OnEnd(s sdktrace.ReadOnlySpan) { e <- s }

// Shutdown does nothing.
func (endedSpans) Shutdown(context.Context) error { return nil }

// ForceFlush does nothing.
func (endedSpans) ForceFlush(context.Context) error { return nil }

// await waits for a span that want accepts to end (a minute at most), failing t if none does.
func (e endedSpans) await(t *testing.T, want func(sdktrace.ReadOnlySpan) bool) {
	t.Helper()
	var seen []string
	timeout := time.After(time.Minute)
	for {
		select {
		case s := <-e:
			if want(s) {
				return
			}
			seen = append(seen, s.Name()+"/"+s.SpanKind().String())
		case <-timeout:
			t.Fatalf("the span awaited never ended; ended: %v", seen)
		}
	}
}

// names returns the names of spans.
func names(spans []sdktrace.ReadOnlySpan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name()+"/"+s.SpanKind().String())
	}
	return out
}

// TestCallLogs checks the log of a server: one line per gRPC call at info level, refusals included; one access line
// per REST request with its method, path, route, status, bytes, duration, client and the trace id of its
// traceparent; health checks over either transport at debug level.
func TestCallLogs(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	ts := start(t, setup{cfg: testConfig(), log: zap.New(core)})
	ctx := servertest.CallContext(t)
	servertest.Succeeded(ts.RPC.ListGames(ctx, &rulebookv1.ListGamesRequest{}))(t)
	if _, err := ts.RPC.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "chess"}); err == nil {
		t.Fatal("chess started")
	}
	servertest.Succeeded(healthpb.NewHealthClient(ts.Conn).Check(ctx, &healthpb.HealthCheckRequest{}))(t)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/v1/games", nil)
	if err != nil {
		t.Fatal(err)
	}
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	req.Header.Set("traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	if code, _ := servertest.Do(t, req); code != http.StatusOK {
		t.Fatalf("GET /v1/games: %d", code)
	}
	if code, _ := ts.Get(t, "/healthz"); code != http.StatusOK {
		t.Fatalf("GET /healthz: %d", code)
	}

	calls := func(method string) []observer.LoggedEntry {
		return logs.FilterMessage("finished call").FilterField(zap.String("grpc.method", method)).All()
	}
	for _, tt := range []struct {
		method string
		level  zapcore.Level
		n      int // lines: a REST call has its access line only
	}{
		{"ListGames", zapcore.InfoLevel, 1}, {"NewGame", zapcore.InfoLevel, 1}, {"Check", zapcore.DebugLevel, 1},
	} {
		lines := calls(tt.method)
		if len(lines) != tt.n || slices.ContainsFunc(lines, func(e observer.LoggedEntry) bool { return e.Level != tt.level }) {
			t.Errorf("%s: %d lines %v, want %d at %v", tt.method, len(lines), lines, tt.n, tt.level)
		}
	}
	if lines := calls("NewGame"); len(lines) == 1 {
		line := lines[0].ContextMap()
		if line["grpc.service"] != "rulebook.v1.RulesService" || line["grpc.code"] != "NotFound" || line["grpc.error"] == nil ||
			line["grpc.time_ms"] == nil || line["peer.address"] == nil || line["grpc.request.deadline"] == nil {
			t.Errorf("NewGame's line %v, want its service, code NotFound, error, duration, peer and deadline", line)
		}
	}
	requests := logs.FilterMessage("request").All()
	if len(requests) != 2 {
		t.Fatalf("%d access lines, want 2 (one per REST request): %v", len(requests), requests)
	}
	games, health := requests[0].ContextMap(), requests[1]
	for key, want := range map[string]any{"method": "GET", "path": "/v1/games", "route": "/v1/games", "status": int64(200), "traceId": traceID} {
		if games[key] != want {
			t.Errorf("access line %s = %v, want %v", key, games[key], want)
		}
	}
	if games["bytes"].(int64) == 0 || games["client"] == "" || games["duration"] == nil {
		t.Errorf("access line %v, want its bytes, client and duration", games)
	}
	if health.Level != zapcore.DebugLevel {
		t.Errorf("/healthz logged at %v, want debug", health.Level)
	}
}
