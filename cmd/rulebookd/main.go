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
	"runtime"
	"slices"
	"strings"
	"syscall"

	"go.uber.org/zap"

	"github.com/rulebook/rulebook/server"
	"github.com/rulebook/rulebook/server/identity"
	"github.com/rulebook/rulebook/server/tracing"
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
	cfg, err := configFromEnvironment(args)
	if err != nil {
		return err
	}
	if cfg.version {
		fmt.Println(strings.Join(slices.DeleteFunc([]string{"rulebookd", cfg.server.Version, cfg.server.Revision, runtime.Version()},
			func(s string) bool { return s == "" }), " "))
		return nil
	}
	log, err := newLogger(cfg.logFormat, cfg.logLevel, cfg.logSampling)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	if cfg.server.Tracing, err = tracing.FromEnv(context.Background(), cfg.server.Version); err != nil {
		return err
	}
	if t := cfg.server.Tracing; t != nil {
		defer func() { _ = t.Provider.Shutdown(context.Background()) }() // exports the spans left
	}
	if _, err := setMemoryLimit(cfg.memoryLimit, log); err != nil {
		return err
	}
	keys, err := loadKeys(cfg, log)
	if err != nil {
		return err
	}
	if cfg.apiKeysFile != "" {
		if cfg.server.APIKeys, err = identity.LoadKeyFile(cfg.apiKeysFile); err != nil {
			return fmt.Errorf("API keys file: %w", err)
		}
		log.Info("API keys from a file", zap.String("file", cfg.apiKeysFile), zap.Strings("callers", cfg.server.APIKeys.Names()))
	}
	if cfg.server.Now != nil {
		log.Warn("fixed clock: for conformance tests only", zap.String("now", cfg.fixedClock))
	}
	srv, err := server.New(cfg.server, log, keys, server.Games()...)
	if err != nil {
		return err
	}
	if err := srv.WarmUp(); err != nil {
		return err
	}

	listeners, err := listen(cfg)
	if err != nil {
		return err
	}
	return srv.Serve(onSignals(srv, log), listeners)
}

// configFromEnvironment returns the configuration of args and the process's environment, from which it removes
// RULEBOOK_STATE_KEYS once read: neither a child process nor a later os.Getenv or os.Environ gets the keys. (The
// kernel still shows the environment the process started with in /proc/<pid>/environ, to its user and root.)
func configFromEnvironment(args []string) (config, error) {
	cfg, err := parseConfig(args, os.Getenv, os.Stderr)
	if unsetErr := os.Unsetenv(stateKeysEnv); unsetErr != nil {
		return config{}, fmt.Errorf("removing %s from the environment: %w", stateKeysEnv, unsetErr)
	}
	return cfg, err
}

// listen opens the listeners of cfg: gRPC, HTTP, and admin unless its address is empty.
func listen(cfg config) (server.Listeners, error) {
	var l server.Listeners
	var err error
	if l.GRPC, err = net.Listen("tcp", cfg.grpcAddr); err != nil {
		return l, fmt.Errorf("gRPC listener: %w", err)
	}
	if l.HTTP, err = net.Listen("tcp", cfg.httpAddr); err != nil {
		l.GRPC.Close()
		return l, fmt.Errorf("HTTP listener: %w", err)
	}
	if cfg.adminAddr != "" {
		if l.Admin, err = net.Listen("tcp", cfg.adminAddr); err != nil {
			l.GRPC.Close()
			l.HTTP.Close()
			return l, fmt.Errorf("admin listener: %w", err)
		}
	}
	return l, nil
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
