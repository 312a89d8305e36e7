package server

import (
	"context"
	"net/http"
	"net/http/pprof"
	"time"
	"unicode/utf8"

	"github.com/felixge/httpsnoop"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/rulebook/rulebook/server/gateway"
)

// headerTimeout bounds how long an HTTP client may take to send a request's headers (an HTTP connection holds one
// of the listener's places until then).
const headerTimeout = 10 * time.Second

// maxLoggedBytes bounds what an access log line repeats of a request (its path, its X-Forwarded-For).
const maxLoggedBytes = 256

// answerTimeout is how long a client has to take an answer from the moment the server starts writing it.
const answerTimeout = 10 * time.Second

// restHandler returns the REST API's handler: gw, with its metrics, one access log line per request, tracing if
// configured, a write deadline from the moment the answer is written, and Connection: close while draining. Each
// request's route is found once, for all of them.
func (s *Server) restHandler(gw *gateway.Gateway) http.Handler {
	h := s.answering(s.accessLog(s.metrics.HTTP(gw, routeOf), routeOf))
	if t := s.cfg.Tracing; t != nil {
		h = otelhttp.NewHandler(h, "rest", otelhttp.WithTracerProvider(t.Provider), otelhttp.WithPropagators(t.Propagator),
			otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method + " " + routeOf(r) }))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), routeKey{}, gw.Route(r))))
	})
}

// routeKey is the context key of a REST request's route.
type routeKey struct{}

// routeOf returns the route of a request that restHandler serves.
func routeOf(r *http.Request) string { return r.Context().Value(routeKey{}).(string) }

// accessLog returns next with one log line for each request it answers: method, path, route (as route tells it),
// status, bytes written, duration, client address (and X-Forwarded-For), and the trace id (of the request's span,
// or else of the traceparent it came with). Health checks are logged at debug level, the server's own failures (5xx)
// at error, the rest at info.
func (s *Server) accessLog(next http.Handler, route func(*http.Request) string) http.Handler {
	traceContext := propagation.TraceContext{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := httpsnoop.CaptureMetrics(next, w, r)
		level := zapcore.InfoLevel
		switch {
		case m.Code >= http.StatusInternalServerError:
			level = zapcore.ErrorLevel
		case r.URL.Path == "/healthz":
			level = zapcore.DebugLevel
		}
		if ce := s.log.Check(level, "request"); ce != nil {
			span := trace.SpanContextFromContext(r.Context())
			if !span.IsValid() {
				span = trace.SpanContextFromContext(traceContext.Extract(r.Context(), propagation.HeaderCarrier(r.Header)))
			}
			fields := []zap.Field{zap.String("method", bounded(r.Method)), zap.String("path", bounded(r.URL.Path)),
				zap.String("route", route(r)), zap.Int("status", m.Code), zap.Int64("bytes", m.Written),
				zap.Duration("duration", m.Duration), zap.String("client", r.RemoteAddr)}
			if forwarded := r.Header.Get("X-Forwarded-For"); forwarded != "" {
				fields = append(fields, zap.String("forwardedFor", bounded(forwarded)))
			}
			if span.IsValid() {
				fields = append(fields, zap.Stringer("traceId", span.TraceID()))
			}
			ce.Write(fields...)
		}
	})
}

// answering returns next, whose answers, from the moment each starts: have a write deadline of answerTimeout, so
// that a slow client cannot hold a connection by not reading its answer while an answer that took long to compute
// (under load, past the call's deadline) is still written; and say Connection: close once the server shuts down,
// even for a call that began before.
func (s *Server) answering(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		_ = rc.SetWriteDeadline(time.Time{}) // none while the request is read: an earlier answer's is over
		started := false
		start := func() {
			if started {
				return
			}
			started = true
			_ = rc.SetWriteDeadline(time.Now().Add(answerTimeout))
			if s.draining.Load() {
				w.Header().Set("Connection", "close")
			}
		}
		next.ServeHTTP(httpsnoop.Wrap(w, httpsnoop.Hooks{
			WriteHeader: func(next httpsnoop.WriteHeaderFunc) httpsnoop.WriteHeaderFunc {
				return func(code int) { start(); next(code) }
			},
			Write: func(next httpsnoop.WriteFunc) httpsnoop.WriteFunc {
				return func(b []byte) (int, error) { start(); return next(b) }
			},
		}), r)
	})
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

// adminServer returns the server of the admin endpoints: GET /metrics, and the runtime's profiles at /debug/pprof/
// if Pprof is set. They are for the operator's network only: nothing limits them as the API is limited.
func (s *Server) adminServer() *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.Handler())
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
