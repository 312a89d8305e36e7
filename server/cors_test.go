package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/server/servertest"
)

// TestCORSPreflight sends preflights to a server that allows testOrigin, on a REST route, a call's path, /healthz
// and a path that is no route: from testOrigin each is answered 204 with the methods, the headers asked for and the
// max age; from another origin 204 with no CORS header. No preflight is a refusal; each is a request of its route.
func TestCORSPreflight(t *testing.T) {
	cfg := testConfig()
	cfg.CORSOrigins = []string{testOrigin, "http://localhost:5173"}
	ts := start(t, setup{cfg: cfg, admin: true})
	// as a browser asks: lower case, sorted
	const asked = "accept,connect-protocol-version,connect-timeout-ms,content-type,grpc-timeout,traceparent,x-grpc-web,x-user-agent"
	paths := []string{"/v1/games/exploze:apply", "/v1/games", rulesServicePrefix + "ApplyMove", "/healthz", "/v2/nothing"}
	for _, path := range paths {
		for _, origin := range []string{testOrigin, "https://evil.example.test"} {
			t.Run(path+" from "+origin, func(t *testing.T) {
				req, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodOptions, ts.URL+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Origin", origin)
				req.Header.Set("Access-Control-Request-Method", http.MethodPost)
				req.Header.Set("Access-Control-Request-Headers", asked)
				resp, body := servertest.Fetch(t, req)
				if resp.StatusCode != http.StatusNoContent || len(body) != 0 {
					t.Errorf("HTTP %d %q, want 204 and no body", resp.StatusCode, body)
				}
				h := resp.Header
				if origin != testOrigin {
					for name := range h {
						if strings.HasPrefix(name, "Access-Control-") {
							t.Errorf("another origin's preflight answered with %s: %s", name, h.Get(name))
						}
					}
					return
				}
				if h.Get("Access-Control-Allow-Origin") != testOrigin || h.Get("Access-Control-Allow-Methods") != http.MethodPost ||
					h.Get("Access-Control-Allow-Headers") != asked || h.Get("Access-Control-Max-Age") != "7200" ||
					h.Get("Access-Control-Allow-Credentials") != "" {
					t.Errorf("preflight answered %v, want the origin, POST, the headers asked for, max age 7200, no credentials", h)
				}
			})
		}
	}
	families := scrape(t, ts)
	// A call's preflight is counted under its path; REST's, which CORS answers before the gateway's router, as other.
	for route, want := range map[string]float64{rulesServicePrefix + "ApplyMove": 2, "other": 8} {
		if v, _ := sample(families, "rulebook_http_requests_total", map[string]string{"route": route, "method": "options", "code": "204"}); v != want {
			t.Errorf("preflights of %s counted %v, want %v", route, v, want)
		}
	}
	for _, m := range families["rulebook_refusals_total"].GetMetric() {
		if m.GetCounter().GetValue() != 0 {
			t.Errorf("a preflight counted as a refusal: %v", m)
		}
	}
}

// TestCORSAnswers checks that the answers of a server that allows testOrigin, success or refusal, allow that origin
// and expose the headers a page reads, and that a server with no origins sends no CORS header.
func TestCORSAnswers(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMessageBytes = 4 << 10
	withCORS, without := cfg, cfg
	withCORS.CORSOrigins = []string{testOrigin}
	servers := map[bool]*testServer{true: startServer(t, withCORS), false: startServer(t, without)}
	tests := []struct {
		name, method, path, body string
		code                     int
	}{
		{"games", http.MethodGet, "/v1/games", "", http.StatusOK},
		{"refused move", http.MethodPost, "/v1/games/exploze:apply", `{"move": {"player": 1}}`, http.StatusBadRequest},
		{"malformed JSON", http.MethodPost, "/v1/games/exploze:new", `{`, http.StatusBadRequest},
		{"unknown path", http.MethodPost, "/v1/games/exploze:castle", `{}`, http.StatusNotFound},
		{"wrong method", http.MethodGet, "/v1/games/exploze:apply", "", http.StatusMethodNotAllowed},
		{"too large", http.MethodPost, "/v1/games/exploze:new", `{"game": "` + strings.Repeat("x", 5<<10) + `"}`, http.StatusRequestEntityTooLarge},
		{"OpenAPI", http.MethodGet, "/openapi.json", "", http.StatusOK},
	}
	for allowed, ts := range servers {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s, CORS %v", tt.name, allowed), func(t *testing.T) {
				req, err := http.NewRequestWithContext(servertest.CallContext(t), tt.method, ts.URL+tt.path, strings.NewReader(tt.body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Origin", testOrigin)
				req.Header.Set("Content-Type", "application/json")
				resp, body := servertest.Fetch(t, req)
				if resp.StatusCode != tt.code {
					t.Errorf("HTTP %d, want %d: %s", resp.StatusCode, tt.code, body)
				}
				h := resp.Header
				switch {
				case !allowed && (h.Get("Access-Control-Allow-Origin") != "" || h.Get("Access-Control-Expose-Headers") != ""):
					t.Errorf("a server without CORS origins answered %v", h)
				case allowed && (h.Get("Access-Control-Allow-Origin") != testOrigin || !strings.Contains(h.Get("Access-Control-Expose-Headers"), "Grpc-Status")):
					t.Errorf("answered %v, want the origin allowed and the gRPC-Web headers exposed", h)
				case allowed && !strings.Contains(h.Get("Vary"), "Origin"):
					t.Errorf("Vary %q, want Origin", h.Get("Vary"))
				}
			})
		}
	}
}

// TestCheckOrigins checks which CORS origins a server takes.
func TestCheckOrigins(t *testing.T) {
	tests := []struct {
		origins     []string
		plainStates bool
		ok          bool
	}{
		{nil, true, true},
		{[]string{"https://app.example.com", "http://localhost:5173", "http://127.0.0.1:8000"}, false, true},
		{[]string{"https://*.example.com"}, true, true},
		{[]string{"*"}, false, true},
		{[]string{"*"}, true, false},
		{[]string{"*", "https://app.example.com"}, false, false},
		{[]string{"https://app.example.com/"}, false, false},
		{[]string{"https://app.example.com/app"}, false, false},
		{[]string{"app.example.com"}, false, false},
		{[]string{"ftp://app.example.com"}, false, false},
		{[]string{"https://"}, false, false},
		{[]string{"https://app.example.com?x=1"}, false, false},
		{[]string{"https://app.example.com#top"}, false, false},
		{[]string{"https://user@app.example.com"}, false, false},
		{[]string{"https://app.example.com:*"}, false, false},
		{[]string{"https://*.*.example.com"}, false, false},
	}
	for _, tt := range tests {
		if err := checkOrigins(tt.origins, tt.plainStates); (err == nil) != tt.ok {
			t.Errorf("checkOrigins(%q, plain states %v) = %v, want ok %v", tt.origins, tt.plainStates, err, tt.ok)
		}
	}
}
