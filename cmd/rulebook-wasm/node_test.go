//go:build !(js && wasm)

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rulebook/rulebook/clients/clienttest"
	"github.com/rulebook/rulebook/cmd/rulebook-wasm/wasmtest"
	"github.com/rulebook/rulebook/server/servertest"
)

// buildCommand is the command that builds the module, as the README gives it, run from the repository's root.
const buildCommand = "GOOS=js GOARCH=wasm go build -o rulebook.wasm ./cmd/rulebook-wasm"

// root is the repository's root, from this package's directory.
const root = "../.."

// build builds the module with buildCommand into a directory of the test, and returns its path and the path of the
// wasm_exec.js of the Go that built it.
func build(t testing.TB) (wasm, wasmExec string) {
	t.Helper()
	wasm = filepath.Join(t.TempDir(), "rulebook.wasm")
	env, args := commandLine(t, buildCommand)
	for i, a := range args {
		if a == "rulebook.wasm" {
			args[i] = wasm
		}
	}
	run(t, root, env, args...)
	goroot := strings.TrimSpace(run(t, root, env, "go", "env", "GOROOT"))
	for _, dir := range []string{"lib/wasm", "misc/wasm"} {
		if file := filepath.Join(goroot, dir, "wasm_exec.js"); fileExists(file) {
			return wasm, file
		}
	}
	t.Fatalf("no wasm_exec.js in %s/lib/wasm or %s/misc/wasm", goroot, goroot)
	return "", ""
}

// commandLine splits a command line of the README (words without quotes, the first ones NAME=value) into its
// environment and its arguments.
func commandLine(t testing.TB, line string) (env, args []string) {
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

// run runs args in dir with env added, bounded by five minutes (a build of the module from an empty cache takes
// one or two), and returns its standard output; the test fails if it fails.
func run(t testing.TB, dir string, env []string, args ...string) string {
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

// fileExists reports whether a file is at path.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// node is the module under Node.js: clients/wasm/run.js, which takes one call a line.
type node struct {
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *strings.Builder
}

// startNode runs the module wasm in one Node.js process for the whole test, which ends it.
func startNode(t testing.TB, wasm, wasmExec string) *node {
	t.Helper()
	bin := clienttest.Node(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound on a module that hangs
	cmd := exec.CommandContext(ctx, bin, filepath.Join("wasm", "run.js"), wasm)
	cmd.Dir = clienttest.Dir(t)
	cmd.Env = append(os.Environ(), "RULEBOOK_WASM_EXEC="+wasmExec)
	n := &node{stderr: &strings.Builder{}}
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

// answer is a line that run.js answers.
type answer struct {
	Answer *string `json:"answer"`
	NS     *int64  `json:"ns"`
	Thrown string  `json:"thrown"`
}

// send sends req as a line to run.js and returns its answer; the test fails if the call threw.
func (n *node) send(t testing.TB, req any) answer {
	t.Helper()
	line, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("node: %v\n%s", err, n.stderr)
	}
	got, err := n.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("node: %v\n%s", err, n.stderr)
	}
	var a answer
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("node answered %.300s: %v", got, err)
	}
	if a.Thrown != "" || (a.Answer == nil && a.NS == nil) {
		t.Fatalf("%.300s threw %s", line, a.Thrown)
	}
	return a
}

// call calls the module's function fn with args under Node.js: a wasmtest.Module.
func (n *node) call(t testing.TB, fn string, args ...any) string {
	t.Helper()
	return *n.send(t, map[string]any{"fn": fn, "args": args}).Answer
}

// TestNode builds the module and checks it under Node.js against a server that accepts plain states: it plays every
// game to its end (wasmtest.Harness.Play), checks the refusals of bad arguments, calls it through run.js's REST
// bodies too, and runs the README's example.
func TestNode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module for js/wasm, then plays every game under Node.js: not with -short")
	}
	clienttest.Node(t)
	wasm, wasmExec := build(t)
	n := startNode(t, wasm, wasmExec)
	addrs := clienttest.Serve(t, clienttest.Config(true))
	c := servertest.Dial(t, addrs.GRPC, addrs.HTTP)
	t.Run("play", wasmtest.New(n.call, c).Play)
	t.Run("arguments", func(t *testing.T) { wasmtest.CheckArguments(t, n.call) })
	t.Run("REST bodies", func(t *testing.T) { checkRESTBodies(t, n, c) })
	t.Run("README", func(t *testing.T) { checkReadme(t, wasm) })
}

// checkRESTBodies calls each method that the module serves by its REST body (clients/wasm/rulebook.js's call) and
// checks that the module answers what the server does for that body.
func checkRESTBodies(t *testing.T, n *node, c *servertest.Client) {
	_, started := c.Post(t, "/v1/games/exploze:new", `{"options": {"exploze": {"rows": 3, "cols": 3}}, "seed": "9"}`)
	var s struct{ State json.RawMessage }
	if err := json.Unmarshal(started, &s); err != nil || s.State == nil {
		t.Fatalf("no state in %s", started)
	}
	move := json.RawMessage(`{"player": 1, "exploze": {"row": 2, "col": 1}}`)
	tests := []struct {
		rpc, game, path string
		body            map[string]any // nil: a GET
	}{
		{"ListGames", "", "/v1/games", nil},
		{"NewGame", "exploze", "/v1/games/exploze:new", map[string]any{"options": json.RawMessage(`{"exploze": {"rows": 3}}`), "seed": "9"}},
		{"NewGame", "exploze", "/v1/games/exploze:new", map[string]any{}},
		{"ValidateMove", "exploze", "/v1/games/exploze:validate", map[string]any{"state": s.State, "move": move}},
		{"ApplyMove", "exploze", "/v1/games/exploze:apply", map[string]any{"state": s.State, "move": move}},
		{"ListLegalMoves", "exploze", "/v1/games/exploze:legalMoves", map[string]any{"state": s.State, "player": 1}},
		{"Score", "exploze", "/v1/games/exploze:score", map[string]any{"state": s.State, "game": "kipicot"}},
		{"GetView", "exploze", "/v1/games/exploze:view", map[string]any{"state": s.State, "viewer": 2}},
		{"GetView", "chess", "/v1/games/chess:view", map[string]any{"state": s.State}},
	}
	for _, tt := range tests {
		t.Run(tt.rpc, func(t *testing.T) {
			var want []byte
			if tt.body == nil {
				_, want = c.Get(t, tt.path)
			} else {
				body, err := json.Marshal(tt.body)
				if err != nil {
					t.Fatal(err)
				}
				_, want = c.Post(t, tt.path, string(body))
			}
			got := n.send(t, map[string]any{"rpc": tt.rpc, "game": tt.game, "body": tt.body})
			if g, w := wasmtest.Canonical(t, []byte(*got.Answer)), wasmtest.Canonical(t, want); string(g) != string(w) {
				t.Errorf("%s: the module answered\n%.1000s\nthe server\n%.1000s", tt.rpc, g, w)
			}
		})
	}
}

// checkReadme runs the README's example of the module under Node.js, in a directory with the module wasm (built
// with the README's command: build), and compares its output with the README's.
func checkReadme(t *testing.T, wasm string) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := between(t, string(readme), "<!-- wasm-example -->", "<!-- /wasm-example -->")
	commands := strings.Split(strings.TrimSpace(between(t, section, "```sh\n", "```")), "\n")
	program, output := between(t, section, "```js\n", "```"), between(t, section, "```output\n", "```")
	if len(commands) != 2 || commands[0] != buildCommand || commands[1] != "node example.js" {
		t.Fatalf("the README's commands are %q, want the build command and node example.js", commands)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "example.js"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(wasm, filepath.Join(dir, "rulebook.wasm")); err != nil {
		t.Fatal(err)
	}
	got := run(t, dir, nil, clienttest.Node(t), "example.js")
	if got != output {
		t.Errorf("the README's example printed\n%s\nthe README says\n%s", got, output)
	}
}

// between returns the text of s between the first begin and the end after it.
func between(t *testing.T, s, begin, end string) string {
	t.Helper()
	_, after, ok := strings.Cut(s, begin)
	inner, _, ok2 := strings.Cut(after, end)
	if !ok || !ok2 {
		t.Fatalf("no %q ... %q in the README", begin, end)
	}
	return inner
}

// benchmarkCalls are the calls that BenchmarkCall times: a move of a two-player 6 x 6 Exploze game and of a
// two-player Micropul game, each after ten moves, and the Micropul game's legal moves.
func benchmarkCalls(b *testing.B, m wasmtest.Module) map[string][]any {
	calls := map[string][]any{}
	for _, g := range []struct{ name, game, options string }{
		{"exploze-6x6", "exploze", `{"exploze": {"rows": 6, "cols": 6}}`},
		{"micropul-2p", "micropul", `{"micropul": {"players": 2}}`},
	} {
		state := fieldOf(b, m(b, "newGame", g.game, g.options, 1), "state")
		var move string
		for i := 0; i <= 10; i++ {
			var legal struct{ Moves []json.RawMessage }
			if err := json.Unmarshal([]byte(m(b, "legalMoves", g.game, state)), &legal); err != nil || len(legal.Moves) == 0 {
				b.Fatalf("no legal move in %s", state)
			}
			move = string(legal.Moves[len(legal.Moves)/2])
			if i < 10 {
				state = fieldOf(b, m(b, "applyMove", g.game, state, move), "state")
			}
		}
		calls[g.name+"/applyMove"] = []any{"applyMove", g.game, state, move}
		if g.game == "micropul" {
			calls[g.name+"/legalMoves"] = []any{"legalMoves", g.game, state}
		}
	}
	return calls
}

// fieldOf returns the JSON of the field name of the JSON object answer.
func fieldOf(b *testing.B, answer, name string) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(answer), &fields); err != nil || fields[name] == nil {
		b.Fatalf("no %s in %.300s", name, answer)
	}
	return string(fields[name])
}

// warmUp is how many times BenchmarkCall makes a call under Node.js before it times it: V8 compiles the module's
// functions as they are called, first quickly then optimised, so that the first hundreds of calls cost up to ten
// times as much.
const warmUp = 500

// BenchmarkCall times calls of the module under Node.js (node: the whole loop runs in Node, so a call costs no
// line; after warmUp calls), against the same calls natively in Go through the same code (native: jsapi, the
// module's Go side) and of a server over REST on loopback (rest).
func BenchmarkCall(b *testing.B) {
	wasm, wasmExec := build(b)
	n := startNode(b, wasm, wasmExec)
	addrs := clienttest.Serve(b, clienttest.Config(true))
	c := servertest.Dial(b, addrs.GRPC, addrs.HTTP)
	calls := benchmarkCalls(b, n.call)
	for _, name := range []string{"exploze-6x6/applyMove", "micropul-2p/applyMove", "micropul-2p/legalMoves"} {
		call := calls[name]
		fn, args := call[0].(string), call[1:]
		b.Run(name+"/node", func(b *testing.B) {
			bench := map[string]any{"fn": fn, "args": args}
			n.send(b, map[string]any{"bench": bench, "n": warmUp})
			b.ResetTimer()
			n.send(b, map[string]any{"bench": bench, "n": b.N})
		})
		b.Run(name+"/native", func(b *testing.B) {
			m := wasmtest.Native(b)
			b.ResetTimer()
			for range b.N {
				m(b, fn, args...)
			}
		})
		b.Run(name+"/rest", func(b *testing.B) {
			_, path, body := wasmtest.RESTCall(b, fn, args...)
			for range b.N {
				if code, answer := c.Post(b, path, body); code != 200 {
					b.Fatalf("HTTP %d: %s", code, answer)
				}
			}
		})
	}
}

// BenchmarkLoad times the start of a Node.js process that loads the module and answers a first call (listGames)
// under clients/wasm/run.js, against the start of a Node.js process that does nothing (node -e 0).
func BenchmarkLoad(b *testing.B) {
	wasm, wasmExec := build(b)
	bin := clienttest.Node(b)
	b.Run("module", func(b *testing.B) {
		for range b.N {
			out := run(b, clienttest.Dir(b), []string{"RULEBOOK_WASM_EXEC=" + wasmExec}, "sh", "-c",
				`echo '{"fn": "listGames"}' | "$0" wasm/run.js "$1"`, bin, wasm)
			if !strings.HasPrefix(out, `{"answer":"{\"games\"`) {
				b.Fatalf("run.js answered %.300s", out)
			}
		}
	})
	b.Run("node", func(b *testing.B) {
		for range b.N {
			run(b, clienttest.Dir(b), nil, bin, "-e", "0")
		}
	})
}
