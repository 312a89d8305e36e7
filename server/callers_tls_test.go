package server

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"

	"github.com/rulebook/rulebook/server/identity"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service/caller"
)

// TestClientCertificateNamesCaller serves gRPC over mutual TLS with the server's caller tagger, and checks that a
// call's caller is named by its client certificate: its first URI SAN, else its common name; and that an API key
// sent as well names it instead.
func TestClientCertificateNamesCaller(t *testing.T) {
	ca := servertest.NewCA(t)
	pool := ca.Pool
	serverCert := ca.Issue(t, &x509.Certificate{IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	client := func(cn string, uris ...string) tls.Certificate {
		return ca.Issue(t, servertest.ClientTemplate(t, cn, uris...))
	}

	named := make(chan string, 1)
	record := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		named <- caller.Name(ctx)
		return handler(ctx, req)
	}
	tagger := callers{id: identity.NewIdentifier(callerKeys(t))}.tagger()
	srv := grpc.NewServer(grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{serverCert},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS12})),
		grpc.StatsHandler(tagger), grpc.UnaryInterceptor(record))
	healthpb.RegisterHealthServer(srv, health.NewServer())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(srv.Stop)

	for _, tt := range []struct {
		name          string
		cert          tls.Certificate
		authorization string
		want          string
	}{
		{"URI SAN", client("ignored", "spiffe://example.org/game-server", "spiffe://example.org/other"), "", "spiffe://example.org/game-server"},
		{"common name", client("reporting"), "", "reporting"},
		{"API key over certificate", client("reporting"), "Bearer " + playerKey, "player-app"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := grpc.NewClient(l.Addr().String(), grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{
				RootCAs: pool, Certificates: []tls.Certificate{tt.cert}, MinVersion: tls.VersionTLS12})))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ctx := servertest.CallContext(t)
			if tt.authorization != "" {
				ctx = metadata.AppendToOutgoingContext(ctx, "authorization", tt.authorization)
			}
			servertest.Succeeded(healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}))(t)
			if got := <-named; got != tt.want {
				t.Errorf("caller %q, want %q", got, tt.want)
			}
		})
	}
}
