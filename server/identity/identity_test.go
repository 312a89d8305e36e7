package identity

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service/caller"
)

// keyLine returns the key file line of key for name.
func keyLine(name, key string) string {
	sum := sha256.Sum256([]byte(key))
	return name + ":sha256:" + hex.EncodeToString(sum[:])
}

func TestParseKeys(t *testing.T) {
	ok := keyLine("bot", "k1")
	for _, tt := range []struct {
		name, text string
		wantErr    string // a part of the error, "" for none
	}{
		{"lines, comments and blanks", "# callers\n\n" + ok + "\n  " + keyLine("bot", "k2") + "  \n" + keyLine("app.v2", "k3"), ""},
		{"no hash function", "bot:" + strings.Repeat("ab", 32), "line 1"},
		{"short hash", "bot:sha256:abcd", "line 1"},
		{"a key in clear", "bot:k1", "line 1"},
		{"bad name", "b o t:sha256:" + strings.Repeat("ab", 32), "line 1"},
		{"no colon", "bot", "line 1"},
		{"a hash twice", ok + "\n" + strings.Replace(ok, "bot", "other", 1), "line 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseKeys(strings.NewReader(tt.text))
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("ParseKeys: %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
}

func TestKeysName(t *testing.T) {
	keys, err := ParseKeys(strings.NewReader(keyLine("bot", "k1") + "\n" + keyLine("bot", "k2") + "\n" + keyLine("app", "k3")))
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"k1": "bot", "k2": "bot", "k3": "app", "k4": "", "": ""} {
		if got, ok := keys.Name(key); got != want || ok != (want != "") {
			t.Errorf("Name(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
	if got := strings.Join(keys.Names(), ","); got != "bot,app" {
		t.Errorf("Names() = %s, want bot,app", got)
	}
}

// TestLoadKeyFile checks that a key file its group or others may read is refused, and an owner-only one read.
func TestLoadKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "api-keys")
	if err := os.WriteFile(path, []byte(keyLine("bot", "k1")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKeyFile(path); err != nil {
		t.Errorf("owner-only file: %v", err)
	}
	for _, mode := range []os.FileMode{0o640, 0o604, 0o644, 0o620} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadKeyFile(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode %v: %v, want a refusal", mode, err)
		}
	}
}

// certificate returns a client certificate made now, for a common name and URI SANs.
func certificate(t *testing.T, cn string, uris ...string) *x509.Certificate {
	t.Helper()
	pair := servertest.ClientPair(t, servertest.NewCA(t, "test CA"), cn, uris...)
	cert, err := pair.TLS()
	if err != nil {
		t.Fatal(err)
	}
	return cert.Leaf
}

// TestIdentify checks how callers are named, over HTTP and gRPC alike: by an API key if they send one (a wrong one
// refused), else by a verified client certificate's first URI SAN or common name, else anonymous.
func TestIdentify(t *testing.T) {
	keys, err := ParseKeys(strings.NewReader(keyLine("bot", "k1")))
	if err != nil {
		t.Fatal(err)
	}
	id := NewIdentifier(keys)
	spiffe := certificate(t, "ignored", "spiffe://example.org/game-server", "spiffe://example.org/second")
	plain := certificate(t, "reporting")
	verified := func(c *x509.Certificate) *tls.ConnectionState {
		return &tls.ConnectionState{VerifiedChains: [][]*x509.Certificate{{c}}}
	}
	for _, tt := range []struct {
		name          string
		state         *tls.ConnectionState
		authorization string
		want          string // the name, or the reason of the refusal
	}{
		{"anonymous", nil, "", caller.Anonymous},
		{"key", nil, "Bearer k1", "bot"},
		{"unknown key", nil, "Bearer k2", ReasonAPIKeyUnknown},
		{"empty key", nil, "Bearer ", ReasonAuthorizationMalformed},
		{"basic", nil, "Basic Ym90Oms=", ReasonAuthorizationMalformed},
		{"URI SAN", verified(spiffe), "", "spiffe://example.org/game-server"},
		{"common name", verified(plain), "", "reporting"},
		{"key over certificate", verified(spiffe), "Bearer k1", "bot"},
		{"unverified certificate", &tls.ConnectionState{PeerCertificates: []*x509.Certificate{spiffe}}, "", caller.Anonymous},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/v1/games", nil)
			r.TLS = tt.state
			md := metadata.MD{}
			if tt.authorization != "" {
				r.Header.Set("Authorization", tt.authorization)
				md.Set("authorization", tt.authorization)
			}
			ctx := metadata.NewIncomingContext(context.Background(), md)
			if tt.state != nil {
				ctx = peer.NewContext(ctx, &peer.Peer{AuthInfo: credentials.TLSInfo{State: *tt.state}})
			}
			for transport, got := range map[string]caller.Caller{"HTTP": id.HTTP(r), "gRPC": id.GRPC(ctx)} {
				name := got.Name
				if got.Err != nil {
					name = refusal.Reason(got.Err)
				}
				if name != tt.want {
					t.Errorf("%s: %q, want %q", transport, name, tt.want)
				}
			}
		})
	}
}
