package server

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/internal/restjson"
	"github.com/rulebook/rulebook/server/gateway"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestClientMistakes makes a client's mistakes on every transport, over real HTTP and gRPC: each is a 4xx (or its
// gRPC code) with its reason in the protocol's own error form, and, once all are answered, none was logged at error
// level (no stack trace), counted as INTERNAL or UNKNOWN, or answered 500.
func TestClientMistakes(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMessageBytes, cfg.CallTimeout = 4<<10, 300*time.Millisecond
	core, logs := observer.New(zapcore.InfoLevel)
	ts := start(t, setup{cfg: cfg, admin: true, log: zap.New(core)})
	const (
		rest    = "POST /v1/games/exploze:new HTTP/1.1\r\nHost: rulebook\r\n"
		connect = "POST " + rulesServicePrefix + "NewGame HTTP/1.1\r\nHost: rulebook\r\n"
		json    = "Content-Type: application/json\r\n"
		grpcWeb = "Content-Type: application/grpc-web+json\r\n"
	)
	webMessage := func(body string) string { return "\x00\x00\x00\x00" + string(rune(len(body))) + body } // < 128 bytes
	tests := []struct {
		name, request string
		halfClose     bool
		status        int
		reason        string // in the body's JSON (REST's status, Connect's error) or gRPC-Web's grpc-status-details-bin
		grpcStatus    string // gRPC-Web's grpc-status, if the protocol's
	}{
		{"REST wrong method", "GET /v1/games/exploze:apply HTTP/1.1\r\nHost: rulebook\r\n\r\n", false,
			http.StatusMethodNotAllowed, refusal.ReasonMethodNotAllowed, ""},
		{"REST too large", rest + json + "Content-Length: 5000\r\n\r\n" + strings.Repeat(" ", 5000), false,
			http.StatusRequestEntityTooLarge, refusal.ReasonRequestTooLarge, ""},
		{"REST body late", rest + json + "Content-Length: 100\r\n\r\n{", false,
			http.StatusRequestTimeout, refusal.ReasonRequestTimeout, ""},
		{"REST body cut short", rest + json + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"se", true,
			http.StatusBadRequest, gateway.ReasonMalformedBody, ""},
		{"REST text body", rest + "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}", false,
			http.StatusUnsupportedMediaType, refusal.ReasonUnsupportedMediaType, ""},
		{"REST malformed timeout", rest + json + "Grpc-Timeout: soon\r\nContent-Length: 2\r\n\r\n{}", false,
			http.StatusBadRequest, ReasonMalformedTimeout, ""},
		{"Connect unknown field", connect + json + "Content-Length: 12\r\n\r\n{\"seel\": {}}", false,
			http.StatusBadRequest, refusal.ReasonInvalidField, ""},
		{"Connect broken JSON", connect + json + "Content-Length: 8\r\n\r\n{\"game\":", false,
			http.StatusBadRequest, restjson.ReasonMalformedJSON, ""},
		{"Connect malformed timeout", connect + json + "Connect-Timeout-Ms: soon\r\nContent-Length: 2\r\n\r\n{}", false,
			http.StatusBadRequest, ReasonMalformedTimeout, ""},
		{"Connect body cut short", connect + json + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"se", true,
			http.StatusBadRequest, gateway.ReasonMalformedBody, ""},
		{"gRPC-Web unknown field", connect + grpcWeb + "Content-Length: 17\r\n\r\n" + webMessage(`{"seel": {}}`), false,
			http.StatusOK, refusal.ReasonInvalidField, "3"},
		{"gRPC-Web malformed timeout", connect + grpcWeb + "Grpc-Timeout: soon\r\nContent-Length: 7\r\n\r\n" + webMessage("{}"), false,
			http.StatusOK, ReasonMalformedTimeout, "3"},
		{"gRPC over HTTP/1.1", connect + "Content-Type: application/grpc\r\nContent-Length: 5\r\n\r\n\x00\x00\x00\x00\x00", false,
			http.StatusBadRequest, ReasonHTTP2Required, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := rawExchange(t, ts.URL, tt.request, tt.halfClose)
			if resp.StatusCode != tt.status || resp.Header.Get("Grpc-Status") != tt.grpcStatus {
				t.Errorf("HTTP %d, grpc-status %q; want %d, %q: %s", resp.StatusCode, resp.Header.Get("Grpc-Status"),
					tt.status, tt.grpcStatus, body)
			}
			if details := resp.Header.Get("Grpc-Status-Details-Bin"); details != "" {
				b, _ := base64.RawStdEncoding.DecodeString(strings.TrimRight(details, "="))
				body = string(b) // the status in protobuf: the reason is in it as it is
			}
			if !strings.Contains(body, tt.reason) {
				t.Errorf("the answer does not give the reason %s: %s", tt.reason, body)
			}
		})
	}
	for _, sent := range []int{0, 2} {
		t.Run(fmt.Sprintf("gRPC stream of %d messages", sent), func(t *testing.T) {
			desc := &grpc.StreamDesc{StreamName: "NewGame", ClientStreams: true}
			stream, err := ts.Conn.NewStream(servertest.CallContext(t), desc, rulesServicePrefix+"NewGame")
			if err != nil {
				t.Fatal(err)
			}
			for range sent {
				if err := stream.SendMsg(&rulebookv1.NewGameRequest{Game: "exploze"}); err != nil {
					t.Fatal(err)
				}
			}
			if err := stream.CloseSend(); err != nil {
				t.Fatal(err)
			}
			err = stream.RecvMsg(&rulebookv1.NewGameResponse{})
			if status.Code(err) != codes.InvalidArgument || refusal.Reason(err) != ReasonMalformedMessage {
				t.Errorf("%v, want INVALID_ARGUMENT %s", err, ReasonMalformedMessage)
			}
		})
	}

	// The Connect and gRPC-Web calls that Vanguard refused and the two gRPC streams each end a gRPC call.
	const calls = 5
	for i := 0; logs.FilterMessage("request").Len() < len(tests) || logs.FilterMessage("finished call").Len() < calls; i++ {
		if i == 60_000 { // a line is written once its handler returns, maybe after its client has the answer
			t.Fatalf("%d access lines and %d call lines, want %d and %d", logs.FilterMessage("request").Len(),
				logs.FilterMessage("finished call").Len(), len(tests), calls)
		}
		time.Sleep(time.Millisecond)
	}
	for _, e := range logs.All() {
		if e.Level >= zapcore.ErrorLevel {
			t.Errorf("logged at %s: %s %v", e.Level, e.Message, e.ContextMap())
		}
	}
	families := scrape(t, ts)
	if v, _ := sample(families, "grpc_server_handled_total", map[string]string{"grpc_method": "NewGame", "grpc_code": "InvalidArgument"}); v != calls {
		t.Errorf("NewGame calls counted INVALID_ARGUMENT: %v, want %d", v, calls)
	}
	for _, tt := range []struct {
		family string
		labels map[string]string
	}{
		{"grpc_server_handled_total", map[string]string{"grpc_code": "Internal"}},
		{"grpc_server_handled_total", map[string]string{"grpc_code": "Unknown"}},
		{"rulebook_refusals_total", map[string]string{"reason": "Internal"}},
		{"rulebook_refusals_total", map[string]string{"reason": "Unknown"}},
		{"rulebook_http_requests_total", map[string]string{"code": "500"}},
	} {
		if v, ok := sample(families, tt.family, tt.labels); ok && v != 0 {
			t.Errorf("%s%v = %v, want 0", tt.family, tt.labels, v)
		}
	}
}
