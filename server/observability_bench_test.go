package server

import (
	"context"
	"io"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/protobuf/encoding/protojson"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/server/tracing"
)

// BenchmarkObservability measures what the call logs, the metrics and tracing cost a server: ApplyMove of an
// Exploze opening held as a token, 16 calls in flight, over gRPC and over REST, on a server without any of them
// (the baseline, in the same run), with each alone, and with all three. Logs are JSON at info level, written to
// nothing; traces are sampled and exported to nothing. Besides the time per call it reports cpu-ns/op, the CPU
// time of the process (client and server) per call, which a busy machine disturbs less.
func BenchmarkObservability(b *testing.B) {
	discard := func(level zapcore.Level) *zap.Logger {
		return zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(io.Discard), level))
	}
	traced := func() *tracing.Tracing {
		provider := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		b.Cleanup(func() { _ = provider.Shutdown(context.Background()) })
		return &tracing.Tracing{Provider: provider, Propagator: propagation.TraceContext{}}
	}
	configs := []struct {
		name                   string
		logs, metrics, tracing bool
	}{
		{"none", false, false, false},
		{"logs", true, false, false},
		{"metrics", false, true, false},
		{"tracing", false, false, true},
		{"all", true, true, true},
	}
	for _, c := range configs {
		cfg := testConfig()
		cfg.AcceptPlainStates = false
		cfg.Metrics = c.metrics
		if c.tracing {
			cfg.Tracing = traced()
		}
		log := discard(zapcore.WarnLevel) // no call lines
		if c.logs {
			log = discard(zapcore.InfoLevel)
		}
		ts := start(b, setup{cfg: cfg, log: log})
		game := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(b), &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}))(b)
		req := &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: game.GetToken(), SeatPass: game.GetSeatPasses()[0],
			Move: servertest.ExplozeMove(1)}
		body, err := protojson.Marshal(req)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("gRPC/"+c.name, func(b *testing.B) {
			defer reportCPU(b)()
			b.SetParallelism(8) // 16 calls in flight on 2 CPUs
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					if _, err := ts.RPC.ApplyMove(ctx, req); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
		b.Run("REST/"+c.name, func(b *testing.B) {
			defer reportCPU(b)()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if code, out := ts.Post(b, "/v1/games/exploze:apply", string(body)); code != 200 {
						b.Errorf("%d %s", code, out)
						return
					}
				}
			})
		})
	}
}

// reportCPU returns a function that reports, as cpu-ns/op, the CPU time the process spent per iteration of b since
// reportCPU was called.
func reportCPU(b *testing.B) func() {
	start := processCPU(b)
	return func() { b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op") }
}

// processCPU returns the CPU time the process has spent so far, user and system.
func processCPU(tb testing.TB) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
