// Package server is rulebookd as a library: RulesService, health and reflection over gRPC, and the same calls as
// REST (with /healthz and /openapi.json) over HTTP, with one log line per call, panic recovery, limits on calls and
// their size, a deadline for every call, and a graceful shutdown. It keeps no state between calls.
package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
	"github.com/rulebook/rulebook/engine/ubongoduel"
	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/gateway"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// Server is rulebookd: the RulesService, health and reflection over gRPC, and the REST gateway, /healthz and the
// OpenAPI document over HTTP.
type Server struct {
	cfg    Config
	log    *zap.Logger
	grpc   *grpc.Server
	health *health.Server
	budget *admission.Budget // the memory of the requests in flight
}

// New assembles the server hosting games, sealing tokens with keys, logging to log.
func New(cfg Config, log *zap.Logger, keys *seal.Keyring, games ...engine.Game) (*Server, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	rules, err := service.New(log, service.Config{Keys: keys, AcceptPlainStates: cfg.AcceptPlainStates}, games...)
	if err != nil {
		return nil, err
	}
	if cfg.AcceptPlainStates {
		log.Warn("accepting plain states: every caller is trusted with every hidden fact of the games it sends")
	}
	s := &Server{cfg: cfg, log: log, health: newHealth(), budget: admission.NewBudget(cfg.MaxRequestMemory)}
	s.grpc = s.newGRPCServer(rules)
	return s, nil
}

// Serve serves gRPC on grpcLis and HTTP on httpLis until ctx is done or a listener fails, then shuts down
// gracefully: it reports NOT_SERVING, waits the drain delay, and lets the calls in flight finish within the shutdown
// timeout.
func (s *Server) Serve(ctx context.Context, grpcLis, httpLis net.Listener) error {
	conn, err := grpc.NewClient(loopbackTarget(grpcLis.Addr()), gatewayDialOptions(s.cfg)...)
	if err != nil {
		return fmt.Errorf("gateway connection: %w", err)
	}
	defer conn.Close()
	handler, err := gateway.New(ctx, conn, gateway.Options{MaxBodyBytes: s.cfg.MaxMessageBytes, MaxBodies: s.cfg.MaxConcurrentCalls})
	if err != nil {
		return err
	}
	httpServer := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.cfg.CallTimeout + 10*time.Second,
		WriteTimeout:      s.cfg.CallTimeout + 10*time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          zap.NewStdLog(s.log),
	}

	failed := make(chan error, 2)
	go func() { failed <- s.grpc.Serve(grpcLis) }()
	go func() { failed <- httpServer.Serve(httpLis) }()
	s.log.Info("serving", zap.Stringer("grpc", grpcLis.Addr()), zap.Stringer("http", httpLis.Addr()))

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-failed:
		serveErr = fmt.Errorf("serve: %w", serveErr)
	}
	return errors.Join(serveErr, s.shutdown(httpServer))
}

// shutdown stops serving without dropping a call in flight, unless the shutdown timeout runs out.
func (s *Server) shutdown(httpServer *http.Server) error {
	s.log.Info("shutting down: reporting NOT_SERVING", zap.Duration("drainDelay", s.cfg.DrainDelay))
	s.health.Shutdown()
	time.Sleep(s.cfg.DrainDelay)

	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	httpErr := httpServer.Shutdown(ctx) // REST calls in flight still need gRPC, so HTTP stops first
	stopped := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-ctx.Done():
		s.log.Warn("shutdown timeout: cancelling the calls still in flight")
		s.grpc.Stop()
		<-stopped
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

// gatewayDialOptions are the options of the gateway's connection to this process's own gRPC listener.
func gatewayDialOptions(cfg Config) []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(4*cfg.MaxMessageBytes), grpc.MaxCallSendMsgSize(cfg.MaxMessageBytes)),
	}
}

// loopbackTarget is the address at which this process reaches its own listener at addr: an unspecified host
// (":50051", "0.0.0.0", "[::]") becomes localhost.
func loopbackTarget(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// Games returns the games rulebookd hosts.
func Games() []engine.Game {
	return []engine.Game{exploze.Game{}, kipicot.Game{}, micropul.Game{}, ubongoduel.Game{}}
}
