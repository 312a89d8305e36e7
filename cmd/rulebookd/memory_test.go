package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// peakRSSBound is the most memory rulebookd may hold at its peak, in its defaults, under the loads of
// TestMemoryBoundedUnderHostileLoad: three quarters of the Deployment's limit of 256 MiB.
const peakRSSBound = 192 << 20

// procStatus returns a field of /proc/<pid>/status (VmRSS, VmHWM...), in bytes.
func procStatus(t *testing.T, pid int, field string) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if value, ok := strings.CutPrefix(scanner.Text(), field+":"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kib << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// rawBytes is a gRPC codec that sends a *[]byte as the message it is, to send a server any bytes at all.
type rawBytes struct{}

// Marshal returns the bytes of v, a *[]byte.
func (rawBytes) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*[]byte))}, nil
}

// Unmarshal drops the answer.
func (rawBytes) Unmarshal(mem.BufferSlice, any) error { return nil }

// Name names the codec as the protobuf codec, which the server expects.
func (rawBytes) Name() string { return "proto" }

// hostileLoad is one kind of request that TestMemoryBoundedUnderHostileLoad sends many of at once.
type hostileLoad struct {
	name string
	send func(ctx context.Context) error // an error is the test's, not a refusal
}

// grpcLoad is the load of sending msg, encoded, to method of RulesService on conn.
func grpcLoad(name string, conn *grpc.ClientConn, method string, msg []byte) hostileLoad {
	return hostileLoad{name, func(ctx context.Context) error {
		var out []byte
		_ = conn.Invoke(ctx, "/rulebook.v1.RulesService/"+method, &msg, &out, grpc.ForceCodecV2(rawBytes{}))
		return nil // every answer will do, refusals included: what is measured is the server's memory
	}}
}

// restLoad is the load of posting body to path of the server at url, with its length or, if chunked, without.
func restLoad(name, url, path string, body []byte, chunked bool) hostileLoad {
	return hostileLoad{name, func(ctx context.Context) error {
		var r io.Reader = bytes.NewReader(body)
		if chunked {
			r = io.MultiReader(r)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+path, r)
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil // the server may refuse and close before the body is sent
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}}
}

// TestMemoryBoundedUnderHostileLoad runs rulebookd with its defaults and sends it, 64 at a time, requests of the
// largest size it accepts over gRPC (a token of 1 MiB, a record of half a million empty moves, undecodable bytes)
// and then over REST (a valid record, bodies over the limit with and without a length, a body of 1 MiB with a
// field of the wrong type), two rounds each (one with go test -short, three at the long depth); its peak resident
// memory (VmHWM) must stay under 192 MiB.
func TestMemoryBoundedUnderHostileLoad(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the process's memory from /proc, which only Linux has")
	}
	p := startProcess(t, map[string]string{stateKeysEnv: servertest.StateKeys})
	pid := p.cmd.Process.Pid
	const maxMessage = 1 << 20 // the default -max-message-bytes
	sealed := servertest.Succeeded(p.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}))(t)
	encode := func(m proto.Message, limit int) []byte {
		b, err := proto.Marshal(m)
		if err != nil || len(b) > limit {
			t.Fatalf("a request of %d bytes (%v), over %d", len(b), err, limit)
		}
		return b
	}
	emptyMoves := make([]*rulebookv1.Move, (maxMessage-1024)/2)
	for i := range emptyMoves {
		emptyMoves[i] = &rulebookv1.Move{}
	}
	record := make([]*rulebookv1.Move, 20_000)
	for i := range record {
		record[i] = servertest.ExplozeMove(1)
	}
	validRecord, err := protojson.Marshal(&rulebookv1.ReplayRequest{Game: "exploze", Token: sealed.GetToken(),
		SeatPass: sealed.GetSeatPasses()[0], Moves: record})
	if err != nil || len(validRecord) > maxMessage {
		t.Fatalf("a valid record of %d bytes (%v)", len(validRecord), err)
	}
	wrongType := []byte(`{"token": "x", "moves": [` + strings.Repeat(`{"player": 1}, `, (maxMessage-100)/15) + `{"player": "one"}]}`)
	overLimit := bytes.Repeat([]byte(" "), maxMessage+1)

	undecodable := bytes.Repeat([]byte{0xff}, maxMessage-16)
	phases := []struct {
		name  string
		loads []hostileLoad
	}{
		{"gRPC", []hostileLoad{
			grpcLoad("a token of 1 MiB", p.Conn, "ApplyMove", encode(&rulebookv1.ApplyMoveRequest{Game: "exploze",
				Token: strings.Repeat("A", maxMessage-64), Move: servertest.ExplozeMove(1)}, maxMessage)),
			grpcLoad("half a million empty moves", p.Conn, "Replay", encode(&rulebookv1.ReplayRequest{Game: "exploze",
				Token: sealed.GetToken(), Moves: emptyMoves}, maxMessage)),
			grpcLoad("undecodable bytes", p.Conn, "Score", undecodable),
		}},
		{"REST", []hostileLoad{
			restLoad("a valid record of 20,000 moves", p.URL, "/v1/games/exploze:replay", validRecord, false),
			restLoad("a body over the limit", p.URL, "/v1/games/exploze:apply", overLimit, false),
			restLoad("a chunked body over the limit", p.URL, "/v1/games/exploze:apply", overLimit, true),
			restLoad("a field of the wrong type", p.URL, "/v1/games/exploze:replay", wrongType, false),
		}},
	}
	const concurrent = 64
	rounds := enginetest.ByDepth(1, 2, 3)
	before := procStatus(t, pid, "VmRSS")
	for _, phase := range phases {
		for _, l := range phase.loads {
			for range rounds {
				var wg sync.WaitGroup
				for range concurrent {
					wg.Go(func() {
						ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a bound, not a target
						defer cancel()
						if err := l.send(ctx); err != nil {
							t.Errorf("%s: %v", l.name, err)
						}
					})
				}
				wg.Wait()
			}
			t.Logf("%s, %s: %d at a time, %d rounds: RSS now %d MiB, peak %d MiB", phase.name, l.name, concurrent, rounds,
				procStatus(t, pid, "VmRSS")>>20, procStatus(t, pid, "VmHWM")>>20)
		}
	}
	peak := procStatus(t, pid, "VmHWM")
	t.Logf("resident memory: %d MiB before the load, peak %d MiB (bound %d MiB)", before>>20, peak>>20, peakRSSBound>>20)
	if peak >= peakRSSBound {
		t.Errorf("peak resident memory %d MiB, want under %d MiB", peak>>20, peakRSSBound>>20)
	}
	servertest.Succeeded(p.RPC.ListGames(servertest.CallContext(t), &rulebookv1.ListGamesRequest{}))(t)
}
