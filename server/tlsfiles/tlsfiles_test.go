package tlsfiles

import (
	"bytes"
	"context"
	"crypto/tls"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/rulebook/rulebook/internal/devcerts"
)

// must returns a check that fails the test with err if it is not nil, and otherwise returns v.
func must[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// write writes the files of pair and ca (if not nil) as f names them.
func write(t *testing.T, f Files, pair devcerts.Pair, ca *devcerts.CA) {
	t.Helper()
	files := map[string][]byte{f.Cert: pair.CertPEM, f.Key: pair.KeyPEM}
	if ca != nil {
		files[f.ClientCA] = ca.CertPEM
	}
	for path, b := range files {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// served returns the certificate a handshake with config gets, and whether it requires a client certificate.
func served(t *testing.T, config *tls.Config) ([]byte, bool) {
	t.Helper()
	c := must(config.GetConfigForClient(&tls.ClientHelloInfo{}))(t)
	return c.Certificates[0].Certificate[0], c.ClientAuth == tls.RequireAndVerifyClientCert
}

func TestCheck(t *testing.T) {
	tests := []struct {
		files   Files
		enabled bool
		wantErr bool
	}{
		{Files{}, false, false},
		{Files{Cert: "c", Key: "k"}, true, false},
		{Files{Cert: "c", Key: "k", ClientCA: "ca"}, true, false},
		{Files{Cert: "c"}, true, true},
		{Files{Key: "k"}, true, true},
		{Files{ClientCA: "ca"}, false, true},
	}
	for _, tt := range tests {
		if err := tt.files.Check(); (err != nil) != tt.wantErr || tt.files.Enabled() != tt.enabled {
			t.Errorf("%+v: Check %v, Enabled %v; want error %v, enabled %v", tt.files, err, tt.files.Enabled(), tt.wantErr, tt.enabled)
		}
	}
}

// TestReload loads a pair and a client CA, and reloads them as they change: an unchanged set is kept silently, a
// broken one is logged once and ignored, a good one is taken; a client certificate is required only where asked
// for.
func TestReload(t *testing.T) {
	dir := t.TempDir()
	f := Files{Cert: filepath.Join(dir, "tls.crt"), Key: filepath.Join(dir, "tls.key"), ClientCA: filepath.Join(dir, "ca.crt")}
	ca := must(devcerts.NewCA("test CA"))(t)
	first, second := must(ca.Server("localhost"))(t), must(ca.Server("localhost"))(t)
	write(t, f, first, ca)
	core, logs := observer.New(zapcore.InfoLevel)
	r := must(Load(f, zap.New(core)))(t)
	if !r.MutualTLS() {
		t.Error("MutualTLS() is false with a client CA file")
	}
	api, admin := r.ServerConfig(true, "h2"), r.ServerConfig(false, "h2", "http/1.1")
	if api.MinVersion != tls.VersionTLS12 {
		t.Errorf("MinVersion %x, want TLS 1.2", api.MinVersion)
	}
	check := func(when string, want devcerts.Pair) {
		t.Helper()
		wantDER := must(want.TLS())(t).Certificate[0]
		for config, wantClientCert := range map[*tls.Config]bool{api: true, admin: false} {
			cert, clientCert := served(t, config)
			if !bytes.Equal(cert, wantDER) || clientCert != wantClientCert {
				t.Errorf("%s: served the wrong certificate (%v) or client certificate required %v, want %v",
					when, !bytes.Equal(cert, wantDER), clientCert, wantClientCert)
			}
		}
	}
	check("loaded", first)

	r.Reload()
	if n := logs.Len(); n != 0 {
		t.Errorf("unchanged files: %d log lines, want none", n)
	}
	write(t, f, devcerts.Pair{CertPEM: second.CertPEM, KeyPEM: first.KeyPEM}, ca)
	r.Reload()
	r.Reload()
	if n := logs.FilterMessageSnippet("do not load").Len(); n != 1 {
		t.Errorf("a broken pair read twice: %d warnings, want 1", n)
	}
	check("after a broken pair", first)

	write(t, f, second, ca)
	r.Reload()
	if n := logs.FilterMessage("TLS files reloaded").Len(); n != 1 {
		t.Errorf("a new pair: %d reload lines, want 1", n)
	}
	check("after a new pair", second)

	if err := os.WriteFile(f.ClientCA, []byte("not PEM"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Reload()
	if n := logs.FilterMessageSnippet("do not load").Len(); n != 2 {
		t.Errorf("a broken client CA file: %d warnings in all, want 2", n)
	}
	check("after a broken client CA file", second)
}

// TestLoadRefuses checks that Load refuses files that are missing, do not match or hold no CA.
func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	f := Files{Cert: filepath.Join(dir, "tls.crt"), Key: filepath.Join(dir, "tls.key"), ClientCA: filepath.Join(dir, "ca.crt")}
	if _, err := Load(f, zap.NewNop()); err == nil {
		t.Error("missing files loaded")
	}
	ca := must(devcerts.NewCA("test CA"))(t)
	first, second := must(ca.Server("localhost"))(t), must(ca.Server("localhost"))(t)
	write(t, f, devcerts.Pair{CertPEM: first.CertPEM, KeyPEM: second.KeyPEM}, ca)
	if _, err := Load(f, zap.NewNop()); err == nil {
		t.Error("a certificate with another's key loaded")
	}
	write(t, f, first, nil)
	if err := os.WriteFile(f.ClientCA, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(f, zap.NewNop()); err == nil {
		t.Error("an empty client CA file loaded")
	}
	if _, err := Load(Files{}, zap.NewNop()); err == nil {
		t.Error("no files loaded")
	}
}

// TestWatchStops checks that Watch returns once its context is done.
func TestWatchStops(t *testing.T) {
	dir := t.TempDir()
	f := Files{Cert: filepath.Join(dir, "tls.crt"), Key: filepath.Join(dir, "tls.key")}
	ca := must(devcerts.NewCA("test CA"))(t)
	write(t, f, must(ca.Server("localhost"))(t), nil)
	r := must(Load(f, zap.NewNop()))(t)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		r.Watch(ctx, time.Millisecond)
	}()
	cancel()
	select {
	case <-stopped:
	case <-time.After(time.Minute):
		t.Fatal("Watch did not return once its context was done")
	}
}
