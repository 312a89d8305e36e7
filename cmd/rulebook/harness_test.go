package main

import (
	"context"
	"flag"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	"github.com/rulebook/rulebook/engine/exploze"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata with the output of the tests")

// startServer serves RulesService with Exploze on a free port of 127.0.0.1 until the test ends, and returns its
// address.
func startServer(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	rulebookv1.RegisterRulesServiceServer(srv, service.New(zap.NewNop(), exploze.Game{}))
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

// want is what a test case expects of a run: the exit status, standard output (exactly, or the golden file
// testdata/golden when golden is set) and standard error (exactly, or only its start when stderrPrefix is set).
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
	if w.golden != "" {
		checkGolden(t, w.golden, got.stdout)
	} else if got.stdout != w.stdout {
		t.Errorf("stdout:\n%s\nwant:\n%s", got.stdout, w.stdout)
	}
	if w.stderrPrefix != "" {
		if !strings.HasPrefix(got.stderr, w.stderrPrefix) {
			t.Errorf("stderr:\n%s\nwant it to start with:\n%s", got.stderr, w.stderrPrefix)
		}
	} else if got.stderr != w.stderr {
		t.Errorf("stderr:\n%s\nwant:\n%s", got.stderr, w.stderr)
	}
}
