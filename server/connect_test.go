package server

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/genproto/googleapis/rpc/errdetails"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/internal/restjson"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
)

// testOrigin is the origin of the pages whose calls the tests' CORS servers allow.
const testOrigin = "https://app.example.test"

// rpcProtocols are the protocols a browser's client may call RulesService with on the HTTP listener, as connect-go's
// client options choose them.
var rpcProtocols = []struct {
	name string
	opts []connect.ClientOption
}{
	{"Connect JSON", []connect.ClientOption{connect.WithProtoJSON()}},
	{"Connect proto", nil},
	{"gRPC-Web proto", []connect.ClientOption{connect.WithGRPCWeb()}},
	{"gRPC-Web JSON", []connect.ClientOption{connect.WithGRPCWeb(), connect.WithProtoJSON()}},
}

// originTransport sends every request with Origin testOrigin, as a page of that origin does, and fails the test
// unless every answer allows that origin and exposes the gRPC-Web headers.
type originTransport struct {
	t *testing.T
}

// RoundTrip sends req from testOrigin and checks the CORS headers of its answer.
func (o originTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Origin", testOrigin)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != testOrigin {
			o.t.Errorf("%s: Access-Control-Allow-Origin %q, want %q", req.URL.Path, got, testOrigin)
		}
		if got := resp.Header.Get("Access-Control-Expose-Headers"); !strings.Contains(got, "Grpc-Status-Details-Bin") {
			o.t.Errorf("%s: Access-Control-Expose-Headers %q, want the gRPC-Web headers", req.URL.Path, got)
		}
	}
	return resp, err
}

// rpcClient returns the client of the RulesService method named method on ts's HTTP listener, as a page of
// testOrigin calls it, with opts.
func rpcClient[Req, Resp any](t *testing.T, ts *testServer, method string, opts ...connect.ClientOption) *connect.Client[Req, Resp] {
	return connect.NewClient[Req, Resp](&http.Client{Transport: originTransport{t}}, ts.URL+rulesServicePrefix+method, opts...)
}

// connectReason returns the code of err, a Connect error, and the reason of its ErrorInfo ("" for none).
func connectReason(t *testing.T, err error) (connect.Code, string) {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) {
		t.Fatalf("%v: not a Connect error", err)
	}
	for _, d := range ce.Details() {
		if info, err := d.Value(); err == nil {
			if info, ok := info.(*errdetails.ErrorInfo); ok && info.GetDomain() == "rulebook" {
				return ce.Code(), info.GetReason()
			}
		}
	}
	return ce.Code(), ""
}

// TestRPCProtocols plays over each browser protocol on a server that allows testOrigin: a new sealed game, a legal
// move, then a move the rules forbid, whose code and reason the client reads; every answer carries the CORS headers.
func TestRPCProtocols(t *testing.T) {
	cfg := testConfig()
	cfg.AcceptPlainStates, cfg.CORSOrigins = false, []string{testOrigin}
	ts := startServer(t, cfg)
	for _, p := range rpcProtocols {
		t.Run(p.name, func(t *testing.T) {
			ctx := servertest.CallContext(t)
			newGame := rpcClient[rulebookv1.NewGameRequest, rulebookv1.NewGameResponse](t, ts, "NewGame", p.opts...)
			apply := rpcClient[rulebookv1.ApplyMoveRequest, rulebookv1.ApplyMoveResponse](t, ts, "ApplyMove", p.opts...)
			game, err := newGame.CallUnary(ctx, connect.NewRequest(&rulebookv1.NewGameRequest{Game: "exploze", Seal: true}))
			if err != nil {
				t.Fatal(err)
			}
			passes := game.Msg.GetSeatPasses()
			if !strings.HasPrefix(game.Msg.GetToken(), "v2.") || len(passes) != 2 {
				t.Fatalf("NewGame answered %v, want a token and two seat passes", game.Msg)
			}
			applied, err := apply.CallUnary(ctx, connect.NewRequest(&rulebookv1.ApplyMoveRequest{Game: "exploze",
				Token: game.Msg.GetToken(), SeatPass: passes[0], Move: servertest.ExplozeMove(1)}))
			if err != nil {
				t.Fatal(err)
			}
			if got := applied.Msg.GetView().GetExploze().GetToMove(); got != 2 {
				t.Errorf("after player 1's move, player %d to move, want 2", got)
			}
			_, err = apply.CallUnary(ctx, connect.NewRequest(&rulebookv1.ApplyMoveRequest{Game: "exploze",
				Token: applied.Msg.GetToken(), SeatPass: passes[1], Move: servertest.ExplozeMove(2)}))
			if code, reason := connectReason(t, err); code != connect.CodeFailedPrecondition || reason != "CELL_OWNED_BY_OPPONENT" {
				t.Errorf("player 2 on player 1's stone: %v %q, want failed_precondition CELL_OWNED_BY_OPPONENT", code, reason)
			}
		})
	}
}

// TestRPCRefusals sends requests on a call's path that the HTTP listener refuses before, as or after it decodes
// them, as a Connect unary call without the optional Connect-Protocol-Version (as curl sends it): each is answered
// in Connect's JSON with the reason that REST and gRPC give, at the HTTP status of Connect's code (or 405, 415).
func TestRPCRefusals(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMessageBytes, cfg.MaxRequestMemory = 4<<10, 64<<10
	ts := startServer(t, cfg)
	tests := []struct {
		name, method, contentType, body string
		encoding                        string // the request's Content-Encoding, if any
		code                            int
		reason                          string
	}{
		{"malformed JSON", http.MethodPost, "application/json", `{"game": `, "", http.StatusBadRequest, restjson.ReasonMalformedJSON},
		{"unknown JSON field", http.MethodPost, "application/json", `{"game": "exploze", "sea": true}`, "", http.StatusBadRequest, refusal.ReasonInvalidField},
		{"malformed protobuf", http.MethodPost, "application/proto", "\x0a\x05exp", "", http.StatusBadRequest, ReasonMalformedMessage},
		{"too large", http.MethodPost, "application/json", `{"game": "` + strings.Repeat("x", 5<<10) + `"}`, "", http.StatusRequestEntityTooLarge, refusal.ReasonRequestTooLarge},
		{"unknown game", http.MethodPost, "application/json", `{"game": "chess"}`, "", http.StatusNotFound, service.ReasonUnknownGame},
		{"no content type", http.MethodPost, "", `{}`, "", http.StatusUnsupportedMediaType, refusal.ReasonUnsupportedMediaType},
		{"text", http.MethodPost, "text/plain", `{}`, "", http.StatusUnsupportedMediaType, refusal.ReasonUnsupportedMediaType},
		{"empty JSON body, the empty message as in REST", http.MethodPost, "application/json", "", "", http.StatusBadRequest, refusal.ReasonInvalidField},
		{"compressed", http.MethodPost, "application/json", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", "gzip", http.StatusBadRequest, ReasonCompressionUnsupported},
		{"GET", http.MethodGet, "", "", "", http.StatusMethodNotAllowed, refusal.ReasonMethodNotAllowed},
		{"preflight without CORS", http.MethodOptions, "", "", "", http.StatusMethodNotAllowed, refusal.ReasonMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(servertest.CallContext(t), tt.method, ts.URL+rulesServicePrefix+"NewGame", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			if tt.encoding != "" {
				req.Header.Set("Content-Encoding", tt.encoding)
			}
			if tt.method == http.MethodOptions {
				req.Header.Set("Origin", testOrigin)
				req.Header.Set("Access-Control-Request-Method", http.MethodPost)
			}
			resp, body := servertest.Fetch(t, req)
			err = connectErrorOf(t, resp, body)
			if _, reason := connectReason(t, err); resp.StatusCode != tt.code || reason != tt.reason {
				t.Errorf("HTTP %d %q, want %d %q: %s", resp.StatusCode, reason, tt.code, tt.reason, body)
			}
			if resp.Header.Get("Access-Control-Allow-Origin") != "" {
				t.Error("a server without CORS origins answered with Access-Control-Allow-Origin")
			}
		})
	}
}

// TestRPCFrames sends gRPC-Web requests whose body is not one uncompressed message: each is refused with
// INVALID_ARGUMENT and its reason, never INTERNAL; one message in its envelope is served.
func TestRPCFrames(t *testing.T) {
	ts := startServer(t, testConfig())
	tests := []struct {
		name, body, encoding string
		reason               string // "" for an answer
	}{
		{"one empty message", "\x00\x00\x00\x00\x00", "", ""},
		{"no body", "", "", ReasonMalformedMessage},
		{"an envelope cut short", "\x00\x00\x00", "", ReasonMalformedMessage},
		{"fewer bytes than the envelope says", "\x00\x00\x00\x00\x10abc", "", ReasonMalformedMessage},
		{"more bytes than the envelope says", "\x00\x00\x00\x00\x00abc", "", ReasonMalformedMessage},
		{"a trailers frame", "\x80\x00\x00\x00\x00", "", ReasonMalformedMessage},
		{"a message flagged compressed", "\x01\x00\x00\x00\x03abc", "", ReasonCompressionUnsupported},
		{"grpc-encoding", "\x00\x00\x00\x00\x00", "gzip", ReasonCompressionUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodPost, ts.URL+rulesServicePrefix+"ListGames", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/grpc-web+proto")
			if tt.encoding != "" {
				req.Header.Set("Grpc-Encoding", tt.encoding)
			}
			resp, body := servertest.Fetch(t, req)
			status := resp.Header.Get("Grpc-Status")
			if tt.reason == "" {
				if resp.StatusCode != http.StatusOK || status != "" && status != "0" {
					t.Errorf("HTTP %d, grpc-status %q, want an answer: %q", resp.StatusCode, status, body)
				}
				return
			}
			err = connectErrorOf(t, resp, body, connect.WithGRPCWeb())
			if code, reason := connectReason(t, err); code != connect.CodeInvalidArgument || reason != tt.reason {
				t.Errorf("%v %q (%v), want invalid_argument %q", code, reason, err, tt.reason)
			}
		})
	}
}

// connectErrorOf returns the Connect error that resp, an answer with body, carries, as connect-go's client reads it:
// a Connect unary answer in JSON, or the answer of the protocol and codec that opts choose.
func connectErrorOf(t *testing.T, resp *http.Response, body []byte, opts ...connect.ClientOption) error {
	t.Helper()
	if len(opts) == 0 {
		opts = []connect.ClientOption{connect.WithProtoJSON()}
	}
	client := connect.NewClient[rulebookv1.NewGameRequest, rulebookv1.NewGameResponse](replay{resp, body}, "http://replayed/x", opts...)
	_, err := client.CallUnary(context.Background(), connect.NewRequest(&rulebookv1.NewGameRequest{}))
	if err == nil {
		t.Fatalf("HTTP %d %s: no error", resp.StatusCode, body)
	}
	return err
}

// replay is a connect.HTTPClient that answers any request with one recorded answer.
type replay struct {
	resp *http.Response
	body []byte
}

// Do answers with the recorded answer.
func (r replay) Do(*http.Request) (*http.Response, error) {
	resp := *r.resp
	resp.Body = nopCloser{bytes.NewReader(r.body)}
	return &resp, nil
}

// nopCloser is a reader with a Close that does nothing.
type nopCloser struct{ *bytes.Reader }

// Close does nothing.
func (nopCloser) Close() error { return nil }

// TestRPCInterceptors checks that a call over Connect goes through what a gRPC call does: the limiter refuses it when
// every slot is taken (and counts the refusal), and it has its call log line, with its deadline, and its gRPC
// metrics, besides the HTTP listener's access line and metrics. A REST call refused as busy meanwhile still allows
// the page's origin.
func TestRPCInterceptors(t *testing.T) {
	game := blockingGame{started: make(chan struct{}, 2), release: make(chan struct{})}
	cfg := testConfig()
	cfg.MaxConcurrentCalls, cfg.MaxHeavyCalls, cfg.CORSOrigins = 2, 1, []string{testOrigin}
	core, logs := observer.New(zapcore.InfoLevel)
	ts := start(t, setup{cfg: cfg, games: []engine.Game{game}, admin: true, log: zap.New(core)})
	ctx := servertest.CallContext(t)
	newGame := connect.NewClient[rulebookv1.NewGameRequest, rulebookv1.NewGameResponse](http.DefaultClient, ts.URL+rulesServicePrefix+"NewGame")
	apply := connect.NewClient[rulebookv1.ApplyMoveRequest, rulebookv1.ApplyMoveResponse](http.DefaultClient, ts.URL+rulesServicePrefix+"ApplyMove")
	listGames := connect.NewClient[rulebookv1.ListGamesRequest, rulebookv1.ListGamesResponse](http.DefaultClient, ts.URL+rulesServicePrefix+"ListGames", connect.WithGRPCWeb())
	started, err := newGame.CallUnary(ctx, connect.NewRequest(&rulebookv1.NewGameRequest{Game: "exploze"}))
	if err != nil {
		t.Fatal(err)
	}
	var held sync.WaitGroup
	for range 2 {
		held.Go(func() {
			if _, err := apply.CallUnary(ctx, connect.NewRequest(&rulebookv1.ApplyMoveRequest{Game: "exploze",
				State: started.Msg.GetState(), Move: servertest.ExplozeMove(1)})); err != nil {
				t.Errorf("a held call: %v", err)
			}
		})
		<-game.started
	}
	_, err = listGames.CallUnary(ctx, connect.NewRequest(&rulebookv1.ListGamesRequest{}))
	if code, reason := connectReason(t, err); code != connect.CodeResourceExhausted || reason != "SERVER_BUSY" {
		t.Errorf("ListGames with every slot taken: %v %q, want resource_exhausted SERVER_BUSY", code, reason)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/v1/puzzles/pieceSets", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", testOrigin)
	if resp, body := servertest.Fetch(t, req); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Access-Control-Allow-Origin") != testOrigin {
		t.Errorf("REST with every slot taken: HTTP %d %v %s, want 429 with the origin allowed", resp.StatusCode, resp.Header, body)
	}
	close(game.release)
	held.Wait()

	access := func(method string) int {
		return logs.FilterMessage("request").FilterField(zap.String("route", rulesServicePrefix+method)).Len()
	}
	for i := 0; access("ApplyMove") < 2 || access("ListGames") < 1; i++ {
		if i == 60_000 { // a request's access line is written once its handler returns, maybe after its client has the answer
			t.Fatalf("access lines: %d of ApplyMove, %d of ListGames; want 2 and 1", access("ApplyMove"), access("ListGames"))
		}
		time.Sleep(time.Millisecond)
	}
	families := scrape(t, ts) // each request is counted before its access line is written
	for _, tt := range []struct {
		family string
		labels map[string]string
		want   float64
	}{
		{"rulebook_refusals_total", map[string]string{"method": "ListGames", "reason": "SERVER_BUSY"}, 1},
		{"rulebook_refusals_total", map[string]string{"method": "ListPieceSets", "reason": "SERVER_BUSY"}, 1},
		{"grpc_server_handled_total", map[string]string{"grpc_method": "ApplyMove", "grpc_code": "OK"}, 2},
		{"grpc_server_handled_total", map[string]string{"grpc_method": "ListGames", "grpc_code": "ResourceExhausted"}, 1},
		{"rulebook_http_requests_total", map[string]string{"route": rulesServicePrefix + "ApplyMove", "code": "200"}, 2},
		{"rulebook_http_requests_total", map[string]string{"route": rulesServicePrefix + "ListGames", "code": "200"}, 1},
	} {
		if v, _ := sample(families, tt.family, tt.labels); v != tt.want {
			t.Errorf("%s%v = %v, want %v", tt.family, tt.labels, v, tt.want)
		}
	}
	lines := logs.FilterMessage("finished call").FilterField(zap.String("grpc.method", "ApplyMove")).All()
	if len(lines) != 2 || lines[0].ContextMap()["grpc.request.deadline"] == nil {
		t.Errorf("ApplyMove's call lines %v, want 2 with their deadlines", lines)
	}
}
