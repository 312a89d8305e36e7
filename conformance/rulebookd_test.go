package conformance_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rulebook/rulebook/conformance/internal/kit"
	"github.com/rulebook/rulebook/server/servertest"
)

// rulebookd builds cmd/rulebookd and runs it until the test ends as README.md says to run the kit against it: plain
// states accepted, its clock fixed at the kit's, here on loopback ports it chooses (no admin address), tokens sealed
// with servertest.StateKeys and no other RULEBOOK_* variable. It checks that the process warns of its fixed clock,
// and returns its REST API's URL once it serves. On failure the test log shows the process's log.
func rulebookd(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "rulebookd")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/rulebookd").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-accept-plain-states", "-fixed-clock", kit.Clock.Format(time.RFC3339),
		"-grpc-addr", "127.0.0.1:0", "-http-addr", "127.0.0.1:0", "-admin-addr", "", "-log-format", "json")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "RULEBOOK_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "RULEBOOK_STATE_KEYS="+servertest.StateKeys)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log []string                // its lines, read once done is closed
	serving := make(chan string, 1) // its REST API's URL, or "" if it did not warn of its fixed clock first
	done := make(chan struct{})     // closed at the end of its output
	go func() {
		defer close(done)
		warned := false
		for lines := bufio.NewScanner(stderr); lines.Scan(); {
			log = append(log, lines.Text())
			var line struct{ Level, Msg, Now, REST string }
			if json.Unmarshal(lines.Bytes(), &line) != nil {
				continue
			}
			switch line.Msg {
			case "fixed clock: for conformance tests only":
				warned = line.Level == "warn" && line.Now == kit.Clock.Format(time.RFC3339)
			case "serving":
				serving <- map[bool]string{true: line.REST}[warned]
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-done // the whole log read, before Wait closes the pipe
		if err := cmd.Wait(); err != nil || t.Failed() {
			t.Errorf("rulebookd exited with %v; its log:\n%s", err, strings.Join(log, "\n"))
		}
	})
	select {
	case addr := <-serving:
		if addr == "" {
			t.Fatal("rulebookd did not warn of its fixed clock, at the kit's time, before serving")
		}
		return addr
	case <-done:
		t.Fatal("rulebookd exited before serving")
		return ""
	}
}
