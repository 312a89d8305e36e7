package server

import (
	"context"
	"maps"
	"net/http"
	"slices"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/stats"

	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/identity"
	"github.com/rulebook/rulebook/server/metrics"
	"github.com/rulebook/rulebook/service/caller"
)

// callerAttribute is the attribute of a call's span that names its caller.
const callerAttribute = "rulebook.caller"

// callers names each call's caller and decides what it may do: whether it is served at all (a key nobody holds, or
// no name where one is required, is refused UNAUTHENTICATED), and within what share of the calls. It counts each
// call by caller.
type callers struct {
	id      *identity.Identifier
	require bool
	limit   *admission.CallerLimit
	metrics *metrics.Metrics
}

// newCallers returns the callers of cfg, counted in m.
func newCallers(cfg Config, m *metrics.Metrics) callers {
	m.NameCallers(cfg.callerNames())
	return callers{id: identity.NewIdentifier(cfg.APIKeys), require: cfg.RequireCaller,
		limit: admission.NewCallerLimit(cfg.CallerMaxCalls, m.Limits()), metrics: m}
}

// callerNames returns the callers that cfg names: those of the API keys, the plain-state callers and the callers
// with a share of the calls.
func (c Config) callerNames() []string {
	var names []string
	if c.APIKeys != nil {
		names = c.APIKeys.Names()
	}
	names = append(names, c.PlainStateCallers...)
	names = append(names, slices.Collect(maps.Keys(c.CallerMaxCalls))...)
	return names
}

// identified returns r with its caller in its context, for the access log and the call it makes.
func (c callers) identified(r *http.Request) *http.Request {
	return r.WithContext(caller.NewContext(r.Context(), c.id.HTTP(r)))
}

// Intercept serves a RulesService call if its caller may make it (see callers), within the caller's share, naming
// the caller in the call's span.
func (c callers) Intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	who, _ := caller.FromContext(ctx)
	if who.Name != caller.Anonymous {
		trace.SpanFromContext(ctx).SetAttributes(attribute.String(callerAttribute, who.Name))
	}
	err := who.Err
	if err == nil && c.require && who.Name == caller.Anonymous {
		err = identity.CallerRequired
	}
	var resp any
	if err == nil {
		resp, err = c.limit.Intercept(ctx, req, info, handler)
	}
	c.metrics.CallAnswered(who.Name, err)
	return resp, err
}

// tagger returns the stats handler that records each gRPC call's caller in its context before any interceptor runs
// (unless the HTTP listener has, for a Connect or gRPC-Web call).
func (c callers) tagger() stats.Handler { return tagger{c.id} }

// tagger is the stats handler of callers.tagger.
type tagger struct{ id *identity.Identifier }

// TagRPC records the call's caller in ctx.
func (t tagger) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context {
	if _, ok := caller.FromContext(ctx); ok {
		return ctx
	}
	return caller.NewContext(ctx, t.id.GRPC(ctx))
}

// HandleRPC does nothing.
func (tagger) HandleRPC(context.Context, stats.RPCStats) {}

// TagConn returns ctx.
func (tagger) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }

// HandleConn does nothing.
func (tagger) HandleConn(context.Context, stats.ConnStats) {}
