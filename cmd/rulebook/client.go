package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/rulebook/rulebook/service/serviceconfig"
)

// dial returns a client connection to the server at addr, with creds, with the service config rulebook publishes (a
// call that fails with UNAVAILABLE is tried again), whose calls each give up after timeout, their retries included,
// and each send key, if not empty, as their API key. It does not connect until the first call.
func dial(addr string, creds credentials.TransportCredentials, timeout time.Duration, key string) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		grpc.WithDefaultServiceConfig(serviceconfig.JSON),
		grpc.WithUnaryInterceptor(callTimeout(timeout)),
	}
	if key != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(apiKey(key)))
	}
	return grpc.NewClient(addr, opts...)
}

// apiKeyEnv is the environment variable of the API key that rulebook sends with every call (an environment variable
// only: a flag would show it in the process list).
const apiKeyEnv = "RULEBOOK_API_KEY"

// apiKey is an API key, sent with every call as the gRPC metadata "authorization: Bearer KEY", over TLS only.
type apiKey string

// GetRequestMetadata returns the metadata of a call: its authorization.
func (k apiKey) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(k)}, nil
}

// RequireTransportSecurity reports that a key goes over TLS only.
func (apiKey) RequireTransportSecurity() bool { return true }

// callTimeout is a client interceptor that gives every call at most timeout; a shorter deadline of the caller wins.
func callTimeout(timeout time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// tlsFlags are the global flags of how rulebook connects: over plain TCP, as rulebookd serves by default, or over
// TLS if any of them is set.
type tlsFlags struct {
	on                bool   // -tls: TLS, trusting the system's CAs unless caFile is set
	caFile            string // -tls-ca-file: the CAs trusted to sign the server's certificate
	certFile, keyFile string // -tls-cert-file and -tls-key-file: the client's certificate, for mutual TLS
	serverName        string // -tls-server-name: the name the server's certificate must have, if not the address's host
}

// bind defines the flags in fs.
func (f *tlsFlags) bind(fs *flag.FlagSet) {
	fs.BoolVar(&f.on, "tls", false, "connect with TLS, trusting the system's CAs (implied by the other -tls flags)")
	fs.StringVar(&f.caFile, "tls-ca-file", "", "PEM `file` of the CAs that sign the server's certificate, trusted instead of the system's")
	fs.StringVar(&f.certFile, "tls-cert-file", "", "PEM `file` of the client's certificate, for a server that requires one (mutual TLS), with -tls-key-file")
	fs.StringVar(&f.keyFile, "tls-key-file", "", "PEM `file` of the private key of -tls-cert-file")
	fs.StringVar(&f.serverName, "tls-server-name", "", "`name` that the server's certificate must hold, if not the host of -addr")
}

// enabled reports whether the flags ask for TLS: any of them is set.
func (f tlsFlags) enabled() bool {
	return f.on || f.caFile != "" || f.certFile != "" || f.keyFile != "" || f.serverName != ""
}

// credentials returns the transport credentials the flags ask for: insecure (plain TCP) if none is set.
func (f tlsFlags) credentials() (credentials.TransportCredentials, error) {
	if !f.enabled() {
		return insecure.NewCredentials(), nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: f.serverName}
	if f.caFile != "" {
		pem, err := os.ReadFile(f.caFile)
		if err != nil {
			return nil, fmt.Errorf("-tls-ca-file: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("-tls-ca-file %s: no PEM certificate in it", f.caFile)
		}
	}
	switch {
	case (f.certFile == "") != (f.keyFile == ""):
		return nil, errors.New("-tls-cert-file and -tls-key-file go together")
	case f.certFile != "":
		cert, err := tls.LoadX509KeyPair(f.certFile, f.keyFile)
		if err != nil {
			return nil, fmt.Errorf("-tls-cert-file and -tls-key-file: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return credentials.NewTLS(cfg), nil
}
