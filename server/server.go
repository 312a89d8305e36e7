// Package server is rulebookd as a library: RulesService, health and reflection over gRPC, and the same calls as
// REST (with /healthz and /openapi.json) over HTTP, bounded against hostile load (a call slot and request memory taken
// only by requests that have arrived, requests read within a deadline at a minimum rate, deadlines from a call's
// arrival, connections capped and closed when idle), with one log line per call, panic recovery, and a graceful
// shutdown behind load balancers; every listener over TLS (and the API's over mutual TLS) if configured, its files
// reloaded as they change. It keeps no state between calls.
package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"golang.org/x/net/netutil"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/hosted"
	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/gateway"
	"github.com/rulebook/rulebook/server/metrics"
	"github.com/rulebook/rulebook/server/play"
	"github.com/rulebook/rulebook/server/tlsfiles"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/rulesserver"
	"github.com/rulebook/rulebook/service/seal"
)

// Server is rulebookd: the RulesService, health and reflection over gRPC, and the REST gateway, /healthz and the
// OpenAPI document over HTTP.
type Server struct {
	cfg     Config
	log     *zap.Logger
	grpc    *grpc.Server
	rules   *service.Service
	rest    restRules // what the REST gateway calls, in process
	health  *health.Server
	budget  *admission.Budget // the memory of the requests in flight
	metrics *metrics.Metrics
	callers callers            // who makes each call, and what it may do
	tls     *tlsfiles.Reloader // nil without TLS
	// draining is set once the server shuts down: every REST answer then closes its connection.
	draining atomic.Bool
	// hurry is done once StopNow is called, which ends a graceful shutdown at once.
	hurry   context.Context
	stopNow context.CancelFunc
}

// Listeners are where a server serves: gRPC, HTTP (REST, /healthz, /openapi.json), and the admin endpoints
// (/healthz, /metrics, and /debug/pprof/ if enabled), which are served only if Admin is not nil.
type Listeners struct {
	GRPC, HTTP, Admin net.Listener
}

// New assembles the server hosting games, sealing tokens with keys, logging to log.
func New(cfg Config, log *zap.Logger, keys *seal.Keyring, games ...engine.Game) (*Server, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.Info().GetId()
	}
	var m *metrics.Metrics // none unless asked for
	if cfg.Metrics {
		m = metrics.New(metrics.Build{Version: cfg.Version, Revision: cfg.Revision}, ids)
	}
	rules, err := service.New(log, service.Config{Keys: keys, AcceptPlainStates: cfg.AcceptPlainStates, Now: cfg.Now,
		PlainStateCallers: cfg.PlainStateCallers, AcceptPlainScopedTokens: cfg.AcceptPlainScopedTokens, SealTokenFormat: cfg.SealTokenFormat,
		Observer: m}, games...)
	if err != nil {
		return nil, err
	}
	if cfg.AcceptPlainStates {
		log.Warn("accepting plain states: every caller is trusted with every hidden fact of the games it sends")
	}
	s := &Server{cfg: cfg, log: log, rules: rules, health: newHealth(), metrics: m, callers: newCallers(cfg, m),
		budget: admission.NewBudget(cfg.requestMemory(), m.Limits())}
	if cfg.TLS.Enabled() {
		if s.tls, err = tlsfiles.Load(cfg.TLS, log); err != nil {
			return nil, err
		}
	}
	m.WatchRequestBytes(s.budget.InFlight, s.budget.Limit)
	s.hurry, s.stopNow = context.WithCancel(context.Background())
	guard, limit := s.admission()
	served := rulesserver.New(rules)
	s.grpc = s.newGRPCServer(served, guard, limit)
	s.rest = restRules{rules: served, admit: chainUnary(guard, limit), workers: make(workers)}
	return s, nil
}

// WarmUp pays, before the server serves, what the first calls of a fresh process would pay otherwise (see
// service.Service.WarmUp), so that the first suggestion costs what a later one does; rulebookd warms up before it
// listens, and so before it reports ready.
func (s *Server) WarmUp() error {
	began := time.Now()
	if err := s.rules.WarmUp(); err != nil {
		return err
	}
	s.log.Info("warmed up", zap.Duration("took", time.Since(began)))
	return nil
}

// Serve serves on l until ctx is done or a listener fails, then shuts down gracefully: it reports NOT_SERVING and
// closes every REST connection after its answer for the drain delay, then stops taking calls (gRPC clients get
// GOAWAY) and lets the calls in flight finish within the shutdown timeout. StopNow ends that wait at once. Each
// listener takes at most its configured number of connections at once. With TLS, every listener serves TLS, whose
// files are read again every tlsReloadInterval until Serve returns.
func (s *Server) Serve(ctx context.Context, l Listeners) error {
	stopWorkers := make(chan struct{})
	defer close(stopWorkers)
	if s.tls != nil {
		defer s.watchTLS()()
	}
	s.rest.workers.serve(s.cfg.MaxConcurrentCalls, stopWorkers)
	gw, err := gateway.New(ctx, s.rest, localHealth{s.health}, gateway.Options{MaxBodyBytes: s.cfg.MaxMessageBytes,
		Budget: s.budget, ReadTime: s.cfg.readTime, CallTimeout: s.cfg.CallTimeout, Log: s.log, Refused: s.metrics.CallRefused})
	if err != nil {
		return err
	}
	handler, err := s.restHandler(gw)
	if err != nil {
		return err
	}
	httpServer := &http.Server{
		Handler: handler,
		// The headers within the read time of their largest size, the body as it arrives (gateway.ReadBody), the
		// answer within answerTimeout.
		ReadHeaderTimeout: s.cfg.readTime(maxHeaderBytes),
		MaxHeaderBytes:    maxHeaderBytes,
		IdleTimeout:       s.cfg.IdleTimeout,
		ErrorLog:          zap.NewStdLog(s.log),
		// Over TLS, HTTP/2 (by ALPN) bounds the calls of a connection as gRPC does.
		HTTP2: &http.HTTP2Config{MaxConcurrentStreams: int(s.cfg.MaxStreamsPerConnection)},
	}
	var admin *http.Server

	failed := make(chan error, 4)
	go func() { failed <- s.grpc.Serve(netutil.LimitListener(l.GRPC, s.cfg.MaxGRPCConnections)) }()
	go func() {
		failed <- s.serveHTTP(httpServer, netutil.LimitListener(l.HTTP, s.cfg.MaxHTTPConnections), true)
	}()
	scheme := "http://"
	if s.tls != nil {
		scheme = "https://"
	}
	rest := scheme + clientAddress(l.HTTP.Addr())
	fields := []zap.Field{zap.String("playground", rest+play.Prefix), zap.String("rest", rest),
		zap.String("grpc", clientAddress(l.GRPC.Addr()))}
	if l.Admin != nil {
		admin = s.adminServer(gw)
		go func() { failed <- s.serveHTTP(admin, l.Admin, false) }()
		fields = append(fields, zap.String("admin", scheme+clientAddress(l.Admin.Addr())), zap.Bool("pprof", s.cfg.Pprof))
	}
	fields = append(fields, zap.Bool("tls", s.tls != nil), zap.Bool("mutualTLS", s.tls != nil && s.tls.MutualTLS()))
	if s.tls != nil {
		fields = append(fields, zap.Dict("certificate", s.tls.LogFields()...))
	}
	s.log.Info("serving", append(fields, zap.String("version", s.cfg.Version), zap.Bool("tracing", s.cfg.Tracing != nil))...)

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-failed:
		serveErr = fmt.Errorf("serve: %w", serveErr)
	}
	return errors.Join(serveErr, s.shutdown(httpServer, admin))
}

// clientAddress returns the address by which a client on this host reaches a listener at a: a itself, but localhost
// for a host that stands for every interface (":8080" listens at [::]:8080, which a client reaches at localhost:8080).
func clientAddress(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// tlsReloadInterval is how often the TLS files are read again, to take a rotated certificate.
const tlsReloadInterval = time.Second

// watchTLS reloads the TLS files every tlsReloadInterval until the function it returns is called, which returns
// once the reloading has stopped.
func (s *Server) watchTLS() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		s.tls.Watch(ctx, tlsReloadInterval)
	}()
	return func() {
		cancel()
		<-stopped
	}
}

// serveHTTP serves srv on l, over TLS if the server has TLS: HTTP/2 or HTTP/1.1 by ALPN, a client certificate
// required if clientCerts is true and mutual TLS is on.
func (s *Server) serveHTTP(srv *http.Server, l net.Listener, clientCerts bool) error {
	if s.tls == nil {
		return srv.Serve(l)
	}
	srv.TLSConfig = s.tls.ServerConfig(clientCerts, "h2", "http/1.1")
	return srv.ServeTLS(l, "", "")
}

// StopNow ends a graceful shutdown at once, cancelling the calls still in flight (as a second SIGTERM or Ctrl-C
// does); before a shutdown has begun, it makes the next one immediate.
func (s *Server) StopNow() { s.stopNow() }

// shutdown stops serving without dropping a call in flight, unless the shutdown timeout runs out or StopNow is
// called. While it waits, every REST answer says Connection: close, so that a proxy never sends another request on
// a connection that is about to close (idle connections are left open until the drain delay is over, as closing them
// at once would race the proxy reusing them); gRPC clients are told GOAWAY when the server stops taking calls.
// The admin server, if not nil, goes on answering (metrics of the drain) until the calls are done.
func (s *Server) shutdown(httpServer, admin *http.Server) error {
	s.log.Info("shutting down: reporting NOT_SERVING", zap.Duration("drainDelay", s.cfg.DrainDelay))
	s.health.Shutdown()
	s.metrics.Draining(true)
	s.draining.Store(true)
	select {
	case <-time.After(s.cfg.DrainDelay):
	case <-s.hurry.Done():
	}

	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	defer context.AfterFunc(s.hurry, cancel)()
	httpErr := httpServer.Shutdown(ctx)
	stopped := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		s.log.Warn("shutdown cut short: cancelling the calls still in flight")
		_ = httpServer.Close()
		s.grpc.Stop() // GracefulStop still waits for the handlers it cancelled; this server does not
		httpErr = nil // the calls the shutdown timeout or StopNow cancelled are what that is for
	}
	if admin != nil {
		_ = admin.Close()
	}
	s.log.Info("stopped")
	if httpErr != nil {
		return fmt.Errorf("http shutdown: %w", httpErr)
	}
	return nil
}

// recovered logs a panic in a handler and answers the call with INTERNAL; the process goes on.
func (s *Server) recovered(p any) error {
	s.log.Error("panic in handler", zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
	return service.ErrInternal
}

// Games returns the games rulebookd hosts: hosted.Games, which the WebAssembly module hosts too.
func Games() []engine.Game {
	return hosted.Games()
}
