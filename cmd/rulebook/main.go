// Command rulebook is the command-line client of rulebookd: each command calls a RulesService (most make one call)
// and reads and writes games, moves and scores in JSON, with the rulebook.v1 messages in protobuf JSON
// (lowerCamelCase field names), so that commands compose in shell pipelines and files:
//
//	rulebook new exploze -options '{"exploze":{"rows":3,"cols":3}}' > start.json
//	rulebook legal exploze < start.json
//	rulebook apply exploze -move '{"player":1,"exploze":{"row":0,"col":0}}' < start.json > next.json
//	cat start.json next.json | rulebook replay exploze
//	rulebook selfplay exploze -seed 7
//	rulebook play exploze
//
// A game travels as the server hands it out: a plain state, from a server that accepts plain states, or a token
// with seat passes, from one that accepts only tokens (rulebookd's default). new prints every seat's pass, and the
// commands that act for a seat pick its pass from their input, so the pipeline above works with both; -pass gives a
// pass of the caller's own.
//
// `rulebook -h` lists the commands and flags. The exit status is 0 on success, 1 when a call fails or is refused,
// and 2 for a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
)

// Exit statuses.
const (
	exitOK      = 0
	exitRefused = 1 // a call failed or was refused, or its input could not be read
	exitUsage   = 2 // the command line is wrong
)

// defaultAddr is the server address when neither -addr nor RULEBOOK_ADDR gives one.
const defaultAddr = "localhost:50051"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs rulebook with args (without the program name) and returns its exit status. Results go to stdout;
// errors, usage and the events of apply -events go to stderr; help asked for with -h goes to stdout.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rulebook", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // run prints every message itself
	addr := defaultAddr
	if env := os.Getenv("RULEBOOK_ADDR"); env != "" {
		addr = env
	}
	fs.StringVar(&addr, "addr", addr, "server to call, as `host:port` (env RULEBOOK_ADDR)")
	timeout := fs.Duration("timeout", 10*time.Second, "longest wait for each call")
	var tlsFlags tlsFlags
	tlsFlags.bind(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout, fs)
			return exitOK
		}
		return usageFailed(stderr, err)
	}
	if *timeout <= 0 {
		return usageFailed(stderr, errors.New("-timeout must be positive"))
	}
	if fs.NArg() == 0 {
		printUsage(stderr, fs)
		return exitUsage
	}
	name, rest := fs.Arg(0), fs.Args()[1:]
	if name == "help" { // help, or help COMMAND as COMMAND -h
		if len(rest) == 0 {
			printUsage(stdout, fs)
			return exitOK
		}
		name, rest = rest[0], []string{"-h"}
	}
	cmd := lookup(name)
	if cmd == nil {
		return usageFailed(stderr, fmt.Errorf("unknown command %q", name))
	}

	cfs := flag.NewFlagSet("rulebook "+cmd.name, flag.ContinueOnError)
	cfs.SetOutput(io.Discard)
	act := cmd.setup(cfs)
	positional, err := parseInterleaved(cfs, rest)
	if errors.Is(err, flag.ErrHelp) {
		cmd.printHelp(stdout, cfs)
		return exitOK
	}
	if err == nil {
		err = cmd.checkArgs(positional)
	}
	if err != nil {
		return cmd.usageFailed(stderr, err)
	}

	creds, err := tlsFlags.credentials()
	if err != nil {
		return usageFailed(stderr, err)
	}
	key := os.Getenv(apiKeyEnv)
	if key != "" && !tlsFlags.enabled() {
		return usageFailed(stderr, errors.New(apiKeyEnv+" is sent over TLS only: add -tls (or -tls-ca-file)"))
	}
	conn, err := dial(addr, creds, *timeout, key)
	if err != nil {
		return usageFailed(stderr, fmt.Errorf("-addr %q: %w", addr, err))
	}
	defer conn.Close()
	e := &env{client: rulebookv1grpc.NewRulesServiceClient(conn), timeout: *timeout, stdin: stdin, stdout: stdout,
		stderr: stderr}
	if cmd.game {
		e.game = positional[0]
	}
	err = act(ctx, e)
	var usage *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &usage):
		return cmd.usageFailed(stderr, usage.err)
	}
	fmt.Fprintf(stderr, "rulebook: %s\n", describe(err))
	return exitRefused
}

// usageFailed reports a usage error of the command line before the command and returns exitUsage.
func usageFailed(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "rulebook: %v\nRun 'rulebook -h' for usage.\n", err)
	return exitUsage
}

// parseInterleaved parses fs from args, which may mix flags and positional arguments ("new exploze -seed 3" as well
// as "new -seed 3 exploze"), and returns the positional arguments. Everything after "--" is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(positional, rest...), nil
		}
		positional, args = append(positional, rest[0]), rest[1:]
	}
}
