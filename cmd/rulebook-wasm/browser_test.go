//go:build !(js && wasm)

package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rulebook/rulebook/clients/clienttest"
	"github.com/rulebook/rulebook/cmd/rulebook-wasm/wasmnode"
)

// TestBrowser loads the guide's page of the module in headless Chromium, served on loopback with the module and
// wasm_exec.js, and checks what the page logs: the hosted games. The page is the guide's, after a script that sends
// what it logs (console.log) to the test's server.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module for js/wasm, then loads it in Chromium: not with -short")
	}
	chromium := clienttest.Chromium(t)
	text, err := os.ReadFile(filepath.Join(root, guide))
	if err != nil {
		t.Fatal(err)
	}
	_, afterExample, _ := strings.Cut(string(text), "<!-- /wasm-example -->")
	page := between(t, afterExample, "```html\n", "```")
	wasm, wasmExec := wasmnode.Build(t)

	logged := make(chan string, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<script>console.log = (s) => fetch("/log", {method: "POST", body: String(s)});</script>`+"\n"+page)
	})
	mux.HandleFunc("GET /wasm_exec.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, wasmExec) })
	mux.HandleFunc("GET /rulebook.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, wasm)
	})
	mux.HandleFunc("POST /log", func(_ http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case logged <- string(b):
		default:
		}
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a bound on a page that never logs
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "http://"+l.Addr().String()+"/")
	var output strings.Builder
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel() // Chromium stays until it is ended
		_ = cmd.Wait()
	}()
	select {
	case got := <-logged:
		if !strings.HasPrefix(got, `{"games":[{"id":"exploze"`) || !strings.Contains(got, `"id":"ubongo-duel"`) {
			t.Errorf("the page logged %.300s, want the hosted games", got)
		}
	case <-ctx.Done():
		t.Fatalf("the page logged nothing; Chromium printed:\n%s", output.String())
	}
}
