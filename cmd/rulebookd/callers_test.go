package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/server/servertest"
)

// TestLooseAPIKeysFile checks that rulebookd refuses to start with an API keys file its group or others may read,
// and names the fix.
func TestLooseAPIKeysFile(t *testing.T) {
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	keys := filepath.Join(dir, "api-keys")
	line := "bot:sha256:" + strings.Repeat("ab", 32) + "\n"
	if err := os.WriteFile(keys, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(keys, 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	// Bounded: a server that started would serve until killed.
	cmd := exec.CommandContext(servertest.CallContext(t), bin, "-api-keys-file", keys, "-data-dir", dir, "-grpc-addr", "127.0.0.1:0", "-http-addr",
		"127.0.0.1:0", "-admin-addr", "")
	cmd.Env = []string{"HOME=" + dir}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "chmod 600") {
		t.Fatalf("rulebookd with a key file of mode 0644: %v\n%s", err, out)
	}
}
