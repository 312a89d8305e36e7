package seal

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

func TestGenerateKey(t *testing.T) {
	k, err := GenerateKey("k1", seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := GenerateKey("k1", seeded(1))
	if k.ID != "k1" || k.Secret != again.Secret || k.Secret == ([32]byte{}) {
		t.Errorf("GenerateKey with a seeded source: %v, then %v", k.Secret, again.Secret)
	}
	a, err := GenerateKey("a", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GenerateKey("b", nil)
	if a.Secret == b.Secret {
		t.Error("two keys from crypto/rand are equal")
	}
	for _, id := range []string{"", strings.Repeat("a", 33), "a.b", "a b", "a:b", "é", "a\x00"} {
		if _, err := GenerateKey(id, nil); err == nil {
			t.Errorf("GenerateKey(%q) succeeded", id)
		}
	}
	for _, id := range []string{"a", "Z", "0", "-", "_", strings.Repeat("x", 32), "k-2024_A"} {
		if _, err := GenerateKey(id, nil); err != nil {
			t.Errorf("GenerateKey(%q): %v", id, err)
		}
	}
	if _, err := GenerateKey("k", iotest.ErrReader(fmt.Errorf("broken"))); err == nil {
		t.Error("GenerateKey with a failing source succeeded")
	}
}

func TestNewKeyring(t *testing.T) {
	zero := Key{ID: "zero"}
	tests := []struct {
		name string
		keys []Key
		ok   bool
	}{
		{"one", []Key{testKey("a")}, true},
		{"three", []Key{testKey("a"), testKey("b"), testKey("c")}, true},
		{"none", nil, false},
		{"duplicate id", []Key{testKey("a"), testKey("b"), {ID: "a", Secret: testKey("c").Secret}}, false},
		{"bad id", []Key{testKey("a"), {ID: "b.c", Secret: testKey("c").Secret}}, false},
		{"empty id", []Key{{Secret: testKey("c").Secret}}, false},
		{"zero secret", []Key{testKey("a"), zero}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewKeyring(tt.keys...)
			if (err == nil) != tt.ok {
				t.Fatalf("NewKeyring: %v, want ok %v", err, tt.ok)
			}
			if err != nil {
				return
			}
			if r.SealingKeyID() != tt.keys[0].ID {
				t.Errorf("SealingKeyID = %q, want %q", r.SealingKeyID(), tt.keys[0].ID)
			}
		})
	}
}

// TestSecretsNotPrinted checks that printing a Key or a Table shows no secret.
func TestSecretsNotPrinted(t *testing.T) {
	k := testKey("k1")
	table := testTable("t")
	secrets := [][]byte{k.Secret[:], table[:]}
	for _, format := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		out := fmt.Sprintf(format+" "+format+" "+format, k, table, []Key{k})
		for _, s := range secrets {
			for _, enc := range []string{
				hex.EncodeToString(s), base64.StdEncoding.EncodeToString(s), base64.RawURLEncoding.EncodeToString(s),
				fmt.Sprint(s), fmt.Sprint([32]byte(s)),
			} {
				if strings.Contains(out, enc) || bytes.Contains([]byte(out), s) {
					t.Errorf("%s shows a secret: %s", format, out)
				}
			}
		}
		if !strings.Contains(out, "k1") && format != "%x" {
			t.Errorf("%s does not show the key id: %s", format, out)
		}
	}
}
