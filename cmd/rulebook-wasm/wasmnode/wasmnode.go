// Package wasmnode builds the WebAssembly module (cmd/rulebook-wasm) and runs it under Node.js for tests: one Node
// process for a whole test, serving the module one JSON line per call (clients/wasm/run.js), through clienttest,
// which skips the test without Node.js (and fails it under CI=true).
package wasmnode

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rulebook/rulebook/clients/clienttest"
)

// BuildCommand is the command that builds the module, as docs/embedding.md gives it, run from the repository's root.
const BuildCommand = "GOOS=js GOARCH=wasm go build -o rulebook.wasm ./cmd/rulebook-wasm"

// Build builds the module with BuildCommand into a directory of the test, and returns its path and the path of the
// wasm_exec.js of the Go that built it.
func Build(t testing.TB) (wasm, wasmExec string) {
	t.Helper()
	wasm = filepath.Join(t.TempDir(), "rulebook.wasm")
	env, args := CommandLine(t, BuildCommand)
	for i, a := range args {
		if a == "rulebook.wasm" {
			args[i] = wasm
		}
	}
	root := filepath.Dir(clienttest.Dir(t)) // the repository's
	Run(t, root, env, args...)
	goroot := strings.TrimSpace(Run(t, root, env, "go", "env", "GOROOT"))
	for _, dir := range []string{"lib/wasm", "misc/wasm"} {
		file := filepath.Join(goroot, dir, "wasm_exec.js")
		if _, err := os.Stat(file); err == nil {
			return wasm, file
		}
	}
	t.Fatalf("no wasm_exec.js in %s/lib/wasm or %s/misc/wasm", goroot, goroot)
	return "", ""
}

// CommandLine splits a command line of a guide (words without quotes, the first ones NAME=value) into its
// environment and its arguments.
func CommandLine(t testing.TB, line string) (env, args []string) {
	t.Helper()
	words := strings.Fields(line)
	for len(words) > 0 && strings.Contains(words[0], "=") {
		env, words = append(env, words[0]), words[1:]
	}
	if len(words) == 0 || strings.ContainsAny(line, `'"$\`) {
		t.Fatalf("not a plain command line: %s", line)
	}
	return env, words
}

// Run runs args in dir with env added, bounded by five minutes (a build of the module from an empty cache takes
// one or two), and returns its standard output; the test fails if it fails.
func Run(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// Node is the module under Node.js: clients/wasm/run.js, which takes one call a line.
type Node struct {
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *strings.Builder
}

// Start runs the module wasm, with the wasm_exec.js at wasmExec, in one Node.js process for the whole test, which
// ends it.
func Start(t testing.TB, wasm, wasmExec string) *Node {
	t.Helper()
	bin := clienttest.Node(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound on a module that hangs
	cmd := exec.CommandContext(ctx, bin, filepath.Join("wasm", "run.js"), wasm)
	cmd.Dir = clienttest.Dir(t)
	cmd.Env = append(os.Environ(), "RULEBOOK_WASM_EXEC="+wasmExec)
	n := &Node{stderr: &strings.Builder{}}
	cmd.Stderr = n.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	n.in, n.out = in, bufio.NewReader(out)
	t.Cleanup(func() {
		in.Close() // run.js ends at the end of its input
		if err := cmd.Wait(); err != nil {
			t.Errorf("node: %v\n%s", err, n.stderr)
		}
		cancel()
	})
	return n
}

// Answer is a line that run.js answers: the answer of a call, or the time n calls took.
type Answer struct {
	Answer *string `json:"answer"`
	NS     *int64  `json:"ns"`
	Thrown string  `json:"thrown"`
}

// Do sends req as a line to run.js and returns its answer, or an error if Node.js failed or the call threw.
func (n *Node) Do(req any) (Answer, error) {
	line, err := json.Marshal(req)
	if err != nil {
		return Answer{}, err
	}
	if _, err := n.in.Write(append(line, '\n')); err != nil {
		return Answer{}, fmt.Errorf("node: %w\n%s", err, n.stderr)
	}
	got, err := n.out.ReadBytes('\n')
	if err != nil {
		return Answer{}, fmt.Errorf("node: %w\n%s", err, n.stderr)
	}
	var a Answer
	if err := json.Unmarshal(got, &a); err != nil {
		return Answer{}, fmt.Errorf("node answered %.300s: %w", got, err)
	}
	if a.Thrown != "" || (a.Answer == nil && a.NS == nil) {
		return Answer{}, fmt.Errorf("%.300s threw %s", line, a.Thrown)
	}
	return a, nil
}

// Send is Do, failing the test on an error.
func (n *Node) Send(t testing.TB, req any) Answer {
	t.Helper()
	a, err := n.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Call calls the module's function fn with args under Node.js (a wasmtest.Module).
func (n *Node) Call(t testing.TB, fn string, args ...any) string {
	t.Helper()
	return *n.Send(t, map[string]any{"fn": fn, "args": args}).Answer
}

// Method calls the function that serves the RulesService method rpc with the REST body of game (clients/wasm's
// call), and returns its answer.
func (n *Node) Method(rpc, game string, body any) (string, error) {
	a, err := n.Do(map[string]any{"rpc": rpc, "game": game, "body": body})
	if err != nil {
		return "", err
	}
	if a.Answer == nil {
		return "", fmt.Errorf("%s: no answer", rpc)
	}
	return *a.Answer, nil
}
