package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service/seal"
)

// binaryDir holds the rulebookd binary the process tests run, built once; TestMain removes it.
var binaryDir string

// TestMain runs the tests, then removes the binary they built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binaryDir != "" {
		os.RemoveAll(binaryDir)
	}
	os.Exit(code)
}

// binaryEnv names a rulebookd binary for the process tests to run instead of building this package's: an earlier
// build, to measure against (BENCHMARKS.md).
const binaryEnv = "RULEBOOK_TEST_BINARY"

// buildBinary builds rulebookd from this package, once for all the tests, unless binaryEnv names a binary.
var buildBinary = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv(binaryEnv); bin != "" {
		return bin, nil
	}
	dir, err := os.MkdirTemp("", "rulebookd-test-")
	if err != nil {
		return "", err
	}
	binaryDir = dir
	path := filepath.Join(dir, "rulebookd")
	out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return path, nil
})

// process is a rulebookd process started by a test, listening on loopback ports it chose itself.
type process struct {
	*servertest.Client
	// grpcAddr, httpAddr and adminAddr are where it listens (host:port).
	grpcAddr, httpAddr, adminAddr string
	cmd                           *exec.Cmd
	mu                            sync.Mutex
	lines                         []map[string]any // its log, one JSON object per line
	exited                        chan struct{}    // closed once it has exited
	err                           error            // how it exited, once exited is closed
}

// startProcess runs the rulebookd binary with env (and no other RULEBOOK_* variable) on 127.0.0.1, JSON logs, until
// the test ends, and returns it once it serves. On failure the test log shows the process's log.
func startProcess(t *testing.T, env map[string]string) *process {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs rulebookd")
	}
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-grpc-addr", "127.0.0.1:0", "-http-addr", "127.0.0.1:0", "-admin-addr", "127.0.0.1:0", "-log-format", "json")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "RULEBOOK_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, exited: make(chan struct{})}
	serving := make(chan map[string]any, 1)
	go func() {
		scanner := bufio.NewScanner(stderr)
		scanner.Buffer(nil, 1<<20)
		for scanner.Scan() {
			var line map[string]any
			if json.Unmarshal(scanner.Bytes(), &line) != nil {
				line = map[string]any{"msg": scanner.Text()}
			}
			p.mu.Lock()
			p.lines = append(p.lines, line)
			p.mu.Unlock()
			if line["msg"] == "serving" {
				select {
				case serving <- line:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stderr) // a line too long for the scanner must not block the process
		p.err = cmd.Wait()                 // after the last read of its output
		close(p.exited)
	}()
	t.Cleanup(func() {
		if err := p.terminate(); err != nil && !t.Failed() {
			t.Errorf("rulebookd exited with %v", err)
		}
		if t.Failed() {
			p.mu.Lock()
			defer p.mu.Unlock()
			for _, line := range p.lines {
				t.Logf("rulebookd: %v", line)
			}
		}
	})

	var addrs map[string]any
	select {
	case addrs = <-serving:
	case <-p.exited:
		t.Fatalf("rulebookd exited before serving: %v", p.err)
	case <-time.After(time.Minute):
		t.Fatal("rulebookd did not serve within a minute")
	}
	p.grpcAddr, p.httpAddr, p.adminAddr = fmt.Sprint(addrs["grpc"]), urlHost(t, addrs["rest"]), urlHost(t, addrs["admin"])
	p.Client = servertest.Dial(t, p.grpcAddr, p.httpAddr)
	return p
}

// urlHost returns the host:port of the URL that a log line gives as v.
func urlHost(t *testing.T, v any) string {
	t.Helper()
	u, err := url.Parse(fmt.Sprint(v))
	if err != nil || u.Host == "" {
		t.Fatalf("logged %v, want a URL", v)
	}
	return u.Host
}

// terminate stops the process with SIGTERM, as Kubernetes does (SIGKILL if it is still there 30s later), and returns
// how it exited.
func (p *process) terminate() error {
	select {
	case <-p.exited:
		return p.err
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
		return errors.New("still running 30s after SIGTERM")
	}
	return p.err
}

// logged returns the first line of the log whose message starts with msg.
func (p *process) logged(msg string) (map[string]any, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, line := range p.lines {
		if m, _ := line["msg"].(string); strings.HasPrefix(m, msg) {
			return line, true
		}
	}
	return nil, false
}

// emptyDir fails the test unless dir is missing or empty.
func emptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) || len(entries) > 0 {
		t.Errorf("data directory %s holds %v (%v), want nothing", dir, entries, err)
	}
}

// TestTwoProcessesShareAKey runs two rulebookd processes, token-only as by default, with the same RULEBOOK_STATE_KEYS,
// and plays whole games alternating every call between them: a two-player Micropul game over gRPC and an Exploze game
// over REST, each seat with its own pass, to the end. Neither process touches its data directory.
func TestTwoProcessesShareAKey(t *testing.T) {
	var servers []*servertest.Client
	for _, name := range []string{"a", "b"} {
		dataDir := filepath.Join(t.TempDir(), name)
		p := startProcess(t, map[string]string{stateKeysEnv: servertest.StateKeys, "RULEBOOK_DATA_DIR": dataDir})
		if _, ok := p.logged("state keys from the environment"); !ok {
			t.Errorf("process %s did not log where its keys came from", name)
		}
		t.Cleanup(func() { emptyDir(t, dataDir) })
		servers = append(servers, p.Client)
	}
	tests := []struct {
		name    string
		game    string
		options *rulebookv1.GameOptions
		tr      servertest.Transport
		check   func(t testing.TB, moves int, final *rulebookv1.GameState, score *rulebookv1.Score)
	}{
		{"micropul over gRPC", "micropul", servertest.MicropulOptions(2, rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_DEFAULT), servertest.Transports[0], servertest.CheckMicropulEnd},
		{"exploze over REST", "exploze", servertest.ExplozeOptions(6, 6, 2), servertest.Transports[1], servertest.CheckExplozeEnd},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := servertest.NewSealedGame(t, servers[0], tt.tr, tt.game, tt.options, uint64(i))
			score := g.Play(t, servers, 5000)
			if score == nil {
				t.Fatalf("not over after %d moves", g.Moves)
			}
			if !strings.HasPrefix(g.Token, "v2.test.") {
				t.Errorf("token %.20s..., want it sealed under the shared key", g.Token)
			}
			t.Logf("%d moves in %d calls", g.Moves, g.Calls)
			tt.check(t, g.Moves, nil, score)
		})
	}
}

// TestGeneratedKeySurvivesRestart starts rulebookd without any key setting: it makes a key in its data directory
// (the directory 0700, the file 0600) and says so. A game started there goes on, after a restart (SIGTERM, a clean
// exit, then a start on the same directory, which keeps the key file as it was), to its end; a server with another
// data directory, so another key, refuses its token with TOKEN_UNKNOWN_KEY.
func TestGeneratedKeySurvivesRestart(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "state") // missing: rulebookd makes it
	keyFile := filepath.Join(dataDir, seal.KeyFileName)
	first := startProcess(t, map[string]string{"RULEBOOK_DATA_DIR": dataDir})
	made, ok := first.logged("made a new state key")
	if !ok || made["file"] != keyFile || made["sealingKey"] == "" {
		t.Errorf("log line %v, want one saying it made the key in %s", made, keyFile)
	}
	for path, want := range map[string]fs.FileMode{dataDir: fs.ModeDir | 0o700, keyFile: 0o600} {
		if info, err := os.Stat(path); err != nil || info.Mode() != want {
			t.Errorf("%s: %v %v, want mode %v", path, info.Mode(), err, want)
		}
	}
	key, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}

	g := servertest.NewSealedGame(t, first.Client, servertest.Transports[0], "micropul", nil, 5)
	if score := g.Play(t, []*servertest.Client{first.Client}, 4); score != nil || g.Moves != 4 {
		t.Fatalf("after %d moves the game is over: %v", g.Moves, score)
	}
	if err := first.terminate(); err != nil {
		t.Fatalf("SIGTERM: rulebookd exited with %v, want a clean exit", err)
	}
	if _, ok := first.logged("stopped"); !ok {
		t.Error("rulebookd did not log that it stopped")
	}

	second := startProcess(t, map[string]string{"RULEBOOK_DATA_DIR": dataDir})
	if kept, ok := second.logged("state key from the data directory"); !ok || kept["sealingKey"] != made["sealingKey"] {
		t.Errorf("log line %v, want it to use key %v of the data directory", kept, made["sealingKey"])
	}
	if again, err := os.ReadFile(keyFile); err != nil || string(again) != string(key) {
		t.Errorf("the key file changed on restart (%v)", err)
	}
	token := g.Token
	if score := g.Play(t, []*servertest.Client{second.Client}, 5000); score == nil {
		t.Fatalf("not over after %d moves", g.Moves)
	} else {
		servertest.CheckMicropulEnd(t, g.Moves, nil, score)
	}

	other := startProcess(t, map[string]string{"RULEBOOK_DATA_DIR": filepath.Join(t.TempDir(), "other")})
	_, err = other.RPC.Score(servertest.CallContext(t), &rulebookv1.ScoreRequest{Game: "micropul", Token: token})
	servertest.CheckStatus(t, servertest.StatusProto(err), codes.InvalidArgument, servertest.Invalid(seal.ReasonTokenUnknownKey, "token"))
}
