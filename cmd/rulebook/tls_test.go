package main

import (
	"context"
	"crypto/tls"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/internal/devcerts"
	"github.com/rulebook/rulebook/server/servertest"
)

// tlsServer starts a server over TLS with a certificate for names, signed by ca, requiring a client certificate
// signed by ca if mutual is true, and returns its address.
func tlsServer(t *testing.T, ca *devcerts.CA, mutual bool, names ...string) string {
	t.Helper()
	pair, err := ca.Server(names...)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := pair.TLS()
	if err != nil {
		t.Fatal(err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}}
	if mutual {
		cfg.ClientAuth, cfg.ClientCAs = tls.RequireAndVerifyClientCert, ca.Pool()
	}
	return startServer(t, false, grpc.Creds(credentials.NewTLS(cfg)))
}

// TestTLS runs rulebook against servers over TLS and mutual TLS, with and without the flags each needs.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca, other := servertest.NewCA(t, "test CA"), servertest.NewCA(t, "another CA")
	caFile := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, pair := range map[string]devcerts.Pair{"client": servertest.ClientPair(t, ca, "player"), "stranger": servertest.ClientPair(t, other, "stranger")} {
		if err := pair.Write(dir, name); err != nil {
			t.Fatal(err)
		}
	}
	client := []string{"-tls-cert-file", filepath.Join(dir, "client.crt"), "-tls-key-file", filepath.Join(dir, "client.key")}
	stranger := []string{"-tls-cert-file", filepath.Join(dir, "stranger.crt"), "-tls-key-file", filepath.Join(dir, "stranger.key")}
	server, mutual := tlsServer(t, ca, false, "127.0.0.1"), tlsServer(t, ca, true, "127.0.0.1")
	named := tlsServer(t, ca, false, "rulebook.example")
	served, unavailable := want{golden: "games.txt"}, want{code: exitRefused, stderrPrefix: "rulebook: Unavailable: "}

	tests := []struct {
		name string
		addr string
		args []string
		want want
	}{
		{"TLS", server, []string{"-tls-ca-file", caFile}, served},
		{"TLS, the system's CAs", server, []string{"-tls"}, unavailable},
		{"plain TCP to a TLS server", server, nil, unavailable},
		{"mutual TLS", mutual, append([]string{"-tls-ca-file", caFile}, client...), served},
		{"mutual TLS without a client certificate", mutual, []string{"-tls-ca-file", caFile}, unavailable},
		{"mutual TLS with a certificate of another CA", mutual, append([]string{"-tls-ca-file", caFile}, stranger...), unavailable},
		{"server name", named, []string{"-tls-ca-file", caFile, "-tls-server-name", "rulebook.example"}, served},
		{"server name not the certificate's", named, []string{"-tls-ca-file", caFile}, unavailable},
		{"certificate without key", mutual, []string{"-tls-cert-file", filepath.Join(dir, "client.crt")}, want{code: exitUsage,
			stderr: "rulebook: -tls-cert-file and -tls-key-file go together\nRun 'rulebook -h' for usage.\n"}},
		{"missing CA file", server, []string{"-tls-ca-file", filepath.Join(dir, "missing.crt")}, want{code: exitUsage,
			stderrPrefix: "rulebook: -tls-ca-file: open "}},
		{"CA file of no certificate", server, []string{"-tls-ca-file", filepath.Join(dir, "client.key")}, want{code: exitUsage,
			stderrPrefix: "rulebook: -tls-ca-file " + filepath.Join(dir, "client.key") + ": no PEM certificate in it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, rulebook(t, "", append(append([]string{"-addr", tt.addr, "-timeout", "20s"}, tt.args...), "games")...))
		})
	}
}

// TestAPIKey runs rulebook against a TLS server that serves only calls with the right API key: rulebook sends
// RULEBOOK_API_KEY with every call over TLS, and refuses to send it over plain TCP.
func TestAPIKey(t *testing.T) {
	const key = "a-key-for-the-test"
	dir := t.TempDir()
	ca := servertest.NewCA(t, "test CA")
	caFile := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	pair, err := ca.Server("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := pair.TLS()
	if err != nil {
		t.Fatal(err)
	}
	keyed := grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if md, _ := metadata.FromIncomingContext(ctx); !slices.Equal(md.Get("authorization"), []string{"Bearer " + key}) {
			return nil, status.Error(codes.Unauthenticated, "no key")
		}
		return handler(ctx, req)
	})
	addr := startServer(t, false, grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}})), keyed)
	for _, tt := range []struct {
		name, key string
		args      []string
		want      want
	}{
		{"the key over TLS", key, []string{"-tls-ca-file", caFile}, want{golden: "games.txt"}},
		{"no key", "", []string{"-tls-ca-file", caFile}, want{code: exitRefused, stderrPrefix: "rulebook: Unauthenticated: "}},
		{"a wrong key", "another", []string{"-tls-ca-file", caFile}, want{code: exitRefused, stderrPrefix: "rulebook: Unauthenticated: "}},
		{"the key over plain TCP", key, nil, want{code: exitUsage,
			stderr: "rulebook: RULEBOOK_API_KEY is sent over TLS only: add -tls (or -tls-ca-file)\nRun 'rulebook -h' for usage.\n"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(apiKeyEnv, tt.key)
			tt.want.check(t, rulebook(t, "", append(append([]string{"-addr", addr, "-timeout", "20s"}, tt.args...), "games")...))
		})
	}
}
