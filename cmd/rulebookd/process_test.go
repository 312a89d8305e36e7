package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
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

// buildBinary builds rulebookd from this package, once for all the tests.
var buildBinary = sync.OnceValues(func() (string, error) {
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
	*testServer
	cmd    *exec.Cmd
	mu     sync.Mutex
	lines  []map[string]any // its log, one JSON object per line
	exited chan struct{}    // closed once it has exited
	err    error            // how it exited, once exited is closed
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
	cmd := exec.Command(bin, "-grpc-addr", "127.0.0.1:0", "-http-addr", "127.0.0.1:0", "-log-format", "json")
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
	case <-time.After(30 * time.Second):
		t.Fatal("rulebookd did not serve within 30s")
	}
	conn, err := grpc.NewClient(fmt.Sprint(addrs["grpc"]), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	p.testServer = &testServer{client: rulebookv1.NewRulesServiceClient(conn), conn: conn,
		httpURL: fmt.Sprint("http://", addrs["http"]), stop: p.terminate}
	return p
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

// sealedGame is a game held as a token, played by its seats with their own passes through a transport, every call
// to the next of a list of servers in turn.
type sealedGame struct {
	game   string
	tr     transport
	token  string
	passes []string
	moves  int // moves applied
	calls  int // calls made, which picks the next server
	rng    *rand.Rand
}

// next returns the server the next call goes to.
func (g *sealedGame) next(servers []*testServer) *testServer {
	ts := servers[g.calls%len(servers)]
	g.calls++
	return ts
}

// newSealedGame starts a game on ts (which draws its seed: a token-only server takes none), its legal moves chosen
// at random from seed.
func newSealedGame(t *testing.T, ts *testServer, tr transport, game string, options *rulebookv1.GameOptions, seed uint64) *sealedGame {
	t.Helper()
	resp := tr.newGame(t, ts, &rulebookv1.NewGameRequest{Game: game, Options: options, Seal: true})
	if resp.GetToken() == "" || len(resp.GetSeatPasses()) < 2 {
		t.Fatalf("NewGame answered token %q and passes %v, want a token and a pass per seat", resp.GetToken(), resp.GetSeatPasses())
	}
	return &sealedGame{game: game, tr: tr, token: resp.GetToken(), passes: resp.GetSeatPasses(), calls: 1,
		rng: rand.New(rand.NewPCG(seed, 7))}
}

// play plays at most maxMoves moves, each by the seat that has legal moves (found by asking each seat with its own
// pass), a random one of them, until the score says the game is over; it returns that score, or nil if the game
// goes on.
func (g *sealedGame) play(t *testing.T, servers []*testServer, maxMoves int) *rulebookv1.Score {
	t.Helper()
	for played := 0; ; played++ {
		score := g.tr.score(t, g.next(servers), &rulebookv1.ScoreRequest{Game: g.game, Token: g.token}).GetScore()
		if score.GetGameOver() {
			return score
		}
		if played == maxMoves {
			return nil
		}
		var legal []*rulebookv1.Move
		var pass string
		for _, pass = range g.passes {
			req := &rulebookv1.ListLegalMovesRequest{Game: g.game, Token: g.token, SeatPass: pass}
			if legal = g.tr.legal(t, g.next(servers), req).GetMoves(); len(legal) > 0 {
				break
			}
		}
		if len(legal) == 0 {
			t.Fatalf("move %d: no seat has a legal move in a game that is not over", g.moves)
		}
		move := legal[g.rng.IntN(len(legal))]
		applied := g.tr.apply(t, g.next(servers), &rulebookv1.ApplyMoveRequest{Game: g.game, Token: g.token, SeatPass: pass, Move: move})
		if applied.GetToken() == "" || applied.GetState() != nil {
			t.Fatalf("move %d: answered token %q and state %v, want a token only", g.moves, applied.GetToken(), applied.GetState())
		}
		g.token = applied.GetToken()
		g.moves++
	}
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
	var servers []*testServer
	for _, name := range []string{"a", "b"} {
		dataDir := filepath.Join(t.TempDir(), name)
		p := startProcess(t, map[string]string{stateKeysEnv: testStateKeys, "RULEBOOK_DATA_DIR": dataDir})
		if _, ok := p.logged("state keys from the environment"); !ok {
			t.Errorf("process %s did not log where its keys came from", name)
		}
		t.Cleanup(func() { emptyDir(t, dataDir) })
		servers = append(servers, p.testServer)
	}
	tests := []struct {
		name    string
		game    string
		options *rulebookv1.GameOptions
		tr      transport
		check   func(t *testing.T, moves int, final *rulebookv1.GameState, score *rulebookv1.Score)
	}{
		{"micropul over gRPC", "micropul", micropulOptions(2, rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_DEFAULT), transports[0], checkMicropulEnd},
		{"exploze over REST", "exploze", explozeOptions(6, 6, 2), transports[1], checkExplozeEnd},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newSealedGame(t, servers[0], tt.tr, tt.game, tt.options, uint64(i))
			score := g.play(t, servers, 5000)
			if score == nil {
				t.Fatalf("not over after %d moves", g.moves)
			}
			if !strings.HasPrefix(g.token, "v1.test.") {
				t.Errorf("token %.20s..., want it sealed under the shared key", g.token)
			}
			t.Logf("%d moves in %d calls", g.moves, g.calls)
			tt.check(t, g.moves, nil, score)
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

	g := newSealedGame(t, first.testServer, transports[0], "micropul", nil, 5)
	if score := g.play(t, []*testServer{first.testServer}, 4); score != nil || g.moves != 4 {
		t.Fatalf("after %d moves the game is over: %v", g.moves, score)
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
	token := g.token
	if score := g.play(t, []*testServer{second.testServer}, 5000); score == nil {
		t.Fatalf("not over after %d moves", g.moves)
	} else {
		checkMicropulEnd(t, g.moves, nil, score)
	}

	other := startProcess(t, map[string]string{"RULEBOOK_DATA_DIR": filepath.Join(t.TempDir(), "other")})
	_, err = other.client.Score(callContext(t), &rulebookv1.ScoreRequest{Game: "micropul", Token: token})
	checkStatus(t, statusProto(err), codes.InvalidArgument, invalid(seal.ReasonTokenUnknownKey, "token"))
}
