package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"
)

// config is everything rulebookd can be told. Each setting comes from its flag, else its environment variable,
// else its default.
type config struct {
	grpcAddr        string
	httpAddr        string
	logFormat       string
	logLevel        string
	maxMessageBytes int
	callTimeout     time.Duration
	drainDelay      time.Duration
	shutdownTimeout time.Duration
}

// setting describes one configuration value: its flag, its environment variable and its default.
type setting struct {
	flag, env, def, usage string
	bind                  func(fs *flag.FlagSet, name, def, usage string) error
}

// parseConfig reads the configuration from args (without the program name) and the environment through getenv.
func parseConfig(args []string, getenv func(string) string, output io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("rulebookd", flag.ContinueOnError)
	fs.SetOutput(output)
	settings := []setting{
		{"grpc-addr", "RULEBOOK_GRPC_ADDR", ":50051", "address for gRPC", stringVar(&cfg.grpcAddr)},
		{"http-addr", "RULEBOOK_HTTP_ADDR", ":8080", "address for REST, /healthz and /openapi.json", stringVar(&cfg.httpAddr)},
		{"log-format", "RULEBOOK_LOG_FORMAT", "console", "log format: console (for people) or json (for production)", stringVar(&cfg.logFormat)},
		{"log-level", "RULEBOOK_LOG_LEVEL", "info", "least severe level logged: debug, info, warn or error", stringVar(&cfg.logLevel)},
		{"max-message-bytes", "RULEBOOK_MAX_MESSAGE_BYTES", "4194304", "largest request accepted, in bytes (gRPC message or REST body)", intVar(&cfg.maxMessageBytes)},
		{"call-timeout", "RULEBOOK_CALL_TIMEOUT", "10s", "longest time a call may take; a caller's shorter deadline wins", durationVar(&cfg.callTimeout)},
		{"drain-delay", "RULEBOOK_DRAIN_DELAY", "0s", "on SIGTERM, time spent reporting NOT_SERVING before refusing new calls", durationVar(&cfg.drainDelay)},
		{"shutdown-timeout", "RULEBOOK_SHUTDOWN_TIMEOUT", "20s", "on SIGTERM, longest wait for calls in flight to finish", durationVar(&cfg.shutdownTimeout)},
	}
	for _, s := range settings {
		def := s.def
		if v := getenv(s.env); v != "" {
			def = v
		}
		if err := s.bind(fs, s.flag, def, fmt.Sprintf("%s (env %s)", s.usage, s.env)); err != nil {
			return config{}, fmt.Errorf("%s=%q: %w", s.env, def, err)
		}
	}
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	return cfg, cfg.check()
}

// check reports settings that parse but make no sense.
func (c config) check() error {
	switch {
	case c.logFormat != "console" && c.logFormat != "json":
		return fmt.Errorf("log format %q: want console or json", c.logFormat)
	case c.maxMessageBytes < 1024:
		return fmt.Errorf("max message bytes %d: want at least 1024", c.maxMessageBytes)
	case c.callTimeout <= 0:
		return errors.New("call timeout must be positive")
	case c.drainDelay < 0 || c.shutdownTimeout < 0:
		return errors.New("drain delay and shutdown timeout must not be negative")
	}
	return nil
}

// stringVar binds a string setting to p.
func stringVar(p *string) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		fs.StringVar(p, name, def, usage)
		return nil
	}
}

// intVar binds an integer setting to p.
func intVar(p *int) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		v, err := strconv.Atoi(def)
		fs.IntVar(p, name, v, usage)
		return err
	}
}

// durationVar binds a duration setting (such as 10s) to p.
func durationVar(p *time.Duration) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		v, err := time.ParseDuration(def)
		fs.DurationVar(p, name, v, usage)
		return err
	}
}
