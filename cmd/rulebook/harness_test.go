package main

import (
	"bytes"
	"context"
	"flag"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	"github.com/rulebook/rulebook/engine/exploze"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/rulesserver"
	"github.com/rulebook/rulebook/service/seal"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata with the output of the tests")

// server is a RulesService with Exploze that a test calls.
type server struct {
	name  string // "token" or "plain", for subtests and golden files
	addr  string
	plain bool // whether it accepts plain states
}

// servers starts the two kinds of server, one that accepts only tokens (rulebookd's default) and one that also
// accepts plain states, for tests that must pass against both.
func servers(t *testing.T) []server {
	t.Helper()
	return []server{tokenServer(t), plainServer(t)}
}

// tokenServer starts a server that accepts only tokens, as rulebookd does by default.
func tokenServer(t *testing.T) server {
	t.Helper()
	return server{name: "token", addr: startServer(t, false)}
}

// plainServer starts a server that accepts plain states and chosen seeds.
func plainServer(t *testing.T) server {
	t.Helper()
	return server{name: "plain", addr: startServer(t, true), plain: true}
}

// startServer serves RulesService with Exploze, sealing tokens with a fixed test key and accepting plain states if
// plain, with the gRPC server's opts, on a free port of 127.0.0.1 until the test ends, and returns its address.
func startServer(t *testing.T, plain bool, opts ...grpc.ServerOption) string {
	t.Helper()
	key, err := seal.GenerateKey("test", bytes.NewReader(bytes.Repeat([]byte{1}, 32))) // seal refuses a secret of zeros
	if err != nil {
		t.Fatal(err)
	}
	keys, err := seal.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(zap.NewNop(), service.Config{Keys: keys, AcceptPlainStates: plain}, exploze.Game{})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(opts...)
	rulebookv1grpc.RegisterRulesServiceServer(srv, rulesserver.New(svc))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(lis)
	}()
	t.Cleanup(func() {
		srv.Stop()
		<-done
	})
	return lis.Addr().String()
}

// result is what one run of rulebook gave.
type result struct {
	code           int
	stdout, stderr string
}

// rulebook runs the command line args (without the program name) with stdin as standard input. The run is
// bounded, so that a test stops even if a call hangs.
func rulebook(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr strings.Builder
	code := run(ctx, args, strings.NewReader(stdin), &stdout, &stderr)
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// run runs rulebook against s: the command line args (without the program name and -addr), with stdin as
// standard input.
func (s server) run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	return rulebook(t, stdin, append([]string{"-addr", s.addr}, args...)...)
}

// must returns the standard output of r, a run that must succeed.
func must(t *testing.T, r result) string {
	t.Helper()
	if r.code != exitOK {
		t.Fatalf("exit status %d: %s", r.code, r.stderr)
	}
	return r.stdout
}

// parse returns the game document text holds.
func parse(t *testing.T, text string) *document {
	t.Helper()
	d, err := readDocument(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// readTestdata returns the content of testdata/name.
func readTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkGolden compares got with the golden file testdata/name, or with -update rewrites the file.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the tests with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run the tests with -update to accept it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// Tokens and seat passes in JSON text.
var (
	tokenText = regexp.MustCompile(`"[vp]([0-9]+\.[A-Za-z0-9_-]+\.)[A-Za-z0-9_-]+"`)
	passText  = regexp.MustCompile(`"([1-9][0-9]*\.)[A-Za-z0-9_-]{22}"`)
)

// elide returns s with the sealed part of every token and the code of every seat pass left out ("?2.test.…", "2.…"):
// they are random (a token's nonce, a table's secret), so no golden file can hold them. A token's scope (v2 or p2,
// see package seal) is left out too, so that a server of plain states and a token-only one answer the same text.
func elide(s string) string {
	return passText.ReplaceAllString(tokenText.ReplaceAllString(s, `"?${1}…"`), `"${1}…"`)
}

// want is what a test case expects of a run: the exit status, standard output with its tokens and seat passes
// elided (exactly, or the golden file testdata/golden when golden is set) and standard error (exactly, or only its
// start when stderrPrefix is set).
type want struct {
	code         int
	stdout       string
	golden       string
	stderr       string
	stderrPrefix string
}

// check reports the differences between got and w.
func (w want) check(t *testing.T, got result) {
	t.Helper()
	if got.code != w.code {
		t.Errorf("exit status %d, want %d\nstderr:\n%s", got.code, w.code, got.stderr)
	}
	stdout := elide(got.stdout)
	if w.golden != "" {
		checkGolden(t, w.golden, stdout)
	} else if stdout != w.stdout {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, w.stdout)
	}
	if w.stderrPrefix != "" {
		if !strings.HasPrefix(got.stderr, w.stderrPrefix) {
			t.Errorf("stderr:\n%s\nwant it to start with:\n%s", got.stderr, w.stderrPrefix)
		}
	} else if got.stderr != w.stderr {
		t.Errorf("stderr:\n%s\nwant:\n%s", got.stderr, w.stderr)
	}
}
