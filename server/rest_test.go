package server

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/gateway"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestRESTRouting sends requests that call nothing: an unknown path is 404, a method the path does not take 405 with
// the methods it takes in Allow, a path that is not UTF-8 400; each with the JSON status body and its reason.
func TestRESTRouting(t *testing.T) {
	ts := startServer(t, testConfig())
	notFound := servertest.WantError{Code: codes.NotFound, HTTPCode: http.StatusNotFound, Reason: refusal.ReasonUnknownPath}
	notAllowed := servertest.WantError{Code: codes.Unimplemented, HTTPCode: http.StatusMethodNotAllowed, Reason: refusal.ReasonMethodNotAllowed}
	badPath := servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: gateway.ReasonMalformedPath}
	tests := []struct {
		method, path string
		want         servertest.WantError
		allow        string
	}{
		{http.MethodGet, "/v1/games/exploze:apply", notAllowed, "POST"},
		{http.MethodPut, "/v1/games/exploze:apply", notAllowed, "POST"},
		{http.MethodDelete, "/v1/games/micropul:new", notAllowed, "POST"},
		{http.MethodPost, "/v1/games", notAllowed, "GET"},
		{http.MethodPatch, "/v1/puzzles:solve", notAllowed, "POST"},
		{http.MethodPost, "/healthz", notAllowed, "GET"},
		{http.MethodDelete, "/openapi.json", notAllowed, "GET, HEAD"},
		{http.MethodPost, "/v1/games/exploze:castle", notFound, ""},
		{http.MethodGet, "/v2/games", notFound, ""},
		{http.MethodPost, "/", notFound, ""},
		{http.MethodPost, "/v1/games/%ff:new", badPath, ""},
		{http.MethodGet, "/v1/%c3%28", badPath, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			req, err := http.NewRequestWithContext(servertest.CallContext(t), tt.method, ts.URL+tt.path, strings.NewReader("{}"))
			if err != nil {
				t.Fatal(err)
			}
			resp, body := servertest.Fetch(t, req)
			if resp.StatusCode != tt.want.HTTPCode || resp.Header.Get("Allow") != tt.allow {
				t.Errorf("HTTP %d, Allow %q; want %d, Allow %q: %s", resp.StatusCode, resp.Header.Get("Allow"), tt.want.HTTPCode, tt.allow, body)
			}
			servertest.CheckStatus(t, servertest.RESTStatus(t, body), tt.want.Code, tt.want)
		})
	}
}

// TestRESTContentType checks that a REST call takes only a JSON body, Content-Type application/json (with parameters
// or not): any other type, the ones a browser sends to another site without a CORS preflight included, and none at
// all are 415 UNSUPPORTED_MEDIA_TYPE, before the body is read.
func TestRESTContentType(t *testing.T) {
	ts := startServer(t, testConfig())
	unsupported := servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusUnsupportedMediaType,
		Reason: refusal.ReasonUnsupportedMediaType}
	for _, tt := range []struct {
		contentType string
		ok          bool
	}{
		{"application/json", true},
		{"application/json; charset=utf-8", true},
		{"Application/JSON", true},
		{"", false},
		{"text/plain", false},
		{"text/plain;charset=UTF-8", false},
		{"application/x-www-form-urlencoded", false},
		{"multipart/form-data; boundary=x", false},
		{"application/jsonp", false},
		{"application/json; broken=", false},
	} {
		t.Run(tt.contentType, func(t *testing.T) {
			req, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodPost, ts.URL+"/v1/games/exploze:new",
				strings.NewReader(`{"seal": true}`))
			if err != nil {
				t.Fatal(err)
			}
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			resp, body := servertest.Fetch(t, req)
			if tt.ok {
				if resp.StatusCode != http.StatusOK {
					t.Errorf("HTTP %d, want 200: %s", resp.StatusCode, body)
				}
				return
			}
			if resp.StatusCode != unsupported.HTTPCode {
				t.Errorf("HTTP %d, want %d: %s", resp.StatusCode, unsupported.HTTPCode, body)
			}
			servertest.CheckStatus(t, servertest.RESTStatus(t, body), unsupported.Code, unsupported)
		})
	}
}

// rawHTTP sends request, bytes as they are, to the HTTP listener at url, and returns the status code and body of the
// answer.
func rawHTTP(t *testing.T, url, request string) (int, string) {
	t.Helper()
	resp, body := rawExchange(t, url, request, false)
	return resp.StatusCode, body
}

// rawExchange sends request, bytes as they are, to the HTTP listener at url, then closes its side of the connection
// for writing if halfClose is set, and returns the answer and its body.
func rawExchange(t *testing.T, url, request string, halfClose bool) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	if halfClose {
		if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// TestRESTBodies sends bodies the server cannot take over raw HTTP/1.1: broken chunked framing is 400
// MALFORMED_BODY, a body that stops coming 408 REQUEST_TIMEOUT at the call's deadline, a declared length beyond what
// is left of the budget 429 SERVER_BUSY before it is read, a chunked body that outgrows it likewise, one beyond the
// size limit 413. Each answer is the JSON status with its reason; the server then answers a good request.
func TestRESTBodies(t *testing.T) {
	cfg := testConfig()
	cfg.CallTimeout = 500 * time.Millisecond
	cfg.MaxMessageBytes = 64 << 10
	ts := startServer(t, cfg)
	const head = "POST /v1/games/exploze:new HTTP/1.1\r\nHost: rulebook\r\nContent-Type: application/json\r\n"
	chunk := "1000\r\n" + strings.Repeat(" ", 0x1000) + "\r\n"
	tests := []struct {
		name    string
		request string
		want    servertest.WantError
	}{
		{"broken chunked framing", head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
			servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: gateway.ReasonMalformedBody}},
		{"a body that stops coming", head + "Content-Length: 100\r\n\r\n{\"seat\":",
			servertest.WantError{Code: codes.DeadlineExceeded, HTTPCode: http.StatusRequestTimeout, Reason: refusal.ReasonRequestTimeout}},
		{"a chunked body that stops coming", head + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n",
			servertest.WantError{Code: codes.DeadlineExceeded, HTTPCode: http.StatusRequestTimeout, Reason: refusal.ReasonRequestTimeout}},
		{"a length over the size limit", head + "Content-Length: 70000\r\n\r\n",
			servertest.WantError{Code: codes.ResourceExhausted, HTTPCode: http.StatusRequestEntityTooLarge, Reason: refusal.ReasonRequestTooLarge}},
		{"a chunked body over the size limit", head + "Transfer-Encoding: chunked\r\n\r\n" + strings.Repeat(chunk, 17) + "0\r\n\r\n",
			servertest.WantError{Code: codes.ResourceExhausted, HTTPCode: http.StatusRequestEntityTooLarge, Reason: refusal.ReasonRequestTooLarge}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := rawHTTP(t, ts.URL, tt.request)
			if code != tt.want.HTTPCode {
				t.Errorf("HTTP %d, want %d: %s", code, tt.want.HTTPCode, body)
			}
			servertest.CheckStatus(t, servertest.RESTStatus(t, []byte(body)), tt.want.Code, tt.want)
		})
	}
	if code, body := ts.Post(t, "/v1/games/exploze:new", `{}`); code != http.StatusOK {
		t.Errorf("a good request after them: HTTP %d %s", code, body)
	}
}

// TestRESTBodiesWithinTheBudget checks that a body takes the budget of request memory for what has arrived, not
// for what it declares: a body that declares 48,000 bytes and has sent 40,000 holds at most twice that of the 65,536
// (the buffer its bytes filled, doubled), one that has sent one byte holds none, and another body that does not fit in what is left is refused with 429
// SERVER_BUSY as its bytes arrive, whether it declares its length or is chunked, while a small one is served; once
// the first ends, the budget is free. The read timeout is long, so that nothing depends on how fast the test runs.
func TestRESTBodiesWithinTheBudget(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMessageBytes = 48 << 10
	cfg.MaxRequestMemory = 64 << 10
	cfg.ReadTimeout = time.Hour
	ts := startServer(t, cfg)
	const head = "POST /v1/games/exploze:new HTTP/1.1\r\nHost: rulebook\r\nContent-Type: application/json\r\n"
	waiting, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer waiting.Close()
	if _, err := io.WriteString(waiting, head+"Content-Length: 48000\r\n\r\n{"); err != nil { // declares 48,000, sends 1
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, head+"Content-Length: 48000\r\n\r\n{"+strings.Repeat(" ", 39999)); err != nil {
		t.Fatal(err)
	}
	for i := 0; ts.srv.budget.InFlight() < 40000; i++ { // until both bodies have taken their share
		if i == 60_000 {
			t.Fatal("the bodies never took their share of the budget")
		}
		time.Sleep(time.Millisecond)
	}
	if held := ts.srv.budget.InFlight(); held > 2*40001 {
		t.Errorf("%d bytes of the budget held by 40,001 bytes arrived: want at most twice that (a buffer that doubled)", held)
	}
	busy := servertest.WantError{Code: codes.ResourceExhausted, HTTPCode: http.StatusTooManyRequests, Reason: admission.ReasonServerBusy}
	for _, request := range []string{
		head + "Content-Length: 30000\r\n\r\n" + strings.Repeat(" ", 30000),
		head + "Transfer-Encoding: chunked\r\n\r\n" + strings.Repeat("1000\r\n"+strings.Repeat(" ", 0x1000)+"\r\n", 7) + "0\r\n\r\n",
	} {
		code, body := rawHTTP(t, ts.URL, request)
		if code != busy.HTTPCode {
			t.Fatalf("HTTP %d %s, want 429", code, body)
		}
		servertest.CheckStatus(t, servertest.RESTStatus(t, []byte(body)), busy.Code, busy)
	}
	if code, body := ts.Post(t, "/v1/games/exploze:new", `{}`); code != http.StatusOK {
		t.Errorf("a small request beside it: HTTP %d %s", code, body)
	}
	conn.Close()
	waiting.Close()
	for i := 0; ts.srv.budget.InFlight() != 0; i++ {
		if i == 60_000 {
			t.Fatalf("%d bytes of the budget still held after every request ended", ts.srv.budget.InFlight())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRESTDeadline checks that a REST call that outlives the call timeout is answered 504 DEADLINE_EXCEEDED, in the
// JSON status body, instead of a dropped connection.
func TestRESTDeadline(t *testing.T) {
	game := blockingGame{started: make(chan struct{}, 1), release: make(chan struct{})}
	cfg := testConfig()
	cfg.CallTimeout = 300 * time.Millisecond
	ts := startServer(t, cfg, engine.Game(game))
	defer close(game.release)
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze"}))(t).GetState()
	req := servertest.RequestCase(t, "", "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Move: servertest.ExplozeMove(1)},
		servertest.WantError{})
	code, body := ts.Post(t, req.Path, req.Body)
	if code != http.StatusGatewayTimeout {
		t.Fatalf("HTTP %d %s, want 504", code, body)
	}
	if st := servertest.RESTStatus(t, body); codes.Code(st.GetCode()) != codes.DeadlineExceeded {
		t.Errorf("status %v, want DEADLINE_EXCEEDED", st)
	}
}

// TestRESTUnpopulated checks that a REST answer leaves out the fields that are not set, unless the request's Accept
// header asks for every field (application/json; unpopulated=true).
func TestRESTUnpopulated(t *testing.T) {
	ts := startServer(t, testConfig())
	for _, tt := range []struct {
		accept string
		want   bool
	}{
		{"", false},
		{"application/json", false},
		{"application/json; unpopulated=true", true},
		{"text/html, application/json;unpopulated=true", true},
		{"application/json; unpopulated=false", false},
	} {
		req, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodPost, ts.URL+"/v1/games/exploze:new", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if tt.accept != "" {
			req.Header.Set("Accept", tt.accept)
		}
		resp, body := servertest.Fetch(t, req)
		var answer map[string]any
		if err := json.Unmarshal(body, &answer); resp.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("Accept %q: %d %s", tt.accept, resp.StatusCode, body)
		}
		if _, listed := answer["token"]; listed != tt.want || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("Accept %q: %s (%s), want the unset token listed: %v", tt.accept, body, resp.Header.Get("Content-Type"), tt.want)
		}
	}
}
