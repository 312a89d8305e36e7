package server

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/server/tlsfiles"
)

// TestHome checks the way in over real HTTP: GET and HEAD / are redirected (302) to the playground, which answers
// its page; any other method on /, and any other unknown path, is still REST's 404.
func TestHome(t *testing.T) {
	ts := startServer(t, testConfig())
	for _, tt := range []struct {
		method, path string
		redirected   bool
		code         int
	}{
		{http.MethodGet, "/", true, http.StatusOK},
		{http.MethodHead, "/", true, http.StatusOK},
		{http.MethodGet, "/?game=kipicot", true, http.StatusOK},
		{http.MethodPost, "/", false, http.StatusNotFound},
		{http.MethodDelete, "/", false, http.StatusNotFound},
		{http.MethodGet, "/index.html", false, http.StatusNotFound},
	} {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			req, err := http.NewRequestWithContext(servertest.CallContext(t), tt.method, ts.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, body := servertest.Fetch(t, req)
			redirect := resp.Request.Response
			if tt.redirected != (redirect != nil) || resp.StatusCode != tt.code {
				t.Fatalf("%d at %s (redirected: %v), body %.80q; want %d, redirected: %v", resp.StatusCode, resp.Request.URL,
					redirect != nil, body, tt.code, tt.redirected)
			}
			if redirect != nil && (redirect.StatusCode != http.StatusFound || redirect.Header.Get("Location") != "/play/" ||
				resp.Header.Get("Content-Type") != "text/html; charset=utf-8") {
				t.Errorf("redirect %d to %q, then %q; want 302 to /play/, then the page", redirect.StatusCode,
					redirect.Header.Get("Location"), resp.Header.Get("Content-Type"))
			}
			if !tt.redirected && !strings.Contains(string(body), `"reason":"UNKNOWN_PATH"`) {
				t.Errorf("body %.200s, want REST's 404", body)
			}
		})
	}
}

// TestServingLogged checks that the start-up line names the playground's URL and the API's addresses as a client
// uses them, https with TLS, and over plain HTTP that they answer: the playground its page, REST the list of games,
// the admin listener its health.
func TestServingLogged(t *testing.T) {
	ca := servertest.NewCA(t, "test CA")
	files := servertest.WriteTLSFiles(t, t.TempDir(), servertest.ServerPair(t, ca), ca)
	for _, tt := range []struct {
		name   string
		tls    tlsfiles.Files
		scheme string
	}{
		{"plain", tlsfiles.Files{}, "http://"},
		{"TLS", tlsfiles.Files{Cert: files.Cert, Key: files.Key}, "https://"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			core, logs := observer.New(zapcore.InfoLevel)
			cfg := testConfig()
			cfg.TLS = tt.tls
			ts := start(t, setup{cfg: cfg, log: zap.New(core), admin: true})
			rest := tt.scheme + strings.TrimPrefix(ts.URL, "http://")
			want := map[string]string{"playground": rest + "/play/", "rest": rest, "grpc": ts.Conn.Target(),
				"admin": tt.scheme + strings.TrimPrefix(ts.adminURL, "http://")}
			plain := []string{want["playground"], want["rest"] + "/v1/games", want["admin"] + "/healthz"}
			if tt.tls.Cert != "" {
				plain = nil // asked over plain HTTP only
			}
			for _, url := range plain {
				req, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodGet, url, nil)
				if err != nil {
					t.Fatal(err)
				}
				if code, body := servertest.Do(t, req); code != http.StatusOK {
					t.Errorf("GET %s: %d %.80s", url, code, body)
				}
			}
			if err := ts.stop(); err != nil { // Serve has returned: the line is logged
				t.Fatal(err)
			}
			lines := logs.FilterMessage("serving").All()
			if len(lines) != 1 {
				t.Fatalf("%d serving lines: %v", len(lines), logs.All())
			}
			got := lines[0].ContextMap()
			for field, w := range want {
				if got[field] != w {
					t.Errorf("%s: %v, want %s", field, got[field], w)
				}
			}
		})
	}
}

// TestClientAddress checks the address logged for a listener: its own, but localhost for every interface.
func TestClientAddress(t *testing.T) {
	for _, tt := range []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "127.0.0.1:8080"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 50051}, "[::1]:50051"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "localhost:8080"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 9090}, "localhost:9090"},
		{&net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 443}, "192.0.2.7:443"},
		{&net.UnixAddr{Name: "/run/rulebook.sock", Net: "unix"}, "/run/rulebook.sock"},
	} {
		if got := clientAddress(tt.addr); got != tt.want {
			t.Errorf("%v: %s, want %s", tt.addr, got, tt.want)
		}
	}
}
