package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/server/servertest"
)

// BenchmarkEcho measures ApplyMove against the least any gRPC server could do with the same bytes: a bare grpc-go
// server whose one method answers the call's request bytes with the response bytes rulebookd gave for them (the
// baseline, in the same run). Each call is sent over gRPC as raw bytes (the client encodes and decodes nothing, the
// same for both servers) and over REST as the JSON of the same request, at 1 and 16 calls in flight, to a server
// with the production defaults: metrics on, a call log line per call (JSON, info level, written to nothing).
// Besides the time per call it reports cpu-ns/op, the process's CPU time per call (client and server), which a busy
// machine disturbs less than wall time; compare ratios with the echo of the same call, or REST with gRPC.
//
//	go test -run '^$' -bench BenchmarkEcho -benchtime 2000x -count 6 ./server | benchstat -col /via -
func BenchmarkEcho(b *testing.B) {
	ts := start(b, setup{cfg: benchConfig(), log: discardLogger(zapcore.InfoLevel)})
	rest := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	b.Cleanup(rest.CloseIdleConnections)
	for _, c := range echoCalls(b, ts) {
		reqBytes, json, respBytes := encodeEchoCall(b, ts, c)
		echo := startEcho(b, respBytes)
		for _, inFlight := range []int{1, 16} {
			call := func(via string, do func() error) {
				b.Run(fmt.Sprintf("call=%s/flight=%d/via=%s", c.name, inFlight, via), func(b *testing.B) {
					defer reportCPU(b)()
					b.SetBytes(int64(len(reqBytes) + len(respBytes)))
					inParallel(b, inFlight, do)
				})
			}
			call("echo", func() error { return invokeRaw(echo, reqBytes) })
			call("gRPC", func() error { return invokeRaw(ts.Conn, reqBytes) })
			call("REST", func() error { return postJSON(rest, ts.URL+"/v1/games/"+c.req.GetGame()+":apply", json) })
		}
	}
}

// BenchmarkEchoRatio measures the ratios BenchmarkEcho's figures are compared by, each taken within every one of b.N
// rounds so that a machine whose load changes during a run weighs on both sides of a ratio alike. For each call, a
// round sends a batch of ratioBatch calls, 16 in flight, to the echo, then to the server over gRPC, then over REST,
// and takes the process's CPU time of each batch; a round of call=exploze-32x32÷6x6 sends the 32 x 32 token call
// then the 6 x 6 one over gRPC. Every other round takes the sides in the opposite order, so that what one batch
// leaves to the next (garbage collected during it) falls on each side alike. It reports each side's CPU time per call (summed over the rounds) and their ratio:
// echo/gRPC and gRPC/REST, or 32x32/6x6.
//
//	go test -run '^$' -bench BenchmarkEchoRatio -benchtime 20x ./server
func BenchmarkEchoRatio(b *testing.B) {
	ts := start(b, setup{cfg: benchConfig(), log: discardLogger(zapcore.InfoLevel)})
	rest := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	b.Cleanup(rest.CloseIdleConnections)
	grpcCalls := map[string]func() error{}
	for _, c := range echoCalls(b, ts) {
		reqBytes, json, respBytes := encodeEchoCall(b, ts, c)
		echo := startEcho(b, respBytes)
		grpcCalls[c.name] = func() error { return invokeRaw(ts.Conn, reqBytes) }
		b.Run("call="+c.name, func(b *testing.B) {
			reportRatios(b, []ratioSide{
				{"echo", func() error { return invokeRaw(echo, reqBytes) }},
				{"gRPC", grpcCalls[c.name]},
				{"REST", func() error { return postJSON(rest, ts.URL+"/v1/games/"+c.req.GetGame()+":apply", json) }},
			})
		})
	}
	b.Run("call=exploze-32x32÷6x6", func(b *testing.B) {
		reportRatios(b, []ratioSide{{"32x32", grpcCalls["exploze-32x32-token"]}, {"6x6", grpcCalls["exploze-6x6-token"]}})
	})
}

// ratioBatch is the number of calls of each side in a round of BenchmarkEchoRatio: enough that the collection of
// one batch's garbage, which may run during the next, is a small part of either.
const ratioBatch = 2000

// ratioSide is one side of a ratio BenchmarkEchoRatio reports: a name and its call.
type ratioSide struct {
	name string
	call func() error
}

// reportRatios runs b.N rounds, each a batch of every side's call in turn (in the opposite order every other round),
// and reports each side's CPU time per call and the ratio of each side's to the next one's.
func reportRatios(b *testing.B, sides []ratioSide) {
	cpu := make([]time.Duration, len(sides))
	for round := 0; b.Loop(); round++ {
		for k := range sides {
			i := k
			if round%2 == 1 {
				i = len(sides) - 1 - k
			}
			start := processCPU(b)
			if err := inBatch(ratioBatch, 16, sides[i].call); err != nil {
				b.Fatal(err)
			}
			cpu[i] += processCPU(b) - start
		}
	}
	for i, side := range sides {
		b.ReportMetric(float64(cpu[i])/float64(b.N*ratioBatch), side.name+"-cpu-ns/call")
		if i+1 < len(sides) {
			b.ReportMetric(float64(cpu[i])/float64(cpu[i+1]), side.name+"/"+sides[i+1].name)
		}
	}
}

// inBatch makes n calls of do, inFlight at a time, and returns the first error.
func inBatch(n, inFlight int, do func() error) error {
	errs := make(chan error, inFlight)
	for w := range inFlight {
		go func() {
			var err error
			for i := w; i < n && err == nil; i += inFlight {
				err = do()
			}
			errs <- err
		}()
	}
	var first error
	for range inFlight {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// encodeEchoCall returns c's request encoded for gRPC and as JSON for REST, and the answer the server gives it over
// gRPC, which the echo of c answers.
func encodeEchoCall(b *testing.B, ts *testServer, c echoCall) (reqBytes, json, respBytes []byte) {
	reqBytes, err := proto.Marshal(c.req)
	if err != nil {
		b.Fatal(err)
	}
	if json, err = protojson.Marshal(c.req); err != nil {
		b.Fatal(err)
	}
	if err := ts.Conn.Invoke(context.Background(), applyMoveMethod, &reqBytes, &respBytes, grpc.ForceCodecV2(rawCodec{})); err != nil {
		b.Fatalf("%s: %v", c.name, err)
	}
	return reqBytes, json, respBytes
}

// echoCall is an ApplyMove request that BenchmarkEcho sends.
type echoCall struct {
	name string
	req  *rulebookv1.ApplyMoveRequest
}

// echoCalls are the calls BenchmarkEcho measures: an Exploze opening on 6 x 6 held as a token and as a plain state,
// the same on 32 x 32 as a token, and a mid-game Micropul move (20 plies in) held as a token.
func echoCalls(b *testing.B, ts *testServer) []echoCall {
	ctx := servertest.CallContext(b)
	sealed := func(game string, options *rulebookv1.GameOptions) *rulebookv1.NewGameResponse {
		return servertest.Succeeded(ts.RPC.NewGame(ctx, &rulebookv1.NewGameRequest{Game: game, Options: options, Seal: true}))(b)
	}
	exploze6, exploze32 := sealed("exploze", servertest.ExplozeOptions(6, 6, 2)), sealed("exploze", servertest.ExplozeOptions(32, 32, 2))
	plain := servertest.Succeeded(ts.RPC.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze", Options: servertest.ExplozeOptions(6, 6, 2)}))(b)
	token := func(g *rulebookv1.NewGameResponse, move *rulebookv1.Move) *rulebookv1.ApplyMoveRequest {
		return &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: g.GetToken(), SeatPass: g.GetSeatPasses()[0], Move: move}
	}
	micropul, move := midGameMicropul(b, ts, 20)
	return []echoCall{
		{"exploze-6x6-token", token(exploze6, servertest.ExplozeMove(1))},
		{"exploze-6x6-plain", &rulebookv1.ApplyMoveRequest{Game: "exploze", State: plain.GetState(), Move: servertest.ExplozeMove(1)}},
		{"exploze-32x32-token", token(exploze32, servertest.ExplozeMove(1))},
		{"micropul-mid-token", &rulebookv1.ApplyMoveRequest{Game: "micropul", Token: micropul.GetToken(),
			SeatPass: micropul.GetSeatPasses()[move.GetPlayer()-1], Move: move}},
	}
}

// midGameMicropul plays plies seeded random legal moves of a two-player Micropul game and returns it sealed, with a
// legal move of the player to move.
func midGameMicropul(b *testing.B, ts *testServer, plies int) (*rulebookv1.ReplayResponse, *rulebookv1.Move) {
	ctx := servertest.CallContext(b)
	rng := rand.New(rand.NewPCG(1, 2))
	state := servertest.Succeeded(ts.RPC.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "micropul", Seed: proto.Uint64(7)}))(b).GetState()
	legal := func() *rulebookv1.Move {
		moves := servertest.Succeeded(ts.RPC.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: "micropul", State: state}))(b).GetMoves()
		if len(moves) == 0 {
			b.Fatal("no legal move")
		}
		return moves[rng.IntN(len(moves))]
	}
	for range plies {
		state = servertest.Succeeded(ts.RPC.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "micropul", State: state, Move: legal()}))(b).GetState()
	}
	move := legal()
	return servertest.Succeeded(ts.RPC.Replay(ctx, &rulebookv1.ReplayRequest{Game: "micropul", State: state, Seal: true}))(b), move
}

// benchConfig is rulebookd's default configuration (cmd/rulebookd's flags), with plain states accepted.
func benchConfig() Config {
	return Config{
		MaxMessageBytes:         1 << 20,
		CallTimeout:             10 * time.Second,
		ShutdownTimeout:         20 * time.Second,
		AcceptPlainStates:       true,
		MaxConcurrentCalls:      32,
		MaxHeavyCalls:           runtime.NumCPU(),
		MaxGRPCConnections:      256,
		MaxHTTPConnections:      1024,
		MaxStreamsPerConnection: 32,
		IdleTimeout:             5 * time.Minute,
		MaxConnectionAge:        30 * time.Minute,
		Metrics:                 true,
	}
}

// discardLogger returns a JSON logger at level, as rulebookd's in production, that writes to nothing.
func discardLogger(level zapcore.Level) *zap.Logger {
	return zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(io.Discard), level))
}

// inParallel runs do b.N times, from inFlight goroutines at once.
func inParallel(b *testing.B, inFlight int, do func() error) {
	if inFlight == 1 {
		for b.Loop() {
			if err := do(); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	b.SetParallelism((inFlight + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := do(); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// applyMoveMethod is the full name of RulesService's ApplyMove.
const applyMoveMethod = rulesServicePrefix + "ApplyMove"

// invokeRaw calls ApplyMove at conn with req, encoded already, and takes the answer without decoding it.
func invokeRaw(conn grpc.ClientConnInterface, req []byte) error {
	var resp []byte
	return conn.Invoke(context.Background(), applyMoveMethod, &req, &resp, grpc.ForceCodecV2(rawCodec{}))
}

// postJSON posts body to url and reads the whole answer, which must be 200.
func postJSON(c *http.Client, url string, body []byte) error {
	resp, err := c.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %s: %s", url, resp.Status)
	}
	return nil
}

// startEcho serves, on 127.0.0.1 until the benchmark ends, a bare grpc-go server (default options) whose ApplyMove
// answers any request with resp, and returns a connection to it.
func startEcho(b *testing.B, resp []byte) *grpc.ClientConn {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := grpc.NewServer(grpc.ForceServerCodecV2(rawCodec{}))
	srv.RegisterService(&grpc.ServiceDesc{
		ServiceName: rulebookv1grpc.RulesService_ServiceDesc.ServiceName,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{MethodName: "ApplyMove", Handler: func(_ any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			var req []byte
			if err := dec(&req); err != nil {
				return nil, err
			}
			return &resp, nil
		}}},
	}, struct{}{})
	go func() { _ = srv.Serve(l) }()
	b.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(l.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	return conn
}
