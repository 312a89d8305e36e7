// Package clienttest runs rulebook's clients from other languages in Go tests: it finds Node.js and the npm packages
// of clients/ (installed by `npm ci` there), and Chromium for pages, serves the real server on loopback, and runs a
// Node program against it. Without Node.js, the packages or Chromium a test is skipped, except under CI=true, where
// it fails.
package clienttest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/rulebook/rulebook/server"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service/seal"
)

// Dir returns the path of clients/, the npm project that this package's file sits in.
func Dir(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("clienttest: no caller information")
	}
	return filepath.Dir(filepath.Dir(file))
}

// missing skips the test with how, or fails it under CI=true, where every tool must be installed.
func missing(t testing.TB, how string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(how + " (.ci/run must install it)")
	}
	t.Skip(how)
}

// Node returns the path of the node binary, and checks that clients/node_modules is installed.
func Node(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not on PATH; on Debian: apt-get install -y nodejs npm")
	}
	if _, err := os.Stat(filepath.Join(Dir(t), "node_modules")); err != nil {
		missing(t, "clients/node_modules is not installed: run npm ci in clients/")
	}
	return bin
}

// Chromium returns the path of Chromium (Debian's /usr/bin/chromium, else chromium on PATH), for tests of pages.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium"} {
		if bin, err := exec.LookPath(name); err == nil {
			return bin
		}
	}
	missing(t, "chromium is not installed; on Debian: apt-get install -y chromium")
	return ""
}

// Run runs node with args in clients/ (with env added to this process's environment), bounded by a minute, and
// returns what it printed on standard output. The test fails, with everything node printed, if it exits non-zero.
func Run(t testing.TB, env []string, args ...string) string {
	t.Helper()
	stdout, err := Attempt(t, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	return stdout
}

// Attempt runs node as Run does, and returns what it printed on standard output, and an error with everything it
// printed if it exits non-zero.
func Attempt(t testing.TB, env []string, args ...string) (string, error) {
	t.Helper()
	bin := Node(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = Dir(t)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("node %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}

// Addrs are the addresses of a server that Serve started.
type Addrs struct {
	GRPC string // host:port of its gRPC listener
	HTTP string // host:port of its REST listener
}

// Config is the configuration Serve runs the server with: rulebookd's limits, and plain states accepted if plain.
func Config(plain bool) server.Config {
	return server.Config{
		MaxMessageBytes:         1 << 20,
		MaxRequestMemory:        64 << 20,
		CallTimeout:             10 * time.Second,
		ShutdownTimeout:         10 * time.Second,
		AcceptPlainStates:       plain,
		MaxConcurrentCalls:      64,
		MaxHeavyCalls:           2,
		MaxGRPCConnections:      64,
		MaxHTTPConnections:      64,
		MaxStreamsPerConnection: 100,
		IdleTimeout:             time.Minute,
		MaxConnectionAge:        time.Hour,
	}
}

// Serve runs the real server (server.New and Serve, every game rulebookd hosts, tokens sealed with
// servertest.StateKeys) with cfg on two loopback ports until the test ends.
func Serve(t testing.TB, cfg server.Config) Addrs {
	t.Helper()
	keys, err := seal.ParseKeys(servertest.StateKeys)
	if err != nil {
		t.Fatal(err)
	}
	ring, err := seal.NewKeyring(keys...)
	if err != nil {
		t.Fatal(err)
	}
	listen := func() net.Listener {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := server.Listeners{GRPC: listen(), HTTP: listen()}
	srv, err := server.New(cfg, zap.NewNop(), ring, server.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server stopped with %v", err)
		}
	})
	return Addrs{GRPC: l.GRPC.Addr().String(), HTTP: l.HTTP.Addr().String()}
}
