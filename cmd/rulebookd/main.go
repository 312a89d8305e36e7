// Command rulebookd serves board-game rules over gRPC (RulesService, health, reflection) and REST (the same calls
// through grpc-gateway, with /healthz and /openapi.json). It keeps no state between calls.
//
// With no flags it listens on :50051 (gRPC) and :8080 (HTTP) and logs for people; `rulebookd -h` lists every
// setting and its environment variable. The server itself is package server; this command reads the configuration
// and wires it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"go.uber.org/zap"

	"github.com/rulebook/rulebook/server"
)

func main() {
	if err := start(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "rulebookd:", err)
		os.Exit(1)
	}
}

// start runs the server with the given arguments until SIGTERM or SIGINT (see onSignals).
func start(args []string) error {
	cfg, err := parseConfig(args, os.Getenv, os.Stderr)
	if err != nil {
		return err
	}
	log, err := newLogger(cfg.logFormat, cfg.logLevel)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	if _, err := setMemoryLimit(cfg.memoryLimit, log); err != nil {
		return err
	}
	keys, err := loadKeys(cfg, log)
	if err != nil {
		return err
	}
	srv, err := server.New(cfg.server, log, keys, server.Games()...)
	if err != nil {
		return err
	}

	grpcLis, err := net.Listen("tcp", cfg.grpcAddr)
	if err != nil {
		return fmt.Errorf("gRPC listener: %w", err)
	}
	httpLis, err := net.Listen("tcp", cfg.httpAddr)
	if err != nil {
		grpcLis.Close()
		return fmt.Errorf("HTTP listener: %w", err)
	}
	return srv.Serve(onSignals(srv, log), server.Listeners{GRPC: grpcLis, HTTP: httpLis})
}

// onSignals returns a context done at the first SIGTERM or SIGINT, which drains srv gracefully; a second one stops
// it at once.
func onSignals(srv *server.Server, log *zap.Logger) context.Context {
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, os.Interrupt)
	ctx, drain := context.WithCancel(context.Background())
	go func() {
		log.Info("draining: a second signal stops at once", zap.Stringer("signal", <-signals))
		drain()
		log.Warn("stopping at once", zap.Stringer("signal", <-signals))
		srv.StopNow()
	}()
	return ctx
}
