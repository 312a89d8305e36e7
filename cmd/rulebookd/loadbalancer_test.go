package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/stats"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service/serviceconfig"
)

// nginxConf is the load balancer example that TestLoadBalancer runs.
const nginxConf = "../../deploy/nginx/nginx.conf"

// The upstreams of nginxConf and the ports it listens on.
const (
	grpcUpstream = "rulebook_grpc"
	restUpstream = "rulebook_rest"
	grpcPort     = "50051"
	restPort     = "8080"
)

// requestIDHeader carries the id of each call of TestLoadBalancer, which nginx logs (requestID in nginxConf's access
// log): as a header over REST, as metadata over gRPC.
const requestIDHeader = "x-request-id"

// callBound bounds each call through the load balancer, its retries included, so that a broken load balancer fails
// the test instead of hanging it.
const callBound = 30 * time.Second

// TestLoadBalancer runs three rulebookd replicas with the same state keys behind nginx, configured by
// deploy/nginx/nginx.conf (TLS to the replicas, which require nginx's client certificate), and has eight players play sealed games through it, a game after another, half over gRPC
// (with the service config's retry policy) and half over REST, while one replica is stopped with SIGTERM and then
// another killed with SIGKILL. Every call must succeed. No call may fail at any attempt, except those in flight
// around the SIGKILL, which must succeed on a retry: the client's over gRPC, nginx's over REST (the client does not
// retry). Nor may nginx have resent a call (sent it to a replica that failed to answer it, then to another), except
// around the SIGTERM and the SIGKILL. When the load stops, every player plays its game to the end, so no game
// started is lost. Each player makes 50 calls in each phase of steady load (200 at the long depth).
func TestLoadBalancer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx and three rulebookd processes")
	}
	bin := findNginx(t)
	// The replicas serve mutual TLS, with certificates for the name nginx.conf checks; nginx presents a client
	// certificate of the same CA.
	ca := servertest.NewCA(t, "test CA")
	replicaPair, err := ca.Server("rulebook", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	files := servertest.WriteTLSFiles(t, t.TempDir(), replicaPair, ca)
	nginxPair := servertest.ClientPair(t, ca, "nginx")
	env := tlsEnv(files, true)
	env["RULEBOOK_DRAIN_DELAY"], env["RULEBOOK_ADMIN_ADDR"] = "1s", "127.0.0.1:0"
	replicas := make([]*process, 3)
	upstreams := map[string][]string{}
	for i := range replicas {
		replicas[i] = startProcess(t, env)
		upstreams[grpcUpstream] = append(upstreams[grpcUpstream], replicas[i].grpcAddr)
		upstreams[restUpstream] = append(upstreams[restUpstream], replicas[i].httpAddr)
	}
	lb := startNginx(t, bin, upstreams, map[string][]byte{"ca.crt": ca.CertPEM, "client.crt": nginxPair.CertPEM, "client.key": nginxPair.KeyPEM})

	steady := 50 // calls of each player in each phase of steady load
	if enginetest.ChosenDepth(t) == enginetest.Long {
		steady = 200
	}
	phases := []phase{
		{name: "three replicas", calls: steady},
		{name: "SIGTERM", action: replicas[0].terminate, allows: resent},
		{name: "after the SIGTERM", calls: 5, allows: resent},
		{name: "two replicas", calls: steady},
		{name: "SIGKILL", action: replicas[1].kill, allows: retried},
		{name: "after the SIGKILL", calls: 5, allows: retried},
		{name: "one replica", calls: steady},
	}
	games := []struct {
		name    string
		options *rulebookv1.GameOptions
		check   func(t testing.TB, moves int, final *rulebookv1.GameState, score *rulebookv1.Score)
	}{
		{"exploze", servertest.ExplozeOptions(6, 6, 2), servertest.CheckExplozeEnd},
		{"micropul", servertest.MicropulOptions(2, rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_DEFAULT), servertest.CheckMicropulEnd},
	}
	l := newLoad(phases, 8)
	for n := range l.players {
		game := games[n/2%len(games)]
		p := &player{n: n, game: game.name, options: game.options, check: game.check, rest: n%2 == 1, load: l,
			client: lb.dial(t)}
		if p.rest {
			transport := &http.Transport{}
			t.Cleanup(transport.CloseIdleConnections)
			p.http = &http.Client{Transport: transport}
		}
		l.players[n] = p
	}
	lb.await(t, l.players[0].client)

	l.run(t)
	for i, ph := range phases {
		reached := l.enter(i)
		if ph.action != nil {
			if err := ph.action(); err != nil {
				t.Fatalf("%s: %v", ph.name, err)
			}
		} else if !l.await(t, reached) {
			break // a player failed, and said why; the calls so far are checked below
		}
	}
	l.stop(t)
	if err := lb.stop(); err != nil {
		t.Errorf("nginx exited with %v", err)
	}
	l.check(t, lb.accessLog(t))
}

// TestNginxConfRewrite checks TestLoadBalancer's rewrite of deploy/nginx/nginx.conf without running nginx: it finds
// every line it rewrites in the committed file, and refuses a file without them.
func TestNginxConfRewrite(t *testing.T) {
	committed, err := os.ReadFile(nginxConf)
	if err != nil {
		t.Fatal(err)
	}
	conf := string(committed)
	site := nginxSite{prefix: "/lb", user: "tester",
		listen:    map[string]string{grpcPort: "127.0.0.1:1", restPort: "127.0.0.1:2"},
		upstreams: map[string][]string{grpcUpstream: {"127.0.0.1:11", "127.0.0.1:12"}, restUpstream: {"127.0.0.1:21"}}}
	rendered, err := site.render(conf)
	if err != nil {
		t.Fatal(err)
	}
	var servers, listens, paths []string
	for line := range strings.Lines(rendered) {
		switch fields := strings.Fields(line); {
		case len(fields) < 2:
		case fields[0] == "server" && fields[1] != "{":
			servers = append(servers, fields[1])
		case fields[0] == "listen":
			listens = append(listens, strings.TrimSuffix(fields[1], ";"))
		case slices.Contains(nginxPaths, fields[0]):
			paths = append(paths, path.Dir(fields[1]))
		}
	}
	for _, check := range []struct {
		what      string
		got, want []string
	}{
		{"upstream servers", servers, []string{"127.0.0.1:11", "127.0.0.1:12", "127.0.0.1:21"}},
		{"listen addresses", listens, []string{"127.0.0.1:1", "127.0.0.1:2"}},
		{"directories of the paths", paths, slices.Repeat([]string{"/lb"}, len(nginxPaths))},
	} {
		if !slices.Equal(check.got, check.want) {
			t.Errorf("%s: %v, want %v", check.what, check.got, check.want)
		}
	}
	if !strings.Contains(rendered, "\nuser tester;\n") {
		t.Errorf("no line \"user tester;\" in\n%s", rendered)
	}

	tests := []struct {
		name, old, new, wantErr string
	}{
		{"no gRPC listen line", "listen 50051 http2;", "", "listen 50051 (0 lines)"},
		{"another port", "listen 8080;", "listen 8443;", "8443;\": a port the test does not know"},
		{"no server line", "server 127.0.0.1:808", "# server 127.0.0.1:808", "upstream rulebook_rest (0 lines)"},
		{"another upstream", "upstream rulebook_rest {", "upstream rest {", "upstream rest, which the test does not know"},
		{"no user line", "user www-data;", "", "user (0 lines)"},
		{"no pid line", "pid /run/nginx-rulebook.pid;", "", "pid (0 lines)"},
		{"two error logs", "error_log /var/log/nginx/rulebook-error.log warn;",
			"error_log /var/log/nginx/rulebook-error.log warn;\nerror_log stderr;", "error_log (2 lines)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(conf, tt.old) {
				t.Fatalf("%s has no %q any more: update this case", nginxConf, tt.old)
			}
			_, err := site.render(strings.ReplaceAll(conf, tt.old, tt.new))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("got %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
}

// findNginx returns the nginx binary: on PATH, else Debian's /usr/sbin/nginx, which is on root's PATH only. Without
// it the test is skipped, except in CI, where it fails.
func findNginx(t *testing.T) string {
	for _, name := range []string{"nginx", "/usr/sbin/nginx"} {
		if bin, err := exec.LookPath(name); err == nil {
			return bin
		}
	}
	const how = "nginx is not on PATH nor at /usr/sbin/nginx; on Debian: apt-get install -y nginx"
	if os.Getenv("CI") == "true" {
		t.Fatal(how + " (.ci/run must install it)")
	}
	t.Skip(how)
	return ""
}

// nginxProcess is nginx in the foreground, with its pid file, logs and temporary files in prefix.
type nginxProcess struct {
	cmd      *exec.Cmd
	prefix   string
	grpcAddr string // where it takes gRPC calls
	restAddr string // where it takes REST calls
	exited   chan struct{}
	err      error // how it exited, once exited is closed
}

// startNginx runs bin with deploy/nginx/nginx.conf, rewritten for its upstreams to be the replicas at the addresses
// of upstreams, with the TLS files it names (by base name: ca.crt, client.crt, client.key) in tlsFiles, until the
// test ends.
func startNginx(t *testing.T, bin string, upstreams map[string][]string, tlsFiles map[string][]byte) *nginxProcess {
	t.Helper()
	conf, err := os.ReadFile(nginxConf)
	if err != nil {
		t.Fatal(err)
	}
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	n := &nginxProcess{prefix: t.TempDir(), grpcAddr: freeAddr(t), restAddr: freeAddr(t), exited: make(chan struct{})}
	site := nginxSite{prefix: n.prefix, user: me.Username, upstreams: upstreams,
		listen: map[string]string{grpcPort: n.grpcAddr, restPort: n.restAddr}}
	rendered, err := site.render(string(conf))
	if err != nil {
		t.Fatalf("%s: %v", nginxConf, err)
	}
	confPath := filepath.Join(n.prefix, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(rendered), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, b := range tlsFiles {
		if err := os.WriteFile(filepath.Join(n.prefix, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stderr, err := os.Create(filepath.Join(n.prefix, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	// -e: errors before the configuration's error_log takes over go to stderr (a file, read on failure).
	n.cmd = exec.Command(bin, "-p", n.prefix, "-c", confPath, "-e", "stderr", "-g", "daemon off;")
	n.cmd.Stdout, n.cmd.Stderr = stderr, stderr
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		n.err = n.cmd.Wait()
		close(n.exited)
	}()
	t.Cleanup(func() {
		if err := n.stop(); err != nil && !t.Failed() {
			t.Errorf("nginx exited with %v", err)
		}
		n.logErrors(t)
	})
	return n
}

// freeAddr returns a loopback address with a port that is free now, for nginx, which cannot listen on port 0 and
// tell which port it got.
func freeAddr(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	return lis.Addr().String()
}

// dial returns a client of the load balancer: gRPC with the service config clients should use, its attempts
// recorded by attemptRecorder, and REST.
func (n *nginxProcess) dial(t *testing.T) *servertest.Client {
	return servertest.Dial(t, n.grpcAddr, n.restAddr,
		grpc.WithDefaultServiceConfig(serviceconfig.JSON), grpc.WithStatsHandler(attemptRecorder{}))
}

// await waits until nginx answers health checks through c, over both gRPC and REST, from a replica.
func (n *nginxProcess) await(t *testing.T, c *servertest.Client) {
	t.Helper()
	check := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		health := &healthpb.HealthCheckRequest{Service: rulebookv1grpc.RulesService_ServiceDesc.ServiceName}
		if _, err := healthpb.NewHealthClient(c.Conn).Check(ctx, health); err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+"/healthz", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /healthz: %s", resp.Status)
		}
		return nil
	}
	deadline := time.Now().Add(time.Minute)
	for {
		err := check()
		if err == nil {
			return
		}
		select {
		case <-n.exited:
			t.Fatalf("nginx exited with %v", n.err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx did not answer within a minute: %v", err)
		}
	}
}

// stop stops nginx gracefully (SIGQUIT: it finishes the calls in flight), or kills it if it is still there 30 s
// later, and returns how it exited.
func (n *nginxProcess) stop() error {
	select {
	case <-n.exited:
		return n.err
	default:
	}
	if err := n.cmd.Process.Signal(syscall.SIGQUIT); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-n.exited:
		return n.err
	case <-time.After(30 * time.Second):
		_ = n.cmd.Process.Kill()
		<-n.exited
		return errors.New("still running 30s after SIGQUIT")
	}
}

// logErrors logs nginx's standard error and error log.
func (n *nginxProcess) logErrors(t *testing.T) {
	for _, name := range []string{"stderr", "rulebook-error.log"} {
		text, err := os.ReadFile(filepath.Join(n.prefix, name))
		if err != nil {
			t.Logf("nginx %s: %v", name, err)
			continue
		}
		for line := range strings.Lines(string(text)) {
			t.Logf("nginx %s: %s", name, strings.TrimSuffix(line, "\n"))
		}
	}
}

// nginxEntry is a line of nginx's access log (log_format rulebook of nginxConf): one request as nginx saw it, with
// one comma-separated entry per upstream attempt in Upstream, UpstreamStatus and UpstreamBytesSent.
type nginxEntry struct {
	RequestID         string `json:"requestID"`
	Upstream          string `json:"upstream"`
	UpstreamStatus    string `json:"upstreamStatus"`
	UpstreamBytesSent string `json:"upstreamBytesSent"`
}

// accessLog returns the lines of nginx's access log, once it has stopped, by request id.
func (n *nginxProcess) accessLog(t *testing.T) map[string][]nginxEntry {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(n.prefix, "rulebook-access.log"))
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string][]nginxEntry{}
	for line := range strings.Lines(string(text)) {
		var e nginxEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("access log line %q: %v", line, err)
		}
		entries[e.RequestID] = append(entries[e.RequestID], e)
	}
	return entries
}

// upstreamAttempts counts the attempts of an access log line: all, those that failed without reaching their replica
// (nothing sent to it: the connection was refused), and those that failed after the call was sent to the replica,
// which nginx then resent to another (or answered 502, if it could not).
func (e nginxEntry) upstreamAttempts() (attempts, refused, unanswered int) {
	if e.Upstream == "" {
		return 0, 0, 0 // nginx answered itself
	}
	sent := strings.Split(e.UpstreamBytesSent, ", ")
	for i, status := range strings.Split(e.UpstreamStatus, ", ") {
		attempts++
		if code, err := strconv.Atoi(status); err == nil && code < http.StatusInternalServerError {
			continue // the replica answered
		}
		if i < len(sent) && sent[i] == "0" {
			refused++
		} else {
			unanswered++
		}
	}
	return attempts, refused, unanswered
}

// nginxSite is how TestLoadBalancer rewrites nginxConf. It keeps every line but these, each of which it must find:
//   - in each upstream block named in upstreams, the server lines: replaced by one per replica address, with the
//     parameters (max_fails=...) of the block's first server line;
//   - the listen lines, one for each committed port in listen: the port replaced by the address listen maps it to;
//   - the user line: the current user, for the worker processes of an nginx started as root to reach prefix;
//   - pid, error_log, access_log, the *_temp_path lines and the TLS files of the upstreams (*_ssl_certificate,
//     *_ssl_certificate_key, *_ssl_trusted_certificate): the path replaced by a file or directory of the same name
//     in prefix.
//
// nginxConf has one directive per line, so each rule reads a line's directive name and its first argument.
type nginxSite struct {
	prefix    string
	user      string
	listen    map[string]string   // a committed port, such as "50051" → the address to listen on instead
	upstreams map[string][]string // an upstream's name → its replicas' addresses
}

// nginxPaths are the directives whose first argument is a path, which nginxSite moves into its prefix.
var nginxPaths = []string{"pid", "error_log", "access_log",
	"client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path", "uwsgi_temp_path", "scgi_temp_path",
	"grpc_ssl_trusted_certificate", "grpc_ssl_certificate", "grpc_ssl_certificate_key",
	"proxy_ssl_trusted_certificate", "proxy_ssl_certificate", "proxy_ssl_certificate_key"}

// render returns conf rewritten, or an error naming the lines it did not find or did not expect.
func (s nginxSite) render(conf string) (string, error) {
	var out []string
	found := map[string]int{} // how many times each rule applied
	upstream := ""            // the upstream block of the line, if any
	for line := range strings.Lines(conf) {
		line = strings.TrimSuffix(line, "\n")
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		fields := strings.Fields(line)
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			if len(fields) == 1 && fields[0] == "}" {
				upstream = ""
			}
			out = append(out, line)
			continue
		}
		// arg is the directive's first argument; with rewrites it to value, keeping the rest of the line.
		arg := strings.TrimSuffix(fields[1], ";")
		with := func(value string) string {
			rewritten := slices.Clone(fields)
			rewritten[1] = strings.Replace(fields[1], arg, value, 1)
			return indent + strings.Join(rewritten, " ")
		}
		switch directive := fields[0]; {
		case directive == "upstream":
			upstream = arg
		case directive == "server" && upstream != "":
			addrs, ok := s.upstreams[upstream]
			if !ok {
				return "", fmt.Errorf("upstream %s, which the test does not know (it knows %v)",
					upstream, slices.Sorted(maps.Keys(s.upstreams)))
			}
			if found["upstream "+upstream]++; found["upstream "+upstream] == 1 {
				for _, addr := range addrs {
					out = append(out, with(addr))
				}
			}
			continue
		case directive == "listen":
			addr, ok := s.listen[arg]
			if !ok {
				return "", fmt.Errorf("%q: a port the test does not know (it knows %v)", line, slices.Sorted(maps.Keys(s.listen)))
			}
			found["listen "+arg]++
			line = with(addr)
		case directive == "user":
			found["user"]++
			line = with(s.user)
		case slices.Contains(nginxPaths, directive):
			found[directive]++
			line = with(filepath.Join(s.prefix, filepath.Base(arg)))
		}
		out = append(out, line)
	}
	var want []string
	for name := range s.upstreams {
		want = append(want, "upstream "+name)
	}
	for port := range s.listen {
		want = append(want, "listen "+port)
	}
	want = append(append(want, "user"), nginxPaths...)
	var wrong []string
	for _, rule := range want {
		if found[rule] == 0 || found[rule] > 1 && !strings.HasPrefix(rule, "upstream ") {
			wrong = append(wrong, fmt.Sprintf("%s (%d lines)", rule, found[rule]))
		}
	}
	if len(wrong) > 0 {
		return "", fmt.Errorf("the test rewrites one line of each of %v (an upstream block's server lines), but found: %s",
			want, strings.Join(wrong, ", "))
	}
	return strings.Join(out, "\n") + "\n", nil
}

// kill ends p with SIGKILL, as a crash would, and waits until it has exited. Its death is expected, so p's cleanup
// does not report it.
func (p *process) kill() error {
	if err := p.cmd.Process.Kill(); err != nil {
		return err
	}
	select {
	case <-p.exited:
	case <-time.After(time.Minute):
		return errors.New("still running a minute after SIGKILL")
	}
	var exit *exec.ExitError
	if errors.As(p.err, &exit) {
		if status, ok := exit.Sys().(syscall.WaitStatus); ok && status.Signaled() && status.Signal() == syscall.SIGKILL {
			p.err = nil
			return nil
		}
	}
	return fmt.Errorf("exited with %v, want killed by SIGKILL", p.err)
}

// phase is a stretch of TestLoadBalancer's load. One with an action lasts while the action runs; one without lasts
// until every player has finished calls calls started in it.
type phase struct {
	name   string
	action func() error
	calls  int
	allows tolerance // of the calls in flight during the phase
}

// tolerance is what may happen to a call, which must succeed all the same.
type tolerance int

const (
	// exact allows nothing: every attempt succeeds, the client's and nginx's.
	exact tolerance = iota
	// resent allows nginx to have sent the call to a replica that closed the connection without answering, and then
	// to another. Around a SIGTERM, nginx cannot know that a replica is draining, nor can the replica tell it: nginx
	// reuses an idle connection that the replica is closing, or opens one just as the replica closes its listener.
	resent
	// retried allows, besides, the client to have had to retry the call: a replica died with it in flight.
	retried
)

// call is one RulesService call of a player through the load balancer.
type call struct {
	id         string // its request id
	method     string
	rest       bool
	start, end int // the phases it started and ended in
	err        error

	mu       sync.Mutex
	attempts []attempt
}

// attempt is one try of a call: over gRPC, each one the client made; over REST, the client's only one.
type attempt struct {
	transparent bool // a gRPC transparent retry, of an attempt that never reached nginx's handling (a closed connection)
	err         error
}

// String says how the attempt ended.
func (a attempt) String() string {
	how := "ok"
	if a.err != nil {
		how = a.err.Error()
	}
	if a.transparent {
		return "transparent retry: " + how
	}
	return how
}

// tries returns the call's attempts and how many of them were retries by the client's retry policy (not
// transparent).
func (c *call) tries() ([]attempt, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	retries := 0
	for _, a := range c.attempts[min(1, len(c.attempts)):] {
		if !a.transparent {
			retries++
		}
	}
	return slices.Clone(c.attempts), retries
}

// callKey is the context key of the call that an attempt belongs to.
type callKey struct{}

// attemptRecorder is a gRPC stats handler that records each attempt of a call in the call of its context.
type attemptRecorder struct{}

// TagRPC leaves the context of an attempt as it is: it holds the call.
func (attemptRecorder) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }

// TagConn leaves the context of a connection as it is.
func (attemptRecorder) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }

// HandleConn records nothing of connections.
func (attemptRecorder) HandleConn(context.Context, stats.ConnStats) {}

// HandleRPC records an attempt at its beginning, and how it ended at its end.
func (attemptRecorder) HandleRPC(ctx context.Context, s stats.RPCStats) {
	c, ok := ctx.Value(callKey{}).(*call)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch s := s.(type) {
	case *stats.Begin:
		c.attempts = append(c.attempts, attempt{transparent: s.IsTransparentRetryAttempt})
	case *stats.End:
		if len(c.attempts) > 0 {
			c.attempts[len(c.attempts)-1].err = s.Error
		}
	}
}

// load is the players and their calls, phase by phase.
type load struct {
	phases  []phase
	players []*player

	mu      sync.Mutex
	now     int           // the current phase
	calls   []*call       // every call, as they ended
	done    []int         // by player, the calls it finished of those it started in the current phase
	reached chan struct{} // closed once every player has finished phases[now].calls of them

	playing    sync.WaitGroup // the players' goroutines
	stopped    chan struct{}  // closed once they have all returned
	finishing  chan struct{}  // closed when the players are to play their games to the end, and stop
	finishOnce sync.Once
	failed     chan struct{} // closed once a player has failed
	failOnce   sync.Once
}

// newLoad returns the load of players players through phases.
func newLoad(phases []phase, players int) *load {
	return &load{phases: phases, players: make([]*player, players), done: make([]int, players),
		stopped: make(chan struct{}), finishing: make(chan struct{}), failed: make(chan struct{})}
}

// enter starts phase i, and returns a channel closed once every player has finished phases[i].calls calls started
// in it.
func (l *load) enter(i int) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.now = i
	clear(l.done)
	l.reached = make(chan struct{})
	return l.reached
}

// await waits for reached, from enter, and reports whether it came: not if a player failed first. It fails the test
// if it waits a minute.
func (l *load) await(t *testing.T, reached <-chan struct{}) bool {
	t.Helper()
	select {
	case <-reached:
		return true
	case <-l.failed:
		return false
	case <-time.After(time.Minute):
		l.mu.Lock()
		defer l.mu.Unlock()
		t.Fatalf("phase %q: the players did not finish %d calls each within a minute (finished %v)",
			l.phases[l.now].name, l.phases[l.now].calls, l.done)
		return false
	}
}

// begin returns a new call of method by p, in the current phase.
func (l *load) begin(p *player, method string) *call {
	l.mu.Lock()
	defer l.mu.Unlock()
	p.calls++
	return &call{id: fmt.Sprintf("%d-%d", p.n, p.calls), method: method, rest: p.rest, start: l.now}
}

// end records how c, a call of p, ended.
func (l *load) end(p *player, c *call, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c.end, c.err = l.now, err
	l.calls = append(l.calls, c)
	if err != nil || c.start != l.now || l.reached == nil {
		return
	}
	l.done[p.n]++
	if slices.ContainsFunc(l.done, func(done int) bool { return done < l.phases[l.now].calls }) {
		return
	}
	close(l.reached)
	l.reached = nil
}

// run starts the players, each in its own goroutine; the test's cleanup stops them too, so that none outlives it.
func (l *load) run(t *testing.T) {
	for _, p := range l.players {
		l.playing.Go(func() { p.play(playerT{t, l}) })
	}
	go func() {
		l.playing.Wait()
		close(l.stopped)
	}()
	t.Cleanup(func() {
		l.finish()
		<-l.stopped
	})
}

// stop has the players play their games to the end, and waits until they have.
func (l *load) stop(t *testing.T) {
	t.Helper()
	l.finish()
	servertest.Await(t, l.stopped, "the end of the players' last games")
}

// finish tells the players to play their games to the end, and stop.
func (l *load) finish() { l.finishOnce.Do(func() { close(l.finishing) }) }

// stopping reports whether the players are to play their games to the end, and stop.
func (l *load) stopping() bool {
	select {
	case <-l.finishing:
		return true
	default:
		return false
	}
}

// phaseCounts are the counts of the calls started in a phase.
type phaseCounts struct {
	calls, grpcCalls, grpcAttempts, transparent, failed int // the client's
	requests, upstreamAttempts, refused, resent         int // nginx's
}

// check checks every call and nginx's access log lines of it (by request id): the client may have retried a call,
// and nginx may have resent it, only if it was in flight during a phase that allows it. It logs the counts by the
// phase each call started in.
func (l *load) check(t *testing.T, entries map[string][]nginxEntry) {
	t.Helper()
	counts := make([]phaseCounts, len(l.phases))
	var retriedCalls, resentCalls []string
	for _, c := range l.calls {
		span := l.phases[c.start : c.end+1]
		allowed := slices.MaxFunc(span, func(a, b phase) int { return cmp.Compare(a.allows, b.allows) }).allows
		name := fmt.Sprintf("%s %s, from %q to %q", c.id, c.method, span[0].name, span[len(span)-1].name)
		n := &counts[c.start]
		n.calls++
		attempts, retries := c.tries()
		if !c.rest {
			n.grpcCalls++
			n.grpcAttempts += len(attempts)
		}
		for _, a := range attempts {
			if a.transparent {
				n.transparent++
			}
		}
		if retries > 0 || c.err != nil {
			n.failed++
			if allowed < retried {
				retriedCalls = append(retriedCalls, fmt.Sprintf("%s: attempts %q", name, attempts))
			}
		}
		logged := entries[c.id]
		if len(logged) == 0 || len(logged) > len(attempts) {
			t.Errorf("%s: %d access log lines for %d attempts", name, len(logged), len(attempts))
		}
		for _, e := range logged {
			tries, refused, unanswered := e.upstreamAttempts()
			n.requests++
			n.upstreamAttempts += tries
			n.refused += refused
			n.resent += unanswered
			if unanswered > 0 && allowed < resent {
				resentCalls = append(resentCalls, fmt.Sprintf("%s: nginx sent it to %s, which answered %s, after sending %s bytes",
					name, e.Upstream, e.UpstreamStatus, e.UpstreamBytesSent))
			}
		}
	}
	t.Logf("%-18s %6s %6s %9s %12s %8s | nginx: %8s %9s %8s %7s", "phase (calls began)", "calls", "gRPC",
		"attempts", "transparent", "failed", "requests", "attempts", "refused", "resent")
	for i, n := range counts {
		t.Logf("%-18s %6d %6d %9d %12d %8d | nginx: %8d %9d %8d %7d", l.phases[i].name, n.calls, n.grpcCalls,
			n.grpcAttempts, n.transparent, n.failed, n.requests, n.upstreamAttempts, n.refused, n.resent)
	}
	for _, p := range l.players {
		t.Logf("%v: %d games played to their end, %d moves, %d calls", p, p.games, p.moves, p.calls)
	}
	for _, problem := range []struct {
		calls []string
		what  string
	}{
		{retriedCalls, "failed at an attempt, away from the SIGKILL (the client retried them, or gave up)"},
		{resentCalls, "were sent by nginx to a replica that failed to answer, away from the SIGTERM and the SIGKILL"},
	} {
		if len(problem.calls) > 0 {
			t.Errorf("%d calls %s:\n%s", len(problem.calls), problem.what,
				strings.Join(problem.calls[:min(len(problem.calls), 20)], "\n"))
		}
	}
}

// playerT is the testing.TB of a player's goroutine: Fatal, Fatalf and FailNow mark the test failed and end the
// player's goroutine, not the test's, which learns it from the load.
type playerT struct {
	testing.TB
	load *load
}

// FailNow marks the test failed and ends the player.
func (p playerT) FailNow() {
	p.TB.Fail()
	p.load.failOnce.Do(func() { close(p.load.failed) })
	runtime.Goexit()
}

// Fatal logs args as an error and ends the player.
func (p playerT) Fatal(args ...any) {
	p.TB.Helper()
	p.TB.Error(args...)
	p.FailNow()
}

// Fatalf logs an error and ends the player.
func (p playerT) Fatalf(format string, args ...any) {
	p.TB.Helper()
	p.TB.Errorf(format, args...)
	p.FailNow()
}

// player plays sealed games of one game through the load balancer, one after another, over gRPC or REST.
type player struct {
	n       int
	game    string
	options *rulebookv1.GameOptions
	check   func(t testing.TB, moves int, final *rulebookv1.GameState, score *rulebookv1.Score)
	rest    bool
	client  *servertest.Client // of the load balancer
	http    *http.Client       // over REST
	load    *load

	calls        int // calls begun, which number their ids
	games, moves int // games played to their end, and their moves
}

// maxMoves bounds a game of a player: Exploze 6 x 6 and Micropul end long before.
const maxMoves = 5000

// String names the player in the test's log.
func (p *player) String() string {
	over := "gRPC"
	if p.rest {
		over = "REST"
	}
	return fmt.Sprintf("player %d (%s over %s)", p.n, p.game, over)
}

// play plays games, a move at a time, until the load stops; then it plays its game to the end, and returns.
func (p *player) play(t testing.TB) {
	tr := p.transport()
	lb := []*servertest.Client{p.client}
	for seed := uint64(p.n) << 32; ; seed++ {
		g := servertest.NewSealedGame(t, p.client, tr, p.game, p.options, seed)
		var score *rulebookv1.Score
		for score == nil && !p.load.stopping() {
			score = g.Play(t, lb, 1)
		}
		if score == nil {
			if score = g.Play(t, lb, maxMoves); score == nil {
				t.Fatalf("%v: not over after %d moves", p, g.Moves)
			}
		}
		p.check(t, g.Moves, nil, score)
		p.games++
		p.moves += g.Moves
		if p.load.stopping() {
			return
		}
	}
}

// transport is the player's transport: each call of Play and NewSealedGame is one call, recorded in the load.
func (p *player) transport() servertest.Transport {
	return servertest.Transport{
		Name: p.String(),
		NewGame: func(t testing.TB, c *servertest.Client, req *rulebookv1.NewGameRequest) *rulebookv1.NewGameResponse {
			return rulesCall(t, p, c, "NewGame", req, &rulebookv1.NewGameResponse{})
		},
		Legal: func(t testing.TB, c *servertest.Client, req *rulebookv1.ListLegalMovesRequest) *rulebookv1.ListLegalMovesResponse {
			return rulesCall(t, p, c, "ListLegalMoves", req, &rulebookv1.ListLegalMovesResponse{})
		},
		Apply: func(t testing.TB, c *servertest.Client, req *rulebookv1.ApplyMoveRequest) *rulebookv1.ApplyMoveResponse {
			return rulesCall(t, p, c, "ApplyMove", req, &rulebookv1.ApplyMoveResponse{})
		},
		Score: func(t testing.TB, c *servertest.Client, req *rulebookv1.ScoreRequest) *rulebookv1.ScoreResponse {
			return rulesCall(t, p, c, "Score", req, &rulebookv1.ScoreResponse{})
		},
	}
}

// rulesCall makes the RulesService call method (such as "ApplyMove") of p with req through c, records it in the
// load, and returns resp, filled in by the answer. A call that fails ends the player.
func rulesCall[Resp proto.Message](t testing.TB, p *player, c *servertest.Client, method string, req proto.Message,
	resp Resp) Resp {
	t.Helper()
	rec := p.load.begin(p, method)
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), callKey{}, rec), callBound)
	defer cancel()
	var err error
	if p.rest {
		err = p.post(ctx, c, rec.id, servertest.RESTPath(method, req), req, resp)
		rec.attempts = []attempt{{err: err}}
	} else {
		ctx = metadata.AppendToOutgoingContext(ctx, requestIDHeader, rec.id)
		err = c.Conn.Invoke(ctx, "/"+rulebookv1grpc.RulesService_ServiceDesc.ServiceName+"/"+method, req, resp)
	}
	p.load.end(p, rec, err)
	if err != nil {
		t.Fatalf("%v: %s (call %s): %v", p, method, rec.id, err)
	}
	return resp
}

// post sends req as JSON to path through c, with the request id id, and decodes the answer into resp; an answer but
// 200 is an error.
func (p *player) post(ctx context.Context, c *servertest.Client, id, path string, req, resp proto.Message) error {
	body, err := protojson.Marshal(req)
	if err != nil {
		return err
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set(requestIDHeader, id)
	answer, err := p.http.Do(r)
	if err != nil {
		return err
	}
	defer answer.Body.Close()
	out, err := io.ReadAll(answer.Body)
	if err != nil {
		return err
	}
	if answer.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %s: %s: %.200q", path, answer.Status, out)
	}
	return protojson.Unmarshal(out, resp)
}
