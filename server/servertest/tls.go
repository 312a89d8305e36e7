package servertest

import (
	"crypto/tls"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/rulebook/rulebook/internal/devcerts"
)

// NewCA returns a certificate authority made for the test, named name.
func NewCA(t testing.TB, name string) *devcerts.CA {
	t.Helper()
	ca, err := devcerts.NewCA(name)
	if err != nil {
		t.Fatal(err)
	}
	return ca
}

// ServerPair returns a server certificate signed by ca for loopback: localhost, 127.0.0.1 and ::1.
func ServerPair(t testing.TB, ca *devcerts.CA) devcerts.Pair {
	t.Helper()
	pair, err := ca.Server("localhost", "127.0.0.1", "::1")
	if err != nil {
		t.Fatal(err)
	}
	return pair
}

// ClientPair returns a client certificate signed by ca, for a client named name, with uris as its URI names.
func ClientPair(t testing.TB, ca *devcerts.CA, name string, uris ...string) devcerts.Pair {
	t.Helper()
	pair, err := ca.Client(name, uris...)
	if err != nil {
		t.Fatal(err)
	}
	return pair
}

// TLSFiles are the PEM files of a server's TLS that WriteTLSFiles wrote: its certificate and key, and the CA
// certificates of its clients.
type TLSFiles struct {
	Cert, Key, ClientCA string
}

// WriteTLSFiles writes pair and the certificate of clientCA into dir as tls.crt, tls.key and ca.crt, as
// cert-manager names them in a Secret, and returns their paths.
func WriteTLSFiles(t testing.TB, dir string, pair devcerts.Pair, clientCA *devcerts.CA) TLSFiles {
	t.Helper()
	f := TLSFiles{Cert: filepath.Join(dir, "tls.crt"), Key: filepath.Join(dir, "tls.key"), ClientCA: filepath.Join(dir, "ca.crt")}
	for path, b := range map[string][]byte{f.Cert: pair.CertPEM, f.Key: pair.KeyPEM, f.ClientCA: clientCA.CertPEM} {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// ClientTLS returns the TLS configuration of a client that trusts the servers whose certificates the CAs roots
// signed and, unless client is nil, presents that certificate.
func ClientTLS(t testing.TB, client *devcerts.Pair, roots ...*devcerts.CA) *tls.Config {
	t.Helper()
	cfg := &tls.Config{RootCAs: roots[0].Pool()}
	for _, ca := range roots[1:] {
		cfg.RootCAs.AppendCertsFromPEM(ca.CertPEM)
	}
	if client != nil {
		cert, err := client.TLS()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg
}

// HTTPSClient returns an HTTP client that connects with cfg, over HTTP/2 or HTTP/1.1 as the server's ALPN chooses,
// or over HTTP/1.1 only if http1 is true.
func HTTPSClient(cfg *tls.Config, http1 bool) *http.Client {
	transport := &http.Transport{TLSClientConfig: cfg.Clone(), ForceAttemptHTTP2: !http1}
	if http1 {
		transport.TLSClientConfig.NextProtos = []string{"http/1.1"}
	}
	return &http.Client{Transport: transport}
}

// DialTLS returns a client of the server with its gRPC listener at grpcAddr and HTTP at httpAddr (host:port),
// both over TLS with cfg (HTTP/2 on the HTTP listener by ALPN), closed when the test ends.
func DialTLS(t testing.TB, grpcAddr, httpAddr string, cfg *tls.Config) *Client {
	t.Helper()
	c := Dial(t, grpcAddr, httpAddr, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	c.URL = "https://" + httpAddr
	c.HTTP = HTTPSClient(cfg, false)
	t.Cleanup(c.HTTP.CloseIdleConnections)
	return c
}
