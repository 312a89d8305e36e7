//go:build !(js && wasm)

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/clients/clienttest"
	"github.com/rulebook/rulebook/cmd/rulebook-wasm/wasmnode"
	"github.com/rulebook/rulebook/cmd/rulebook-wasm/wasmtest"
	"github.com/rulebook/rulebook/server/servertest"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// guide is the guide, from the repository's root, that shows the module's example and page.
const guide = "docs/embedding.md"

// TestNode builds the module and checks it under Node.js against a server that accepts plain states: it plays every
// game to its end (wasmtest.Harness.Play), checks the refusals of bad arguments, calls it through run.js's REST
// bodies too, and runs the guide's example.
func TestNode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module for js/wasm, then plays every game under Node.js: not with -short")
	}
	clienttest.Node(t)
	wasm, wasmExec := wasmnode.Build(t)
	n := wasmnode.Start(t, wasm, wasmExec)
	addrs := clienttest.Serve(t, clienttest.Config(true))
	c := servertest.Dial(t, addrs.GRPC, addrs.HTTP)
	t.Run("play", wasmtest.New(n.Call, c).Play)
	t.Run("arguments", func(t *testing.T) { wasmtest.CheckArguments(t, n.Call) })
	t.Run("REST bodies", func(t *testing.T) { checkRESTBodies(t, n, c) })
	t.Run("guide", func(t *testing.T) { checkGuide(t, wasm) })
}

// checkRESTBodies calls each method that the module serves by its REST body (clients/wasm/rulebook.js's call) and
// checks that the module answers what the server does for that body.
func checkRESTBodies(t *testing.T, n *wasmnode.Node, c *servertest.Client) {
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
		{"ApplyMove", "exploze", "/v1/games/exploze:apply", map[string]any{"state": s.State, "move": move, "events": "EVENT_DETAIL_SUMMARY"}},
		{"ValidateMove", "exploze", "/v1/games/exploze:validate", map[string]any{"state": s.State}},
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
			got := n.Send(t, map[string]any{"rpc": tt.rpc, "game": tt.game, "body": tt.body})
			if g, w := wasmtest.Canonical(t, []byte(*got.Answer)), wasmtest.Canonical(t, want); string(g) != string(w) {
				t.Errorf("%s: the module answered\n%.1000s\nthe server\n%.1000s", tt.rpc, g, w)
			}
		})
	}
}

// checkGuide runs the guide's example of the module under Node.js, in a directory with the module wasm (built
// with the guide's command: build), and compares its output with the guide's.
func checkGuide(t *testing.T, wasm string) {
	text, err := os.ReadFile(filepath.Join(root, guide))
	if err != nil {
		t.Fatal(err)
	}
	section := between(t, string(text), "<!-- wasm-example -->", "<!-- /wasm-example -->")
	commands := strings.Split(strings.TrimSpace(between(t, section, "```sh\n", "```")), "\n")
	program, output := between(t, section, "```js\n", "```"), between(t, section, "```output\n", "```")
	if len(commands) != 2 || commands[0] != wasmnode.BuildCommand || commands[1] != "node example.js" {
		t.Fatalf("the guide's commands are %q, want the build command and node example.js", commands)
	}
	if !strings.Contains(section, "Save this program as `example.js`:\n\n```js\n") {
		t.Error("the guide does not say, just before the program, to save it as example.js")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "example.js"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(wasm, filepath.Join(dir, "rulebook.wasm")); err != nil {
		t.Fatal(err)
	}
	got := wasmnode.Run(t, dir, nil, clienttest.Node(t), "example.js")
	if got != output {
		t.Errorf("the guide's example printed\n%s\nthe guide says\n%s", got, output)
	}
}

// between returns the text of s between the first begin and the end after it.
func between(t *testing.T, s, begin, end string) string {
	t.Helper()
	_, after, ok := strings.Cut(s, begin)
	inner, _, ok2 := strings.Cut(after, end)
	if !ok || !ok2 {
		t.Fatalf("no %q ... %q in %s", begin, end, guide)
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
	wasm, wasmExec := wasmnode.Build(b)
	n := wasmnode.Start(b, wasm, wasmExec)
	addrs := clienttest.Serve(b, clienttest.Config(true))
	c := servertest.Dial(b, addrs.GRPC, addrs.HTTP)
	calls := benchmarkCalls(b, n.Call)
	for _, name := range []string{"exploze-6x6/applyMove", "micropul-2p/applyMove", "micropul-2p/legalMoves"} {
		call := calls[name]
		fn, args := call[0].(string), call[1:]
		b.Run(name+"/node", func(b *testing.B) {
			bench := map[string]any{"fn": fn, "args": args}
			n.Send(b, map[string]any{"bench": bench, "n": warmUp})
			b.ResetTimer()
			n.Send(b, map[string]any{"bench": bench, "n": b.N})
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
	wasm, wasmExec := wasmnode.Build(b)
	bin := clienttest.Node(b)
	b.Run("module", func(b *testing.B) {
		for range b.N {
			out := wasmnode.Run(b, clienttest.Dir(b), []string{"RULEBOOK_WASM_EXEC=" + wasmExec}, "sh", "-c",
				`echo '{"fn": "listGames"}' | "$0" wasm/run.js "$1"`, bin, wasm)
			if !strings.HasPrefix(out, `{"answer":"{\"games\"`) {
				b.Fatalf("run.js answered %.300s", out)
			}
		}
	})
	b.Run("node", func(b *testing.B) {
		for range b.N {
			wasmnode.Run(b, clienttest.Dir(b), nil, bin, "-e", "0")
		}
	})
}
