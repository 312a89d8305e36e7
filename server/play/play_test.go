package play_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/clients/clienttest"
	"github.com/rulebook/rulebook/engine/hosted"
	"github.com/rulebook/rulebook/server/play"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestFiles checks what the server answers for the playground's files over real HTTP: each file with its content
// type, an ETag that a second request presents to get 304, no-cache and the security headers; /play redirected to
// /play/; and a refusal as the REST API's, with its reason, for a file that is not there and a method other than GET
// and HEAD.
func TestFiles(t *testing.T) {
	base := "http://" + clienttest.Serve(t, clienttest.Config(false)).HTTP
	do := func(method, path string, header map[string]string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		return servertest.Fetch(t, req)
	}
	for _, tt := range []struct{ path, contentType, contains string }{
		{"/play/", "text/html; charset=utf-8", `<script type="module" src="app.js">`},
		{"/play/index.html", "text/html; charset=utf-8", "<title>rulebook playground</title>"},
		{"/play/app.js", "text/javascript; charset=utf-8", "import"},
		{"/play/exploze.js", "text/javascript; charset=utf-8", "export default"},
		{"/play/style.css", "text/css; charset=utf-8", ".board"},
		{"/play/" + play.MicropulTilesFile, "application/json", `"quads"`},
	} {
		t.Run(tt.path, func(t *testing.T) {
			resp, body := do(http.MethodGet, tt.path, nil)
			h := resp.Header
			if resp.StatusCode != http.StatusOK || h.Get("Content-Type") != tt.contentType || !strings.Contains(string(body), tt.contains) {
				t.Fatalf("%d %q, body %.80q: want 200 %q with %q", resp.StatusCode, h.Get("Content-Type"), body, tt.contentType, tt.contains)
			}
			if h.Get("Content-Security-Policy") != play.ContentSecurityPolicy || h.Get("X-Content-Type-Options") != "nosniff" ||
				h.Get("Cache-Control") != "no-cache" || h.Get("ETag") == "" {
				t.Errorf("headers %v", h)
			}
			again, body := do(http.MethodGet, tt.path, map[string]string{"If-None-Match": h.Get("ETag")})
			if again.StatusCode != http.StatusNotModified || len(body) != 0 {
				t.Errorf("with its ETag: %d and %d bytes, want 304 and none", again.StatusCode, len(body))
			}
			head, body := do(http.MethodHead, tt.path, nil)
			if head.StatusCode != http.StatusOK || len(body) != 0 || head.Header.Get("ETag") != h.Get("ETag") {
				t.Errorf("HEAD: %d, %d bytes, ETag %q", head.StatusCode, len(body), head.Header.Get("ETag"))
			}
		})
	}

	resp, _ := do(http.MethodGet, "/play", nil)
	if redirect := resp.Request.Response; redirect == nil || redirect.StatusCode != http.StatusMovedPermanently || resp.Request.URL.Path != "/play/" {
		t.Errorf("/play: led to %s, want a 301 to /play/", resp.Request.URL)
	}

	for _, tt := range []struct {
		method, path string
		code         int
		reason       string
	}{
		{http.MethodGet, "/play/nothing.js", http.StatusNotFound, play.ReasonUnknownPath},
		{http.MethodGet, "/play/static/app.js", http.StatusNotFound, play.ReasonUnknownPath},
		{http.MethodPost, "/play/", http.StatusMethodNotAllowed, play.ReasonMethodNotAllowed},
		{http.MethodDelete, "/play/app.js", http.StatusMethodNotAllowed, play.ReasonMethodNotAllowed},
	} {
		resp, body := do(tt.method, tt.path, nil)
		var status struct {
			Details []struct {
				Reason string `json:"reason"`
			} `json:"details"`
		}
		if err := json.Unmarshal(body, &status); err != nil || resp.StatusCode != tt.code || len(status.Details) == 0 || status.Details[0].Reason != tt.reason {
			t.Errorf("%s %s: %d %s, want %d %s", tt.method, tt.path, resp.StatusCode, body, tt.code, tt.reason)
		}
		if tt.code == http.StatusMethodNotAllowed && resp.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s %s: Allow %q, want GET, HEAD", tt.method, tt.path, resp.Header.Get("Allow"))
		}
	}
}

// TestMicropulTiles checks the tile table the page draws from against the engine's: 48 tiles, the big micropuls
// with their centre catalyst.
func TestMicropulTiles(t *testing.T) {
	base := "http://" + clienttest.Serve(t, clienttest.Config(false)).HTTP
	resp, err := http.Get(base + "/play/" + play.MicropulTilesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tiles []struct {
		ID     int       `json:"id"`
		Quads  [4]string `json:"quads"`
		Big    bool      `json:"big"`
		Centre string    `json:"centre"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tiles); err != nil {
		t.Fatal(err)
	}
	if len(tiles) != 48 {
		t.Fatalf("%d tiles, want 48", len(tiles))
	}
	for _, tt := range []struct {
		id     int
		quads  string
		big    bool
		centre string
	}{{0, "W...", false, ""}, {2, "WB.+", false, ""}, {36, "WWWW", true, "+"}, {43, "BBBB", true, "1"}, {47, "BBBB", false, ""}} {
		got := tiles[tt.id]
		if got.ID != tt.id || strings.Join(got.Quads[:], "") != tt.quads || got.Big != tt.big || got.Centre != tt.centre {
			t.Errorf("tile %d: %+v, want %s big %v centre %q", tt.id, got, tt.quads, tt.big, tt.centre)
		}
	}
}

// TestBoards checks the board of every hosted game (docs/adding-a-game.md): the module static/<id>.js that app.js
// loads for it, which exports by default the functions app.js calls of every board; and that every other module
// beside app.js's own (api.js, svg.js) is a hosted game's board.
func TestBoards(t *testing.T) {
	modules := map[string]bool{"app.js": true, "api.js": true, "svg.js": true}
	for _, g := range hosted.Games() {
		name := g.Info().GetId() + ".js"
		modules[name] = true
		body, err := os.ReadFile(filepath.Join("static", name))
		if err != nil {
			t.Errorf("%s has no board: %v", g.Info().GetId(), err)
			continue
		}
		_, exported, ok := strings.Cut(string(body), "\nexport default {")
		if !ok {
			t.Errorf("%s exports no default board", name)
		}
		for _, f := range []string{"render", "status", "breakdown", "toMove"} {
			if !strings.Contains(exported, f) {
				t.Errorf("%s's board exports no %s", name, f)
			}
		}
	}
	files, err := filepath.Glob(filepath.Join("static", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !modules[filepath.Base(f)] {
			t.Errorf("%s: the board of no hosted game", f)
		}
	}
}
