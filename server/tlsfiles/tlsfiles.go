// Package tlsfiles serves TLS from PEM files that may change while the server runs, as cert-manager rotates a
// mounted Secret: a certificate and its key, and optionally the CAs whose client certificates are accepted. A
// Reloader loads them once, then, while it watches, reads them again every interval and takes a new set whenever
// their content has changed and loads; each new handshake uses the set loaded last, and connections already open
// keep theirs. A changed set that does not load (a key that does not match its certificate, a half-written file) is
// logged and the previous one kept.
package tlsfiles

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// Files names the PEM files of a server's TLS. Cert and Key are both set or both empty (no TLS); ClientCA, set
// only with them, makes the server require client certificates that it verifies against those CAs (mutual TLS).
type Files struct {
	Cert, Key, ClientCA string
}

// Enabled reports whether the files ask for TLS at all.
func (f Files) Enabled() bool { return f.Cert != "" || f.Key != "" }

// Check reports settings that make no sense: a certificate without its key or the other way round, or client CAs
// without TLS.
func (f Files) Check() error {
	switch {
	case (f.Cert == "") != (f.Key == ""):
		return errors.New("TLS needs both a certificate file and a key file")
	case f.ClientCA != "" && f.Cert == "":
		return errors.New("a client CA file needs TLS: set the certificate and key files too")
	}
	return nil
}

// set is one loaded set of the files: what a handshake uses.
type set struct {
	cert      *tls.Certificate
	clientCAs *x509.CertPool // nil without a client CA file
}

// contents are the bytes of the files as read once, to tell whether they changed.
type contents struct {
	cert, key, clientCA []byte
}

// equal reports whether c and o hold the same bytes.
func (c contents) equal(o contents) bool {
	return bytes.Equal(c.cert, o.cert) && bytes.Equal(c.key, o.key) && bytes.Equal(c.clientCA, o.clientCA)
}

// Reloader holds the set of TLS files loaded last, and loads them again when they change (see Watch).
type Reloader struct {
	files   Files
	log     *zap.Logger
	current atomic.Pointer[set]
	seen    contents // what was read last, loaded or not: a broken set is reported once
	failed  string   // why the files last failed to be read or loaded, reported once; empty once they load
}

// Load loads files, which must ask for TLS and load, and returns their Reloader, which logs to log.
func Load(files Files, log *zap.Logger) (*Reloader, error) {
	if err := files.Check(); err != nil {
		return nil, err
	}
	if !files.Enabled() {
		return nil, errors.New("no TLS files to load")
	}
	r := &Reloader{files: files, log: log}
	c, err := files.read()
	if err != nil {
		return nil, err
	}
	s, err := c.load()
	if err != nil {
		return nil, err
	}
	r.current.Store(s)
	r.seen = c
	return r, nil
}

// Watch reads the files every interval until ctx is done, and takes each new set of them that loads (see Reload).
func (r *Reloader) Watch(ctx context.Context, interval time.Duration) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			r.Reload()
		}
	}
}

// Reload reads the files and, if they changed since they were read last, takes them if they load, or else logs
// why (once for each new reason) and keeps the set it has. Watch calls it; it must not be called concurrently.
func (r *Reloader) Reload() {
	c, err := r.files.read()
	if err == nil && c.equal(r.seen) {
		return
	}
	var s *set
	if err == nil {
		r.seen = c
		s, err = c.load()
	}
	if err != nil {
		if err.Error() != r.failed {
			r.failed = err.Error()
			r.log.Warn("TLS files changed but do not load: keeping the previous certificate", zap.Error(err))
		}
		return
	}
	r.failed = ""
	r.current.Store(s)
	r.log.Info("TLS files reloaded", certFields(s.cert)...)
}

// ServerConfig returns the configuration of a TLS listener that offers nextProtos by ALPN (for gRPC "h2"; for
// HTTP "h2" and "http/1.1"): TLS 1.2 or later, each handshake with the set loaded last and, if clientCerts is true
// and a client CA file is set, a client certificate required and verified against its CAs.
func (r *Reloader) ServerConfig(clientCerts bool, nextProtos ...string) *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		NextProtos: nextProtos,
		GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
			s := r.current.Load()
			c := &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: nextProtos, Certificates: []tls.Certificate{*s.cert}}
			if clientCerts && s.clientCAs != nil {
				c.ClientAuth, c.ClientCAs = tls.RequireAndVerifyClientCert, s.clientCAs
			}
			return c, nil
		},
	}
}

// MutualTLS reports whether the files require client certificates.
func (r *Reloader) MutualTLS() bool { return r.files.ClientCA != "" }

// LogFields describes the certificate in use, for the server's log.
func (r *Reloader) LogFields() []zap.Field { return certFields(r.current.Load().cert) }

// certFields describes cert: its subject and DNS names, and when it expires.
func certFields(cert *tls.Certificate) []zap.Field {
	leaf := cert.Leaf
	return []zap.Field{zap.String("subject", leaf.Subject.String()), zap.Strings("dnsNames", leaf.DNSNames),
		zap.Time("notAfter", leaf.NotAfter)}
}

// read reads the files.
func (f Files) read() (contents, error) {
	var c contents
	var err error
	if c.cert, err = os.ReadFile(f.Cert); err != nil {
		return c, fmt.Errorf("TLS certificate: %w", err)
	}
	if c.key, err = os.ReadFile(f.Key); err != nil {
		return c, fmt.Errorf("TLS key: %w", err)
	}
	if f.ClientCA != "" {
		if c.clientCA, err = os.ReadFile(f.ClientCA); err != nil {
			return c, fmt.Errorf("TLS client CA: %w", err)
		}
	}
	return c, nil
}

// load parses c: a certificate chain with its key, and the client CAs if any.
func (c contents) load() (*set, error) {
	cert, err := tls.X509KeyPair(c.cert, c.key)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate and key: %w", err)
	}
	s := &set{cert: &cert}
	if c.clientCA != nil {
		s.clientCAs = x509.NewCertPool()
		if !s.clientCAs.AppendCertsFromPEM(c.clientCA) {
			return nil, errors.New("TLS client CA file: no PEM certificate in it")
		}
	}
	return s, nil
}
