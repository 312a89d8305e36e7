package server

import (
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/proto"

	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/admission"
)

// rulesServicePrefix starts the full name of every RulesService method.
const rulesServicePrefix = "/rulebook.v1.RulesService/"

// Flow control, keepalive and handshake settings of the gRPC server.
const (
	// streamWindowBytes is what a client may send on a stream before the server reads it: a stream that is refused,
	// or not read yet, holds at most that much (grpc-go opens the window to a message's length when it reads the
	// message). The windows stay fixed, rather than grow with the connection's bandwidth-delay product.
	streamWindowBytes = 64 << 10
	// connWindowBytes is what a client may have sent on a connection that the server has not acknowledged yet.
	connWindowBytes = 1 << 20
	// handshakeTimeout bounds how long a new connection may take to start HTTP/2: a connection holds one of the
	// listener's places from the moment it is accepted.
	handshakeTimeout = 10 * time.Second
	// keepaliveTime is how long a connection may be silent before the server pings it, and keepaliveTimeout how long
	// the server then waits for the answer before it closes the connection: a client that vanished without closing
	// its connection frees its place within a few minutes.
	keepaliveTime, keepaliveTimeout = 2 * time.Minute, 20 * time.Second
	// minPingInterval is the most often a client may ping; one that pings more often is told GOAWAY
	// (ENHANCE_YOUR_CALM) and its connection closed. Clients may ping without calls open.
	minPingInterval = 10 * time.Second
)

// newGRPCServer returns the gRPC server of rules, health and reflection.
//
// Capacity is taken by work, never by waiting: a RulesService call is served as a stream handler (which is how
// grpc-go itself serves a unary method) that first reads its request within the read deadline (readRequest), then
// weighs it against the budget of request bytes and decodes it, and only then meets the limiter of the calls served
// at once (limit, which REST calls share): a stream whose request has not arrived holds nothing but its own place
// among its connection's streams. The call log, the metrics and guard see every call, one whose request never came
// too. Every
// RulesService call gets its deadline when its stream opens, so that it also bounds the wait for the request.
// Connections are closed once idle or old (with GOAWAY), and pinged when silent; a client may open only so many
// streams on one.
func (s *Server) newGRPCServer(rules rulebookv1grpc.RulesServiceServer, guard, limit grpc.UnaryServerInterceptor) *grpc.Server {
	calls, health := callLog{s.log, callLevel}, callLog{s.log, debugLevel}
	recoverer := recovery.WithRecoveryHandler(s.recovered)
	opts := []grpc.ServerOption{
		grpc.ForceServerCodecV2(newCodec()),
		grpc.MaxRecvMsgSize(s.cfg.MaxMessageBytes),
		grpc.InTapHandle(s.callDeadline),
		grpc.MaxConcurrentStreams(s.cfg.MaxStreamsPerConnection),
		grpc.StaticStreamWindowSize(streamWindowBytes),
		grpc.StaticConnWindowSize(connWindowBytes),
		grpc.ConnectionTimeout(handshakeTimeout),
		grpc.KeepaliveParams(keepalive.ServerParameters{
			MaxConnectionIdle:     s.cfg.IdleTimeout,
			MaxConnectionAge:      s.cfg.MaxConnectionAge,
			MaxConnectionAgeGrace: s.cfg.CallTimeout, // the calls still open get their whole time
			Time:                  keepaliveTime,
			Timeout:               keepaliveTimeout,
		}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: minPingInterval, PermitWithoutStream: true}),
		grpc.SharedWriteBuffer(true),
		grpc.StatsHandler(s.callers.tagger()), // each call's caller, before the call log and the interceptors
		// As many goroutines as calls may be served at once serve the streams, each keeping the stack it has grown
		// (a call beyond them, which the limiter refuses, gets a goroutine of its own).
		grpc.NumStreamWorkers(uint32(s.cfg.MaxConcurrentCalls)),
		// Health checks (the kubelet's probes) are logged at debug level, reflection as calls are.
		grpc.ChainUnaryInterceptor(
			health.Unary,
			s.metrics.UnaryServerInterceptor(),
			recovery.UnaryServerInterceptor(recoverer),
		),
		// RulesService's methods are streams to grpc (see readFirst) with interceptors of their own.
		grpc.ChainStreamInterceptor(
			exceptRules(calls.Stream),
			exceptRules(s.metrics.StreamServerInterceptor()),
			exceptRules(recovery.StreamServerInterceptor(recoverer)),
		),
	}
	if s.tls != nil {
		// The peer of each call is then a credentials.TLSInfo, with the client's verified certificate under mutual TLS.
		opts = append(opts, grpc.Creds(credentials.NewTLS(s.tls.ServerConfig(true, "h2"))))
	}
	if t := s.cfg.Tracing; t != nil {
		opts = append(opts, grpc.StatsHandler(otelgrpc.NewServerHandler(otelgrpc.WithTracerProvider(t.Provider),
			otelgrpc.WithPropagators(t.Propagator))))
	}
	srv := grpc.NewServer(opts...)
	srv.RegisterService(s.readFirst(&rulebookv1grpc.RulesService_ServiceDesc,
		chainUnary(calls.Unary, s.metrics.UnaryServerInterceptor(), guard), limit), rules)
	healthpb.RegisterHealthServer(srv, s.health)
	reflection.Register(srv)
	s.metrics.InitializeMetrics(unaryRules{srv})
	return srv
}

// exceptRules returns interceptor for the streams of every service but RulesService, whose methods unaryStream
// serves through interceptors of their own.
func exceptRules(interceptor grpc.StreamServerInterceptor) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if strings.HasPrefix(info.FullMethod, rulesServicePrefix) {
			return handler(srv, ss)
		}
		return interceptor(srv, ss, info, handler)
	}
}

// unaryRules describes the services of a gRPC server with RulesService's methods unary, as its clients call them
// and as its metrics count them (grpc serves them as client streams: see readFirst).
type unaryRules struct{ srv *grpc.Server }

// GetServiceInfo returns the server's services, RulesService's methods unary.
func (u unaryRules) GetServiceInfo() map[string]grpc.ServiceInfo {
	info := u.srv.GetServiceInfo()
	rules := info[rulebookv1grpc.RulesService_ServiceDesc.ServiceName]
	rules.Methods = slices.Clone(rules.Methods)
	for i := range rules.Methods {
		rules.Methods[i].IsClientStream = false
	}
	info[rulebookv1grpc.RulesService_ServiceDesc.ServiceName] = rules
	return info
}

// admission returns what every RulesService call, gRPC or REST, goes through: guard, outermost, the count of its
// refusals and panic recovery, around all of the call, its request's reading and decoding too; and limit, which a
// call meets once its request is in: its caller's rights and share (callers), and the limiter of the calls served
// at once.
func (s *Server) admission() (guard, limit grpc.UnaryServerInterceptor) {
	limiter := admission.NewLimiter(s.cfg.MaxConcurrentCalls, s.cfg.MaxHeavyCalls, s.metrics.Limits())
	s.metrics.WatchCalls(limiter.InUse, limiter.Capacity)
	return chainUnary(s.countRefusals, recovery.UnaryServerInterceptor(recovery.WithRecoveryHandler(s.recovered))),
		chainUnary(s.callers.Intercept, limiter.Intercept)
}

// callKey is the context key of a RulesService call's callInfo.
type callKey struct{}

// callInfo is what a RulesService call's interceptors learn of it once its request is decoded.
type callInfo struct {
	game string // the game the request names
}

// countRefusals counts, in the metrics, a RulesService call that fails: by game (once known), method and reason.
func (s *Server) countRefusals(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	if err != nil {
		var game string
		if call, ok := ctx.Value(callKey{}).(*callInfo); ok {
			game = call.game
		}
		s.metrics.CallRefused(game, strings.TrimPrefix(info.FullMethod, rulesServicePrefix), err)
	}
	return resp, err
}

// callDeadline gives a RulesService call its deadline, the call timeout, from the moment its stream opens (before
// its request arrives); a caller's shorter deadline still wins. It is the server's tap: grpc runs it on the
// connection's reader as each stream opens.
func (s *Server) callDeadline(ctx context.Context, info *tap.Info) (context.Context, error) {
	if !strings.HasPrefix(info.FullMethodName, rulesServicePrefix) {
		return ctx, nil
	}
	bounded, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	context.AfterFunc(ctx, cancel) // the stream's own context ends with the stream
	return bounded, nil
}

// readFirst returns desc with every unary method served as a stream handler that reads, weighs and decodes the
// request first, and then serves it through admit; observe runs around both (see unaryStream). Each is a client
// stream to grpc, so that grpc leaves a request that is missing, or is more than one message, to readRequest, which
// answers the caller's mistake as the caller's. grpc-go offers no way to do this without rewriting the description
// (docs/architecture.md, "gRPC admission"): it reads a unary method's request inside the generated handler, before
// any interceptor, within the whole call's deadline only, and itself answers INTERNAL for a request that is missing,
// doubled or cut short, or that its codec refuses.
func (s *Server) readFirst(desc *grpc.ServiceDesc, observe, admit grpc.UnaryServerInterceptor) *grpc.ServiceDesc {
	d := *desc
	d.Methods = nil
	d.Streams = slices.Clone(desc.Streams)
	for _, m := range desc.Methods {
		d.Streams = append(d.Streams, grpc.StreamDesc{
			StreamName:    m.MethodName,
			Handler:       s.unaryStream("/"+desc.ServiceName+"/"+m.MethodName, m.Handler, observe, admit),
			ClientStreams: true,
		})
	}
	return &d
}

// unaryStream serves the unary method whose handler is method, named fullMethod, as a stream handler: observe (the
// call log and the metrics, which see every call) around the request read and decoded (readRequest, then
// decodeRequest), then admit and the method, and its answer. The method's generated handler decodes the request
// before it calls admit, so a call takes a call slot only once its request is whole. The request's share of the
// budget is given back once the method has answered.
func (s *Server) unaryStream(fullMethod string, method grpc.MethodHandler, observe, admit grpc.UnaryServerInterceptor) grpc.StreamHandler {
	return func(srv any, stream grpc.ServerStream) error {
		call := &callInfo{}
		info := &grpc.UnaryServerInfo{Server: srv, FullMethod: fullMethod}
		serve := func(ctx context.Context, _ any) (any, error) {
			var release func()
			defer func() {
				if release != nil {
					release()
				}
			}()
			return method(srv, ctx, func(req any) error {
				raw, err := s.readRequest(stream)
				if err != nil {
					return err
				}
				release, err = decodeRequest(raw, req.(proto.Message), s.budget)
				if r, ok := req.(interface{ GetGame() string }); ok && err == nil {
					call.game = r.GetGame()
				}
				return err
			}, admit)
		}
		ctx := context.WithValue(stream.Context(), callKey{}, call)
		resp, err := observe(ctx, nil, info, serve)
		if err != nil {
			return err
		}
		return stream.SendMsg(resp)
	}
}

// readRequest reads the request of stream within its read deadline: the read time of the largest request
// (Config.readTime), from now. The stream must hold one message and end: one that ends without a message, or holds
// more than one, is refused with MALFORMED_MESSAGE. A request that is not in by the deadline is refused with
// REQUEST_TIMEOUT; the handler then returns, which ends the stream and the read. (It reads on a goroutine of its own:
// grpc answers a read that its context cuts short itself, with the context's error, before the handler could give
// its reason.)
func (s *Server) readRequest(stream grpc.ServerStream) (rawRequest, error) {
	type read struct {
		raw rawRequest
		err error
	}
	done := make(chan read, 1)
	go func() {
		raw, err := readOne(stream)
		done <- read{raw, err}
	}()
	timer := time.NewTimer(s.cfg.readTime(int64(s.cfg.MaxMessageBytes)))
	defer timer.Stop()
	select {
	case r := <-done:
		return r.raw, r.err
	case <-timer.C:
		go func() { // a request that comes after all is dropped
			if r := <-done; r.raw.buf != nil {
				r.raw.buf.Free()
			}
		}()
		return rawRequest{}, refusal.New(codes.DeadlineExceeded, refusal.ReasonRequestTimeout, "the request did not arrive in "+
			"time (at the server's minimum rate, and before the call's deadline)", nil)
	}
}

// readOne reads the one message of stream, and the end of the stream after it.
func readOne(stream grpc.ServerStream) (rawRequest, error) {
	var raw rawRequest
	switch err := stream.RecvMsg(&raw); {
	case err == io.EOF:
		return raw, malformedStream("the stream ended before its request")
	case err != nil:
		return raw, recvError(err)
	}
	var more rawRequest
	switch err := stream.RecvMsg(&more); {
	case err == io.EOF:
		return raw, nil
	case err == nil:
		more.buf.Free()
		err = malformedStream("the stream holds more than one request")
		fallthrough
	default:
		raw.buf.Free()
		return rawRequest{}, recvError(err)
	}
}

// chainUnary returns interceptors as one, the first outermost, as grpc.ChainUnaryInterceptor chains a server's.
func chainUnary(interceptors ...grpc.UnaryServerInterceptor) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		for i := len(interceptors) - 1; i >= 0; i-- {
			next, interceptor := handler, interceptors[i]
			handler = func(ctx context.Context, req any) (any, error) { return interceptor(ctx, req, info, next) }
		}
		return handler(ctx, req)
	}
}

// newHealth returns the health service, reporting RulesService as serving.
func newHealth() *health.Server {
	h := health.NewServer()
	h.SetServingStatus(rulebookv1grpc.RulesService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	return h
}
