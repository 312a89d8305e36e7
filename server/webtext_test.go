package server

import (
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestGRPCWebText calls the server in gRPC-Web's text mode, as the grpc-web JavaScript client does by default, with
// requests built by hand (base64 of each message's 5-byte envelope and the message): the answer is in base64 too,
// under the text mode's content type, and holds the message and the trailers, or the refusal's status.
func TestGRPCWebText(t *testing.T) {
	ts := startServer(t, testConfig())
	for _, tt := range []struct {
		name       string
		req        proto.Message
		grpcStatus string
	}{
		{"a game", &rulebookv1.NewGameRequest{Game: "exploze"}, "0"},
		{"an unknown game", &rulebookv1.NewGameRequest{Game: "chess"}, "5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := proto.Marshal(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			body := base64.StdEncoding.EncodeToString(append(binary.BigEndian.AppendUint32([]byte{0}, uint32(len(msg))), msg...))
			req, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodPost, ts.URL+rulesServicePrefix+"NewGame",
				strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/grpc-web-text")
			req.Header.Set("X-Grpc-Web", "1")
			resp, answer := servertest.Fetch(t, req)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/grpc-web-text+proto" {
				t.Fatalf("HTTP %d, %s: %.300s", resp.StatusCode, resp.Header.Get("Content-Type"), answer)
			}
			frames, err := base64.StdEncoding.DecodeString(string(answer))
			if err != nil {
				t.Fatalf("the answer is not base64: %v: %.300s", err, answer)
			}
			var got rulebookv1.NewGameResponse
			trailers := resp.Header.Get("Grpc-Status") // a refusal without a message: in the headers
			for len(frames) >= 5 {
				flags, n := frames[0], binary.BigEndian.Uint32(frames[1:5])
				frame := frames[5 : 5+n]
				frames = frames[5+n:]
				if flags&0x80 != 0 {
					trailers = string(frame)
				} else if err := proto.Unmarshal(frame, &got); err != nil {
					t.Fatal(err)
				}
			}
			if !strings.Contains(trailers, tt.grpcStatus) || (tt.grpcStatus == "0") != (got.GetState() != nil) {
				t.Errorf("trailers %q and state %v; want grpc-status %s", trailers, got.GetState() != nil, tt.grpcStatus)
			}
		})
	}
	t.Run("not base64", func(t *testing.T) {
		resp, body := rawExchange(t, ts.URL, "POST "+rulesServicePrefix+"ListGames HTTP/1.1\r\nHost: rulebook\r\n"+
			"Content-Type: application/grpc-web-text\r\nContent-Length: 4\r\n\r\n!!!!", false)
		if resp.Header.Get("Grpc-Status") != "3" {
			t.Errorf("HTTP %d, grpc-status %q, want 3: %s", resp.StatusCode, resp.Header.Get("Grpc-Status"), body)
		}
	})
}

// TestGRPCTimeouts checks the reading and writing of grpc-timeout values.
func TestGRPCTimeouts(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"1H", time.Hour, true}, {"250m", 250 * time.Millisecond, true}, {"99999999n", 99999999, true},
		{"7S", 7 * time.Second, true}, {"5u", 5 * time.Microsecond, true}, {"3M", 3 * time.Minute, true},
		{"", 0, false}, {"m", 0, false}, {"soon", 0, false}, {"100000000n", 0, false}, {"-1S", 0, false},
		{"+1S", 0, false}, {"1s", 0, false}, {"1.5S", 0, false},
	} {
		if got, ok := parseGRPCTimeout(tt.value); got != tt.want || ok != tt.ok {
			t.Errorf("parseGRPCTimeout(%q) = %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.ok)
		}
	}
	for _, d := range []time.Duration{time.Nanosecond, 60 * time.Millisecond, 99999999, 100000000, 10 * time.Second,
		1500 * time.Hour, 1<<63 - 1} {
		v := formatGRPCTimeout(d)
		got, ok := parseGRPCTimeout(v)
		if !ok || got < d {
			t.Errorf("formatGRPCTimeout(%v) = %q, which reads as %v, %v", d, v, got, ok)
		}
	}
}
