package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap/zaptest"

	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service/seal"
)

// TestLoadKeys checks where the state keys come from: RULEBOOK_STATE_KEYS, else the key file, else a key made once in
// the data directory. Given keys or a key file, the data directory is never touched (in a container it is not even
// writable); an error never shows a secret.
func TestLoadKeys(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "keys")
	if err := os.WriteFile(keyFile, []byte(seal.FormatKeys(servertest.Key(t, "new", 2), servertest.Key(t, "old", 1))), 0o600); err != nil {
		t.Fatal(err)
	}
	const badSecret = "c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0IQ" // 28 bytes: not a key, and not to be shown
	badFile := filepath.Join(dir, "bad")
	if err := os.WriteFile(badFile, []byte("k:"+badSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	openFile := filepath.Join(dir, "open")
	if err := os.WriteFile(openFile, []byte(seal.FormatKeys(servertest.Key(t, "new", 2))), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(openFile, 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		cfg         config
		wantSealing string // "" for an error
		wantMade    bool   // whether the data directory gets a key file
	}{
		{name: "environment", cfg: config{stateKeys: servertest.StateKeys}, wantSealing: "test"},
		{name: "key file", cfg: config{stateKeysFile: keyFile}, wantSealing: "new"},
		{name: "data directory", cfg: config{}, wantSealing: "k", wantMade: true},
		{name: "missing key file", cfg: config{stateKeysFile: filepath.Join(dir, "missing")}},
		{name: "bad key file", cfg: config{stateKeysFile: badFile}},
		{name: "key file readable by others", cfg: config{stateKeysFile: openFile}},
		{name: "bad environment", cfg: config{stateKeys: "k:" + badSecret}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.dataDir = filepath.Join(t.TempDir(), "state")
			keys, err := loadKeys(tt.cfg, zaptest.NewLogger(t))
			switch {
			case tt.wantSealing == "" && err == nil:
				t.Fatalf("sealing key %q, want an error", keys.SealingKeyID())
			case tt.wantSealing == "" && strings.Contains(err.Error(), badSecret[:8]):
				t.Errorf("the error shows the secret: %v", err)
			case tt.wantSealing != "" && err != nil:
				t.Fatal(err)
			case tt.wantSealing != "" && !strings.HasPrefix(keys.SealingKeyID(), tt.wantSealing):
				t.Errorf("sealing key %q, want %q", keys.SealingKeyID(), tt.wantSealing)
			}
			_, err = os.Stat(filepath.Join(tt.cfg.dataDir, seal.KeyFileName))
			if made := !errors.Is(err, fs.ErrNotExist); made != tt.wantMade {
				t.Errorf("key file in the data directory: %v (%v), want %v", made, err, tt.wantMade)
			}
			if !tt.wantMade {
				emptyDir(t, tt.cfg.dataDir)
			}
		})
	}
}

// TestConfigFromEnvironment checks that RULEBOOK_STATE_KEYS is read and then gone from the process's environment,
// and so from every child's (exec.Cmd passes os.Environ).
func TestConfigFromEnvironment(t *testing.T) {
	t.Setenv(stateKeysEnv, servertest.StateKeys)
	cfg, err := configFromEnvironment(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.stateKeys != servertest.StateKeys {
		t.Errorf("state keys %q, want those of %s", cfg.stateKeys, stateKeysEnv)
	}
	if v, ok := os.LookupEnv(stateKeysEnv); ok {
		t.Errorf("%s is still in the environment: %q", stateKeysEnv, v)
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, stateKeysEnv+"=") {
			t.Errorf("os.Environ, which a child process gets, still holds %s", stateKeysEnv)
		}
	}
}
