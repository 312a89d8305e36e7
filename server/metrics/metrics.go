// Package metrics is rulebookd's Prometheus instrumentation, on a registry of its own: the gRPC server's metrics
// (go-grpc-middleware's provider, with handling times), the HTTP listener's (by route: REST's as the gateway's router matched it),
// rulebook's own (refusals by game, method and reason; calls by caller; the limits' waits and refusals; the request memory in flight;
// the calls the limiter holds; token opens by result; Exploze chains and solver searches; build information;
// draining), and the Go runtime's and the process's (the memory limit in effect is go_gc_gomemlimit_bytes). Every label takes a bounded set of values, whatever the callers send.
package metrics

import (
	"context"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"time"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/service/caller"
	"github.com/rulebook/rulebook/service/seal"
)

// Build describes the running build, for rulebook_build_info.
type Build struct {
	Version, Revision string
}

// Metrics are the server's metrics. They observe the service (service.Observer) and the limits
// (admission.Observer). A nil *Metrics measures nothing, at no cost: its interceptors and handlers pass calls on.
type Metrics struct {
	registry *prometheus.Registry
	grpc     *grpcprom.ServerMetrics

	games                          []string // the values the game label takes, besides ""
	refusals                       *prometheus.CounterVec
	limiterWaits, limiterRefusals  *prometheus.CounterVec
	tokenOpens                     *prometheus.CounterVec
	chainExplosions, solverNodes   prometheus.Histogram
	draining                       prometheus.Gauge
	httpRequests                   *prometheus.CounterVec
	httpDuration                   *prometheus.HistogramVec
	httpInFlight                   prometheus.Gauge
	requestBytes, requestBytesSize func() int64
	callerCalls                    *prometheus.CounterVec
	callers                        map[string]bool // the callers named in the caller label; see NameCallers
}

// New returns the metrics of a server hosting games (their ids), built as build.
func New(build Build, games []string) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		grpc:     grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(grpcprom.WithHistogramBuckets(callBuckets))),
		games:    slices.Sorted(slices.Values(games)),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rulebook_refusals_total",
			Help: "Calls refused, by game (\"\" when the request was not read, \"unknown\" for a game not hosted), method and reason code."},
			[]string{"game", "method", "reason"}),
		limiterWaits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rulebook_limiter_waits_total",
			Help: "Calls that waited for a limit (heavy_calls)."}, []string{"limit"}),
		limiterRefusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rulebook_limiter_refusals_total",
			Help: "Calls refused by a limit: calls, heavy_calls, request_bytes or caller_calls (a caller's share)."}, []string{"limit"}),
		tokenOpens: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rulebook_token_opens_total",
			Help: "Tokens opened, by result: ok, or the reason the token was refused."}, []string{"result"}),
		chainExplosions: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "rulebook_exploze_chain_explosions",
			Help: "Explosions of each Exploze move applied.", Buckets: append([]float64{0}, prometheus.ExponentialBuckets(1, 4, 10)...)}),
		solverNodes: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "rulebook_solver_nodes",
			Help: "Nodes (pieces placed) that each SolvePuzzle search explored.", Buckets: prometheus.ExponentialBuckets(1, 10, 10)}),
		draining: prometheus.NewGauge(prometheus.GaugeOpts{Name: "rulebook_draining",
			Help: "1 while the server shuts down: it reports NOT_SERVING and lets its calls finish."}),
		httpRequests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rulebook_http_requests_total",
			Help: "REST requests answered, by status code, method and route (the API path template, or \"other\")."},
			[]string{"code", "method", "route"}),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "rulebook_http_request_duration_seconds",
			Help: "Time to answer REST requests, body read included, by status code, method and route.", Buckets: callBuckets},
			[]string{"code", "method", "route"}),
		httpInFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "rulebook_http_requests_in_flight",
			Help: "REST requests being answered."}),
		callerCalls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rulebook_caller_calls_total",
			Help: "RulesService calls answered, by caller (a name the configuration gives, \"anonymous\", or \"other\") and gRPC code."},
			[]string{"caller", "code"}),
	}
	buildInfo := prometheus.NewGauge(prometheus.GaugeOpts{Name: "rulebook_build_info", Help: "Always 1; the labels describe the build.",
		ConstLabels: prometheus.Labels{"version": build.Version, "revision": build.Revision, "goversion": runtime.Version()}})
	buildInfo.Set(1)
	m.registry.MustRegister(m.grpc, m.refusals, m.limiterWaits, m.limiterRefusals, m.tokenOpens, m.chainExplosions,
		m.solverNodes, m.draining, m.httpRequests, m.httpDuration, m.httpInFlight, m.callerCalls, buildInfo,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Counters that alerts watch exist from the start, at 0, so that their first increase counts.
	for _, result := range []string{"ok", seal.ReasonTokenMalformed, seal.ReasonTokenTooLarge, seal.ReasonTokenUnknownKey, seal.ReasonTokenInvalid,
		seal.ReasonTokenVersionUnsupported} {
		m.tokenOpens.WithLabelValues(result)
	}
	m.limiterWaits.WithLabelValues(admission.LimitHeavyCalls)
	for _, limit := range []string{admission.LimitCalls, admission.LimitHeavyCalls, admission.LimitRequestBytes} {
		m.limiterRefusals.WithLabelValues(limit)
	}
	return m
}

// callBuckets are the buckets of call durations, in seconds: from 0.1 ms (a light call takes a fraction of a
// millisecond) to 10 s (the default call timeout).
var callBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// WatchCalls publishes the calls that the limiter holds and how many it may, of every kind (LimitCalls,
// LimitHeavyCalls), as inUse and capacity tell them.
func (m *Metrics) WatchCalls(inUse, capacity func(limit string) int) {
	if m == nil {
		return
	}
	for _, limit := range []string{admission.LimitCalls, admission.LimitHeavyCalls} {
		labels := prometheus.Labels{"limit": limit}
		m.registry.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rulebook_limiter_in_use", ConstLabels: labels,
				Help: "Calls a limit holds now: calls (every RulesService call), heavy_calls (SolvePuzzle, Replay and SuggestMove)."},
				func() float64 { return float64(inUse(limit)) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rulebook_limiter_capacity", ConstLabels: labels,
				Help: "Calls a limit may hold at once."}, func() float64 { return float64(capacity(limit)) }))
	}
}

// WatchRequestBytes publishes the request memory in flight and its limit, as inFlight and limit tell them.
func (m *Metrics) WatchRequestBytes(inFlight, limit func() int64) {
	if m == nil {
		return
	}
	m.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rulebook_request_bytes_in_flight",
			Help: "Memory the requests in flight hold of their budget (their size and an estimate of what they take decoded)."},
			func() float64 { return float64(inFlight()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rulebook_request_bytes_limit",
			Help: "The budget of request memory in flight."}, func() float64 { return float64(limit()) }))
}

// Handler serves the metrics, for GET /metrics (nothing, 404, if m is nil).
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// UnaryServerInterceptor measures unary gRPC calls.
func (m *Metrics) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	if m == nil {
		return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
			return handler(ctx, req)
		}
	}
	return m.grpc.UnaryServerInterceptor()
}

// StreamServerInterceptor measures streaming gRPC calls.
func (m *Metrics) StreamServerInterceptor() grpc.StreamServerInterceptor {
	if m == nil {
		return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
			return handler(srv, ss)
		}
	}
	return m.grpc.StreamServerInterceptor()
}

// InitializeMetrics publishes the gRPC metrics of every method of the services that srv describes, before any call.
func (m *Metrics) InitializeMetrics(srv reflection.ServiceInfoProvider) {
	if m != nil {
		m.grpc.InitializeMetrics(srv)
	}
}

// CallRefused counts a call of method (such as "ApplyMove") of game refused with err: by refusal.Classify's metric
// code, its reason code or the name of its gRPC code when it has none.
func (m *Metrics) CallRefused(game, method string, err error) {
	if m != nil {
		m.refusals.WithLabelValues(m.game(game), method, refusal.Classify(err).Metric).Inc()
	}
}

// NameCallers sets the callers whose names the caller label of rulebook_caller_calls_total takes (those of the
// configuration: a bounded set), every other named caller counted as "other". It is to be called before any call.
func (m *Metrics) NameCallers(names []string) {
	if m == nil {
		return
	}
	m.callers = make(map[string]bool, len(names))
	for _, name := range names {
		m.callers[name] = true
	}
}

// CallAnswered counts a RulesService call of the caller named name (caller.Anonymous: none), answered with err.
func (m *Metrics) CallAnswered(name string, err error) {
	if m == nil {
		return
	}
	label := "other"
	switch {
	case name == caller.Anonymous:
		label = "anonymous"
	case m.callers[name]:
		label = name
	}
	m.callerCalls.WithLabelValues(label, status.Code(err).String()).Inc()
}

// game is the value of the game label for game: itself if hosted, "" if unknown yet, else "unknown".
func (m *Metrics) game(game string) string {
	if _, hosted := slices.BinarySearch(m.games, game); hosted || game == "" {
		return game
	}
	return "unknown"
}

// Draining sets whether the server is shutting down.
func (m *Metrics) Draining(draining bool) {
	if m == nil {
		return
	}
	v := 0.0
	if draining {
		v = 1
	}
	m.draining.Set(v)
}

// TokenOpened counts a token opened, with its result.
func (m *Metrics) TokenOpened(result string) {
	if m != nil {
		m.tokenOpens.WithLabelValues(result).Inc()
	}
}

// MoveApplied observes the explosions of an Exploze move.
func (m *Metrics) MoveApplied(game string, events []*rulebookv1.Event) {
	if m == nil || game != "exploze" {
		return
	}
	explosions := 0
	for _, e := range events {
		explosions += len(e.GetExploze().GetWave().GetExploded())
	}
	m.chainExplosions.Observe(float64(explosions))
}

// PuzzleSearched observes the nodes of a SolvePuzzle search.
func (m *Metrics) PuzzleSearched(nodes int64) {
	if m != nil {
		m.solverNodes.Observe(float64(nodes))
	}
}

// Limits returns what observes the limits' waits and refusals (an admission.Observer).
func (m *Metrics) Limits() Limits { return Limits{m} }

// Limits observes the limits' waits and refusals.
type Limits struct{ m *Metrics }

// Waited counts a call that waited for limit.
func (l Limits) Waited(limit string) {
	if l.m != nil {
		l.m.limiterWaits.WithLabelValues(limit).Inc()
	}
}

// Refused counts a call that limit refused.
func (l Limits) Refused(limit string) {
	if l.m != nil {
		l.m.limiterRefusals.WithLabelValues(limit).Inc()
	}
}

// HTTPInFlight adds delta to the requests of the HTTP listener in flight: 1 as one arrives, -1 once it is answered.
func (m *Metrics) HTTPInFlight(delta float64) {
	if m != nil {
		m.httpInFlight.Add(delta)
	}
}

// HTTPAnswered counts and times a request of method on route (the API's path template, a call's path, or "other"),
// answered with status code after took.
func (m *Metrics) HTTPAnswered(route, method string, code int, took time.Duration) {
	if m == nil {
		return
	}
	status, label := strconv.Itoa(code), methodLabels[method]
	if label == "" {
		label = "other" // a method of the caller's own: the label's values stay bounded
	}
	m.httpRequests.WithLabelValues(status, label, route).Inc()
	m.httpDuration.WithLabelValues(status, label, route).Observe(took.Seconds())
}

// methodLabels are the values of the method label of the methods of HTTP.
var methodLabels = map[string]string{http.MethodGet: "get", http.MethodHead: "head", http.MethodPost: "post",
	http.MethodPut: "put", http.MethodPatch: "patch", http.MethodDelete: "delete", http.MethodConnect: "connect",
	http.MethodOptions: "options", http.MethodTrace: "trace"}
