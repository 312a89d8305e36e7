package server

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/server/tlsfiles"
	"github.com/rulebook/rulebook/service"
)

// TestClientCertificateNamesCaller serves the API over mutual TLS to plain-state callers named by certificate, and
// checks over gRPC, REST and Connect that a call's caller is named by its client certificate (its first URI SAN,
// else its common name) and that an API key sent as well names it instead: only a plain-state caller may choose a
// seed, every other is refused SEED_REFUSED.
func TestClientCertificateNamesCaller(t *testing.T) {
	ca := servertest.NewCA(t, "test CA")
	files := servertest.WriteTLSFiles(t, t.TempDir(), servertest.ServerPair(t, ca), ca)
	cfg := testConfig()
	cfg.AcceptPlainStates = false
	cfg.TLS = tlsfiles.Files{Cert: files.Cert, Key: files.Key, ClientCA: files.ClientCA}
	cfg.APIKeys = callerKeys(t)
	cfg.PlainStateCallers = []string{"spiffe://example.org/game-server", "reporting"}
	ts := startServer(t, cfg)
	grpcAddr, httpAddr := ts.Conn.Target(), strings.TrimPrefix(ts.URL, "http://")

	for _, tt := range []struct {
		name          string
		cn            string
		uris          []string
		authorization string
		trusted       bool
	}{
		{"URI SAN", "ignored", []string{"spiffe://example.org/game-server", "spiffe://example.org/other"}, "", true},
		{"a second URI SAN is not the name", "ignored", []string{"spiffe://example.org/other", "spiffe://example.org/game-server"}, "", false},
		{"common name", "reporting", nil, "", true},
		{"another common name", "player", nil, "", false},
		{"API key over certificate", "reporting", nil, "Bearer " + playerKey, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			client := servertest.ClientPair(t, ca, tt.cn, tt.uris...)
			c := servertest.DialTLS(t, grpcAddr, httpAddr, servertest.ClientTLS(t, &client, ca))
			wantCode, wantHTTP := codes.OK, http.StatusOK
			if !tt.trusted {
				wantCode, wantHTTP = codes.PermissionDenied, http.StatusForbidden
			}
			ctx := servertest.CallContext(t)
			if tt.authorization != "" {
				ctx = metadata.AppendToOutgoingContext(ctx, "authorization", tt.authorization)
			}
			_, err := c.RPC.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze", Seed: proto.Uint64(1)})
			if servertest.StatusProto(err).GetCode() != int32(wantCode) {
				t.Errorf("gRPC: %v, want %v", err, wantCode)
			}
			for _, path := range []string{"/v1/games/exploze:new", rulebookv1grpc.RulesService_NewGame_FullMethodName} {
				req, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodPost, c.URL+path,
					strings.NewReader(`{"game": "exploze", "seed": "1"}`))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/json")
				if tt.authorization != "" {
					req.Header.Set("Authorization", tt.authorization)
				}
				resp, err := c.HTTP.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != wantHTTP {
					t.Errorf("%s: HTTP %d %s, want %d", path, resp.StatusCode, body, wantHTTP)
				}
				if !tt.trusted && !bytes.Contains(body, []byte(service.ReasonSeedRefused)) {
					t.Errorf("%s: %s, want %s", path, body, service.ReasonSeedRefused)
				}
			}
		})
	}
}
