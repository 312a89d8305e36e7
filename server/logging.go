package server

import (
	"context"
	"strings"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/service/caller"
)

// callLog writes the one line of each gRPC call, once it is answered ("finished call"): its service, method, code,
// error, duration, peer, caller (if named) and deadline, at the level that level gives its error. It builds the line
// only if the logger writes that level, and takes no field apart before then: a line not written costs nothing but
// the clock.
type callLog struct {
	log   *zap.Logger
	level func(error) zapcore.Level
}

// Unary logs unary calls.
func (l callLog) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	start := time.Now()
	resp, err := handler(ctx, req)
	l.write(ctx, info.FullMethod, start, err)
	return resp, err
}

// Stream logs streaming calls.
func (l callLog) Stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	start := time.Now()
	err := handler(srv, ss)
	l.write(ss.Context(), info.FullMethod, start, err)
	return err
}

// write writes the line of the call of fullMethod ("/package.Service/Method") with context ctx, begun at start, that
// ended with err.
func (l callLog) write(ctx context.Context, fullMethod string, start time.Time, err error) {
	code := status.Code(err)
	ce := l.log.Check(l.level(err), "finished call")
	if ce == nil {
		return
	}
	service, method, _ := strings.Cut(strings.TrimPrefix(fullMethod, "/"), "/")
	fields := make([]zap.Field, 0, 8)
	fields = append(fields, zap.String("grpc.service", service), zap.String("grpc.method", method),
		zap.String("grpc.code", code.String()), zap.Float64("grpc.time_ms", float64(time.Since(start).Microseconds())/1000))
	if err != nil {
		fields = append(fields, zap.NamedError("grpc.error", err))
	}
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		fields = append(fields, zap.Stringer("peer.address", p.Addr))
	}
	if name := caller.Name(ctx); name != caller.Anonymous {
		fields = append(fields, zap.String("caller", bounded(name)))
	}
	if deadline, ok := ctx.Deadline(); ok {
		fields = append(fields, zap.Time("grpc.request.deadline", deadline))
	}
	ce.Write(fields...)
}

// callLevel is the level at which a call's line is logged: refusal.Classify's for its error (error for the server's
// own faults, warn for calls cut short by their deadline or by the server going away, info for the rest: answers and
// the callers' mistakes).
func callLevel(err error) zapcore.Level { return refusal.Classify(err).Level }

// debugLevel logs every call at debug level.
func debugLevel(error) zapcore.Level { return zapcore.DebugLevel }
