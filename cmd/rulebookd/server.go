package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// server is rulebookd: the RulesService, health and reflection over gRPC, and the REST gateway, /healthz and the
// OpenAPI document over HTTP.
type server struct {
	cfg    config
	log    *zap.Logger
	grpc   *grpc.Server
	health *health.Server
}

// newServer assembles the gRPC server hosting games, sealing tokens with keys, with its interceptors: one log line
// per call, panic recovery, limits on concurrent calls, and the per-call deadline.
func newServer(cfg config, log *zap.Logger, keys *seal.Keyring, games ...engine.Game) (*server, error) {
	rules, err := service.New(log, service.Config{Keys: keys, AcceptPlainStates: cfg.acceptPlainStates}, games...)
	if err != nil {
		return nil, err
	}
	if cfg.acceptPlainStates {
		log.Warn("accepting plain states: every caller is trusted with every hidden fact of the games it sends")
	}
	s := &server{cfg: cfg, log: log, health: health.NewServer()}
	s.grpc = grpc.NewServer(
		grpc.MaxRecvMsgSize(cfg.maxMessageBytes),
		grpc.ChainUnaryInterceptor(
			logging.UnaryServerInterceptor(callLogger(log), logging.WithLogOnEvents(logging.FinishCall)),
			recovery.UnaryServerInterceptor(recovery.WithRecoveryHandler(s.recovered)),
			deadline(cfg.callTimeout),
			newLimiter(cfg.maxConcurrentCalls, cfg.maxHeavyCalls).intercept,
		),
	)
	rulebookv1.RegisterRulesServiceServer(s.grpc, rules)
	healthpb.RegisterHealthServer(s.grpc, s.health)
	reflection.Register(s.grpc)
	s.health.SetServingStatus(rulebookv1.RulesService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	return s, nil
}

// run serves gRPC on grpcLis and HTTP on httpLis until ctx is done or a listener fails, then shuts down gracefully:
// it reports NOT_SERVING, waits the drain delay, and lets the calls in flight finish within the shutdown timeout.
func (s *server) run(ctx context.Context, grpcLis, httpLis net.Listener) error {
	conn, err := grpc.NewClient(loopbackTarget(grpcLis.Addr()), gatewayDialOptions(s.cfg)...)
	if err != nil {
		return fmt.Errorf("gateway connection: %w", err)
	}
	defer conn.Close()
	handler, err := newGateway(ctx, conn, s.cfg.maxMessageBytes, s.cfg.maxConcurrentCalls)
	if err != nil {
		return err
	}
	httpServer := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.cfg.callTimeout + 10*time.Second,
		WriteTimeout:      s.cfg.callTimeout + 10*time.Second,
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
func (s *server) shutdown(httpServer *http.Server) error {
	s.log.Info("shutting down: reporting NOT_SERVING", zap.Duration("drainDelay", s.cfg.drainDelay))
	s.health.Shutdown()
	time.Sleep(s.cfg.drainDelay)

	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.shutdownTimeout)
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
func (s *server) recovered(p any) error {
	s.log.Error("panic in handler", zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
	return service.ErrInternal
}

// deadline bounds every call by limit; a caller's shorter deadline still wins.
func deadline(limit time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		return handler(ctx, req)
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
