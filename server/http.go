package server

import (
	"context"
	"io"
	"net/http"
	"net/http/pprof"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/felixge/httpsnoop"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/gateway"
	"github.com/rulebook/rulebook/server/play"
	"github.com/rulebook/rulebook/service/caller"
)

// headerTimeout bounds how long a client of the admin listener may take to send a request's headers.
const headerTimeout = 10 * time.Second

// maxHeaderBytes is the most a request's headers may take on the HTTP listener (a request with more is answered 431
// by net/http): a call's headers are a few hundred bytes. Their read time is that of this many bytes
// (Config.readTime), so that a client that sends its headers slowly holds its connection only so long.
const maxHeaderBytes = 64 << 10

// maxLoggedBytes bounds what an access log line repeats of a request (its path, its X-Forwarded-For).
const maxLoggedBytes = 256

// answerTimeout is how long a client has to take an answer from the moment the server starts writing it.
const answerTimeout = 10 * time.Second

// restHandler returns the HTTP listener's handler: the REST API, gw, RulesService's calls over Connect and
// gRPC-Web (rpcHandler), and the web playground under play.Prefix (/play redirected there, and GET or HEAD / by 302
// Found: the root is no resource of its own, only the way in for a person, which may point elsewhere one day without
// browsers having cached a permanent redirect; other methods on / are REST's 404), each with its metrics, one
// access log line per request, tracing if configured, a write deadline from the moment the answer is written,
// Connection: close while draining, and CORS for the configured origins (newCORS; not the playground, which calls
// its own origin). A call's route is its path ("/rulebook.v1.RulesService/ApplyMove"), the playground's play.Prefix,
// each found once, picking the handler built for it when the server started; a REST request's route is the template
// of its path, which the gateway's router finds as it serves the request (gateway.WithRouteSlot).
func (s *Server) restHandler(gw *gateway.Gateway) (http.Handler, error) {
	rpc, err := s.rpcHandler()
	if err != nil {
		return nil, err
	}
	cors := newCORS(s.cfg.CORSOrigins)
	byPath := map[string]http.Handler{}
	for _, route := range rpcRoutes() {
		byPath[route] = s.routeHandler(cors(rpc), route)
	}
	pg, err := play.New(gw.Refuse)
	if err != nil {
		return nil, err
	}
	playground := s.routeHandler(pg, play.Prefix)
	byPath[strings.TrimSuffix(play.Prefix, "/")] = s.routeHandler(http.RedirectHandler(play.Prefix, http.StatusMovedPermanently), play.Prefix)
	rest := s.routeHandler(cors(restTimeout(gw)), gatewayRoute)
	home := s.routeHandler(http.RedirectHandler(play.Prefix, http.StatusFound), "/")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = s.callers.identified(r)
		if r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			home.ServeHTTP(w, r)
			return
		}
		if h, ok := byPath[r.URL.Path]; ok {
			h.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, play.Prefix) {
			playground.ServeHTTP(w, r)
			return
		}
		rest.ServeHTTP(w, r)
	}), nil
}

// gatewayRoute is the route of routeHandler's requests whose route the gateway's router finds.
const gatewayRoute = ""

// restTimeout returns gw, to which a REST request passes only if its grpc-timeout, which grpc-gateway takes as the
// call's deadline, is one: else it is refused MALFORMED_TIMEOUT (400), as the gateway answers a refusal.
func restTimeout(gw *gateway.Gateway) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := malformedTimeout(r.Header, grpcTimeoutHeader); err != nil {
			gw.Refuse(w, r, err)
			return
		}
		gw.ServeHTTP(w, r)
	})
}

// routeHandler returns the handler of the requests on route (gatewayRoute: the route that the gateway finds): h,
// answered (its metrics, an access line, the write deadline, Connection: close while draining) and, if tracing is
// on, in a span named by method and route (otelhttp is left out when tracing is off: a no-op tracer still costs).
func (s *Server) routeHandler(h http.Handler, route string) http.Handler {
	h = s.answering(h, route)
	if t := s.cfg.Tracing; t != nil {
		h = otelhttp.NewHandler(h, "rest", otelhttp.WithTracerProvider(t.Provider), otelhttp.WithPropagators(t.Propagator),
			otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method + " " + route }))
	}
	return h
}

// answering returns next, whose answers, from the moment each starts: have a write deadline of answerTimeout, so
// that a slow client cannot hold a connection by not reading its answer while an answer that took long to compute
// (under load, past the call's deadline) is still written; and say Connection: close once the server shuts down,
// even for a call that began before. Each request answered is counted and timed in the metrics and has an access
// line (logAccess), of route; for gatewayRoute, of the route the gateway found, which then also names the span.
func (s *Server) answering(next http.Handler, route string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		began := time.Now()
		s.metrics.HTTPInFlight(1)
		defer s.metrics.HTTPInFlight(-1)
		found := &route
		if route == gatewayRoute {
			var ctx context.Context
			ctx, found = gateway.WithRouteSlot(r.Context())
			r = r.WithContext(ctx)
		}
		a := &answer{rc: http.NewResponseController(w), header: w.Header, draining: s.draining.Load}
		_ = a.rc.SetWriteDeadline(time.Time{}) // none while the request is read: an earlier answer's is over
		next.ServeHTTP(httpsnoop.Wrap(w, httpsnoop.Hooks{
			WriteHeader: func(next httpsnoop.WriteHeaderFunc) httpsnoop.WriteHeaderFunc {
				return func(code int) { a.start(code); next(code) }
			},
			Write: func(next httpsnoop.WriteFunc) httpsnoop.WriteFunc {
				return func(b []byte) (int, error) {
					a.start(http.StatusOK)
					n, err := next(b)
					a.written += int64(n)
					return n, err
				}
			},
			ReadFrom: func(next httpsnoop.ReadFromFunc) httpsnoop.ReadFromFunc {
				return func(src io.Reader) (int64, error) {
					a.start(http.StatusOK)
					n, err := next(src)
					a.written += n
					return n, err
				}
			},
		}), r)
		if a.code == 0 {
			a.code = http.StatusOK // nothing written: net/http answers 200
		}
		if route == gatewayRoute {
			trace.SpanFromContext(r.Context()).SetName(r.Method + " " + *found)
		}
		took := time.Since(began)
		s.metrics.HTTPAnswered(*found, r.Method, a.code, took)
		s.logAccess(r, *found, a.code, a.written, took)
	})
}

// answer is what answering follows of one answer: its status code (0 until it starts) and the bytes of its body
// written.
type answer struct {
	rc       *http.ResponseController
	header   func() http.Header
	draining func() bool
	code     int
	written  int64
}

// start starts the answer, with status code, unless it has started: sets its write deadline, and Connection: close
// if the server is shutting down.
func (a *answer) start(code int) {
	if a.code != 0 {
		return
	}
	a.code = code
	_ = a.rc.SetWriteDeadline(time.Now().Add(answerTimeout))
	if a.draining() {
		a.header().Set("Connection", "close")
	}
}

// logAccess writes the access line of r, a request on route answered with status code and written bytes in
// duration: method, path, route, status, bytes, duration, client address (and X-Forwarded-For), the caller's name (of
// a named caller), and the trace id (of the request's span, or else of the traceparent it came with); at the level
// that refusal.Level gives code, health checks answered at debug level. The line is built only if the logger writes
// it.
func (s *Server) logAccess(r *http.Request, route string, code int, written int64, duration time.Duration) {
	level := refusal.Level(code)
	if r.URL.Path == "/healthz" && level == zapcore.InfoLevel {
		level = zapcore.DebugLevel
	}
	ce := s.log.Check(level, "request")
	if ce == nil {
		return
	}
	span := trace.SpanContextFromContext(r.Context())
	if !span.IsValid() {
		span = trace.SpanContextFromContext(propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header)))
	}
	fields := []zap.Field{zap.String("method", bounded(r.Method)), zap.String("path", bounded(r.URL.Path)),
		zap.String("route", route), zap.Int("status", code), zap.Int64("bytes", written),
		zap.Duration("duration", duration), zap.String("client", r.RemoteAddr)}
	if name := caller.Name(r.Context()); name != caller.Anonymous {
		fields = append(fields, zap.String("caller", bounded(name)))
	}
	if forwarded := r.Header.Get("X-Forwarded-For"); forwarded != "" {
		fields = append(fields, zap.String("forwardedFor", bounded(forwarded)))
	}
	if span.IsValid() {
		fields = append(fields, zap.Stringer("traceId", span.TraceID()))
	}
	ce.Write(fields...)
}

// bounded returns s cut to maxLoggedBytes, valid UTF-8.
func bounded(s string) string {
	if len(s) > maxLoggedBytes {
		s = s[:maxLoggedBytes]
	}
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // each invalid byte becomes U+FFFD
	}
	return s
}

// adminServer returns the server of the admin endpoints: GET /metrics, GET /healthz as gw serves it (for the
// kubelet's probes, which present no client certificate: the admin listener never asks for one), and the runtime's
// profiles at /debug/pprof/ if Pprof is set. They are for the operator's network only: nothing limits them as the
// API is limited.
func (s *Server) adminServer(gw *gateway.Gateway) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.Handler())
	mux.Handle("GET /healthz", gw)
	if s.cfg.Pprof {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	return &http.Server{Handler: mux, ReadHeaderTimeout: headerTimeout, IdleTimeout: s.cfg.IdleTimeout,
		ErrorLog: zap.NewStdLog(s.log)}
}
