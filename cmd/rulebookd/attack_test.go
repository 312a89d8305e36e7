package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/server/servertest"
)

// attack is a hostile load on a rulebookd process: run holds it until ctx is done.
type attack struct {
	name string
	run  func(ctx context.Context, t *testing.T, p *process)
}

// attacks are the loads of TestAttacksDenyNoOne: each costs its sender next to nothing, and each denied every other
// caller when a call slot or request memory was taken before the request arrived.
var attacks = []attack{
	{"none", func(ctx context.Context, _ *testing.T, _ *process) { <-ctx.Done() }},
	{"32 gRPC streams on one connection that never send their request", idleStreams},
	{"32 HTTP connections that declare 1 MiB and send one byte", declaredBodies},
	{"200 gRPC streams that trickle a 100-byte request a byte per 0.3 s", tricklingStreams},
	{"heavy calls at the default limit: SuggestMove thinking 1 s, from 4 callers", heavyCalls},
}

// TestAttacksDenyNoOne runs rulebookd with its defaults under each attack (and under none, for the baseline), and
// meanwhile a well-behaved client calls ApplyMove every 25 ms over gRPC, REST and Connect in turn: at least 99% of
// its calls must be answered OK under every attack, and the process's peak resident memory must stay under
// peakRSSBound. Each attack lasts beyond the read timeout of a small request (3 s), so that the server cuts its
// requests and the attacker sends them again; at the long depth (RULEBOOK_TEST_DEPTH=long) six times as long (18 s),
// beyond the time a 1 MiB body may take to arrive (6 s), and the 99th percentile is steadier. The client's latencies
// are logged, to compare (BENCHMARKS.md), not asserted.
func TestAttacksDenyNoOne(t *testing.T) {
	calls := 120 // 3 s at one call per 25 ms: beyond the read timeout (2 s)
	if enginetest.ChosenDepth(t) == enginetest.Long {
		calls = 720
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			p := startProcess(t, map[string]string{stateKeysEnv: servertest.StateKeys})
			client := newPolitePlayer(t, p)
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { a.run(ctx, t, p) })
			defer func() { cancel(); wg.Wait() }()
			time.Sleep(500 * time.Millisecond) // the attack under way
			lat := client.play(t, calls, 25*time.Millisecond)
			cancel()
			wg.Wait()
			ok := 0
			for _, l := range lat {
				if l.err == nil {
					ok++
				}
			}
			if ok*100 < calls*99 {
				for _, l := range lat {
					if l.err != nil {
						t.Logf("%s: %v", l.transport, l.err)
					}
				}
				t.Errorf("%d of %d calls answered OK, want at least 99%%", ok, calls)
			}
			peak := procStatus(t, p.cmd.Process.Pid, "VmHWM")
			if peak > peakRSSBound {
				t.Errorf("peak resident memory %d MiB, want under %d MiB", peak>>20, peakRSSBound>>20)
			}
			t.Logf("%s: %d of %d OK, peak resident memory %d MiB; %s", a.name, ok, calls, peak>>20, summarize(lat))
		})
	}
}

// politePlayer calls ApplyMove on one sealed Exploze position, as a well-behaved client would, over gRPC, REST and
// Connect in turn.
type politePlayer struct {
	p    *process
	req  *rulebookv1.ApplyMoveRequest
	json string
}

// newPolitePlayer deals the sealed game the player moves in.
func newPolitePlayer(t *testing.T, p *process) *politePlayer {
	game := servertest.Succeeded(p.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}))(t)
	req := &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: game.GetToken(), SeatPass: game.GetSeatPasses()[0],
		Move: servertest.ExplozeMove(1)}
	body, err := protojson.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return &politePlayer{p: p, req: req, json: string(body)}
}

// latency is how one call went.
type latency struct {
	transport string
	took      time.Duration
	err       error
}

// play makes n calls, one every interval, each with a deadline of 5 s, and returns how each went.
func (c *politePlayer) play(t *testing.T, n int, interval time.Duration) []latency {
	transports := []string{"gRPC", "REST", "Connect"}
	out := make([]latency, 0, n)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for i := range n {
		<-tick.C
		tr := transports[i%len(transports)]
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		start := time.Now()
		err := c.call(ctx, tr)
		out = append(out, latency{tr, time.Since(start), err})
		cancel()
	}
	return out
}

// call makes one ApplyMove call over transport.
func (c *politePlayer) call(ctx context.Context, transport string) error {
	if transport == "gRPC" {
		_, err := c.p.RPC.ApplyMove(ctx, c.req)
		return err
	}
	path := "/v1/games/exploze:apply"
	if transport == "Connect" {
		path = rulebookv1grpc.RulesService_ApplyMove_FullMethodName
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.p.URL+path, strings.NewReader(c.json))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("HTTP %d: %s", resp.StatusCode, body)
	}
	return err
}

// summarize returns the median and 99th percentile of the calls that succeeded, by transport and in all.
func summarize(lat []latency) string {
	by := map[string][]time.Duration{}
	for _, l := range lat {
		if l.err == nil {
			by[l.transport] = append(by[l.transport], l.took)
			by["all"] = append(by["all"], l.took)
		}
	}
	var parts []string
	for _, tr := range []string{"all", "gRPC", "REST", "Connect"} {
		d := by[tr]
		if len(d) == 0 {
			continue
		}
		slices.Sort(d)
		p := func(q float64) time.Duration { return d[min(len(d)-1, int(q*float64(len(d))))] }
		parts = append(parts, fmt.Sprintf("%s p50 %.2f ms p99 %.2f ms", tr, ms(p(0.5)), ms(p(0.99))))
	}
	return strings.Join(parts, "; ")
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// heavyCalls keeps the server's heavy calls busy: 4 callers (as many as the limit and its queue take on two CPUs, by
// the earlier default of one heavy call a CPU) each ask for a suggestion with a think time of 1 s, again and again,
// until ctx is done (one refused SERVER_BUSY asks again 25 ms later).
func heavyCalls(ctx context.Context, t *testing.T, p *process) {
	game := servertest.Succeeded(p.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}))(t)
	req := &rulebookv1.SuggestMoveRequest{Game: "exploze", Token: game.GetToken(), SeatPass: game.GetSeatPasses()[0],
		ThinkTime: durationpb.New(time.Second)}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for ctx.Err() == nil {
				if _, err := p.RPC.SuggestMove(ctx, req); err != nil {
					select {
					case <-ctx.Done():
					case <-time.After(25 * time.Millisecond):
					}
				}
			}
		})
	}
	wg.Wait()
}

// idleStreams opens 32 RulesService streams on one gRPC connection and never sends their requests; each one the
// server ends is opened again, until ctx is done.
func idleStreams(ctx context.Context, t *testing.T, p *process) {
	conn := dialRaw(t, p)
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for ctx.Err() == nil {
				stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true},
					rulebookv1grpc.RulesService_ApplyMove_FullMethodName)
				if err != nil {
					continue
				}
				_ = stream.RecvMsg(&rulebookv1.ApplyMoveResponse{}) // until the server ends it, or ctx does
			}
		})
	}
	wg.Wait()
}

// dialRaw returns a gRPC connection of its own to p, closed when the test ends.
func dialRaw(t *testing.T, p *process) *grpc.ClientConn {
	addr, _ := p.logged("serving")
	conn, err := grpc.NewClient(fmt.Sprint(addr["grpc"]), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// declaredBodies holds 32 HTTP connections, each sending a REST request that declares a body of 1 MiB and sends one
// byte of it; each one the server ends is sent again, until ctx is done.
func declaredBodies(ctx context.Context, _ *testing.T, p *process) {
	const head = "POST /v1/games/exploze:apply HTTP/1.1\r\nHost: rulebook\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{"
	addr := strings.TrimPrefix(p.URL, "http://")
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for ctx.Err() == nil {
				conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
				if err != nil {
					continue
				}
				stop := context.AfterFunc(ctx, func() { conn.Close() })
				if _, err := io.WriteString(conn, head); err == nil {
					_, _ = io.Copy(io.Discard, conn) // until the server answers and closes, or ctx ends
				}
				stop()
				conn.Close()
			}
		})
	}
	wg.Wait()
}

// tricklingStreams opens 200 RulesService streams over raw HTTP/2 connections (29 streams a connection, within the
// server's 32), each sending a 100-byte gRPC message a byte every 0.3 s; a stream the server ends is opened again,
// until ctx is done.
func tricklingStreams(ctx context.Context, t *testing.T, p *process) {
	addr, _ := p.logged("serving")
	const streams, perConn = 200, 29
	var wg sync.WaitGroup
	for opened := 0; opened < streams; opened += perConn {
		wg.Go(func() { trickleConn(ctx, t, fmt.Sprint(addr["grpc"]), min(perConn, streams-opened)) })
	}
	wg.Wait()
}

// trickleConn holds one HTTP/2 connection to addr with n streams trickling their requests.
func trickleConn(ctx context.Context, t *testing.T, addr string, n int) {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		t.Errorf("trickling streams: %v", err)
		return
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	h := &h2conn{framer: http2.NewFramer(conn, conn), ended: map[uint32]bool{}, next: 1}
	if _, err := io.WriteString(conn, http2.ClientPreface); err != nil {
		return
	}
	if h.write(func(f *http2.Framer) error { return f.WriteSettings() }) != nil {
		return
	}
	go h.read()
	message := make([]byte, 5+95)
	binary.BigEndian.PutUint32(message[1:], 95)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				id, err := h.open()
				if err != nil {
					return
				}
				for i := 0; i < len(message) && !h.isEnded(id); i++ {
					if h.write(func(f *http2.Framer) error { return f.WriteData(id, i == len(message)-1, message[i:i+1]) }) != nil {
						return
					}
					select {
					case <-ctx.Done():
						return
					case <-time.After(300 * time.Millisecond):
					}
				}
			}
		})
	}
	wg.Wait()
}

// h2conn is the client side of a raw HTTP/2 connection to a gRPC server.
type h2conn struct {
	mu     sync.Mutex
	framer *http2.Framer
	ended  map[uint32]bool // streams the server has ended
	next   uint32          // the next stream's id
	closed atomic.Bool
}

// write writes frames with f, alone on the connection.
func (h *h2conn) write(f func(*http2.Framer) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return f(h.framer)
}

// open opens a RulesService ApplyMove stream and returns its id.
func (h *h2conn) open() (uint32, error) {
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":authority", "rulebook"},
		{":path", rulebookv1grpc.RulesService_ApplyMove_FullMethodName}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
		_ = enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	id := h.next
	h.next += 2
	return id, h.framer.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block.Bytes(), EndHeaders: true})
}

// isEnded reports whether the server has ended stream id.
func (h *h2conn) isEnded(id uint32) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ended[id] || h.closed.Load()
}

// read reads the server's frames until the connection ends: it acknowledges settings and pings, and notes the
// streams that end.
func (h *h2conn) read() {
	defer h.closed.Store(true)
	for {
		f, err := h.framer.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				_ = h.write(func(fr *http2.Framer) error { return fr.WriteSettingsAck() })
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				_ = h.write(func(fr *http2.Framer) error { return fr.WritePing(true, f.Data) })
			}
		case *http2.HeadersFrame:
			if f.StreamEnded() {
				h.end(f.StreamID)
			}
		case *http2.RSTStreamFrame:
			h.end(f.StreamID)
		case *http2.GoAwayFrame:
			return
		}
	}
}

// end notes that the server has ended stream id.
func (h *h2conn) end(id uint32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ended[id] = true
}
