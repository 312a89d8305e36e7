// Package gateway serves RulesService as REST, through grpc-gateway, with GET /healthz from the gRPC health service
// and GET /openapi.json. grpc-gateway's router is the only one: it finds each request's call, or answers that there
// is none (404, or 405 with the methods the path takes). Every request is bounded: it has the call's deadline from its
// arrival, a call's body is read within that deadline, the size limit and the budget of request memory before
// anything decodes it, and it is decoded strictly (one object, no unknown field, the field at fault named). Every
// refusal, of a call or of a request that is not one (an unknown path, a wrong method, a path that is not UTF-8), is
// the JSON of a google.rpc.Status with a stable reason, and the HTTP status that refusal.Classify gives it.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/rulebook/rulebook/gen/openapi"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/internal/restjson"
	"github.com/rulebook/rulebook/server/admission"
)

// ReasonMalformedPath is the reason of a request whose path is not valid UTF-8 once unescaped, or cannot be read as a
// path at all (HTTP 400).
const ReasonMalformedPath = "MALFORMED_PATH"

// Options bound the requests the gateway takes.
type Options struct {
	// MaxBodyBytes is the longest request body; a longer one is refused with 413 and REQUEST_TOO_LARGE.
	MaxBodyBytes int
	// Budget is the memory of the requests in flight, which a body takes from as it arrives until its call is
	// answered.
	Budget *admission.Budget
	// ReadTime is how long a body may take to arrive once n of its bytes have (see Limits.ReadTime).
	ReadTime func(n int64) time.Duration
	// CallTimeout bounds a request from its arrival: reading its body and the call; a caller's shorter deadline
	// (grpc-timeout) wins.
	CallTimeout time.Duration
	// Log is where the gateway logs the failures that are its own (an answer of 500 and more), with their cause.
	Log *zap.Logger
	// Refused, if not nil, is told of each request the gateway refuses itself, before any call (of game, as its
	// path names it, and method, the RulesService method of its route, or ""), with the refusal.
	Refused func(game, method string, err error)
}

// Gateway is the HTTP handler of the REST API.
type Gateway struct {
	opts      Options
	mux       *runtime.ServeMux
	marshaler runtime.Marshaler
}

// New returns the REST API, whose calls go to rules in process (decoded from JSON, never encoded as protobuf), and
// whose /healthz asks health.
func New(ctx context.Context, rules rulebookv1grpc.RulesServiceServer, health healthpb.HealthClient, opts Options) (*Gateway, error) {
	g := &Gateway{opts: opts, marshaler: newBodyMarshaler(false)}
	g.mux = runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, g.marshaler),
		runtime.WithMarshalerOption(mimeUnpopulated, newBodyMarshaler(true)),
		runtime.WithErrorHandler(g.callError),
		runtime.WithRoutingErrorHandler(g.routingError),
		runtime.WithMiddlewares(g.routed),
		runtime.WithHealthzEndpoint(health),
		runtime.WithDisableHTTPMethodOverride(),
		runtime.WithDisablePathLengthFallback(), // a form POSTed to a GET route is not that GET
		runtime.WithWriteContentLength(),
		runtime.WithIncomingHeaderMatcher(noHeader),
	)
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		if err := g.mux.HandlePath(method, "/openapi.json", document); err != nil {
			return nil, fmt.Errorf("gateway: %w", err)
		}
	}
	if err := rulebookv1grpc.RegisterRulesServiceHandlerServer(ctx, g.mux, rules); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	return g, nil
}

// ServeHTTP serves a request through grpc-gateway's router, under the call's deadline.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !utf8.ValidString(r.URL.Path) {
		g.Refuse(w, r, malformedPath("the path is not valid UTF-8 once unescaped"))
		return
	}
	if wantsUnpopulated(r.Header.Values("Accept")) {
		r.Header.Set("Accept", mimeUnpopulated)
	}
	ctx, cancel := context.WithTimeout(r.Context(), g.opts.CallTimeout)
	defer cancel()
	g.mux.ServeHTTP(w, r.WithContext(ctx))
}

// routed is the gateway's middleware, which every request that the router matched to a handler goes through: it
// records the request's route (in the slot of WithRouteSlot), and that is all for a probe (see allowed). A POST's
// body is read when its call decodes it (requestBody), and the budget it holds given back once the call is answered.
// The middleware wraps each handler once, so that it finds its handler's route once.
func (g *Gateway) routed(next runtime.HandlerFunc) runtime.HandlerFunc {
	var once sync.Once
	var route string
	return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		once.Do(func() {
			pattern, _ := runtime.HTTPPattern(r.Context())
			route = strings.ReplaceAll(pattern.String(), "=*}", "}") // a variable's template: "{game}", not "{game=*}"
		})
		if slot, ok := r.Context().Value(routeKey{}).(*string); ok {
			*slot = route
		}
		if found, ok := r.Context().Value(probeKey{}).(*bool); ok {
			*found = true
			return
		}
		if r.Method == http.MethodPost {
			body := &requestBody{g: g, w: w, in: r.WithContext(r.Context()), game: params["game"]}
			defer body.free()
			r.Body = body
		}
		next(w, r, params)
	}
}

// routeKey is the context key of the slot in which the gateway records a request's route (WithRouteSlot).
type routeKey struct{}

// WithRouteSlot returns ctx with a slot in which the gateway, serving a request with ctx, records the request's route:
// the template of the path that its router matched, such as "/v1/games/{game}:apply" (for a method the path does not
// take too), else "other".
func WithRouteSlot(ctx context.Context) (context.Context, *string) {
	route := "other"
	return context.WithValue(ctx, routeKey{}, &route), &route
}

// checkContentType returns the refusal (415 UNSUPPORTED_MEDIA_TYPE) of r, a call's POST, if its Content-Type is not
// application/json (parameters such as charset aside), a missing one included; else nil. A browser sends a
// text/plain, form or multipart body to another site without asking it first (CORS's preflight), but never an
// application/json one.
func checkContentType(r *http.Request) error {
	if media, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && media == "application/json" {
		return nil
	}
	return refusal.New(codes.InvalidArgument, refusal.ReasonUnsupportedMediaType,
		"a REST call's body is JSON, with the header Content-Type: application/json", nil)
}

// noHeader is the gateway's matcher of the HTTP headers to pass to a call as gRPC metadata: none, since the service
// reads none (its calls are in process; a caller's deadline, grpc-timeout, is read from the headers all the same).
func noHeader(string) (string, bool) { return "", false }

// mimeUnpopulated is the media type of answers that list every field, unpopulated ones too (with their zero values:
// 0, "", false, [], null): asked for with "Accept: application/json; unpopulated=true". Other answers leave out the
// fields that are not set, as protobuf's JSON mapping does by default; a missing field has its zero value.
const mimeUnpopulated = "application/json; unpopulated=true"

// wantsUnpopulated reports whether the Accept headers of a request ask for every field: one of their media types is
// application/json with the parameter unpopulated=true.
func wantsUnpopulated(accept []string) bool {
	for _, header := range accept {
		for value := range strings.SplitSeq(header, ",") {
			media, params, err := mime.ParseMediaType(value)
			if err == nil && media == "application/json" && params["unpopulated"] == "true" {
				return true
			}
		}
	}
	return false
}

// document serves the OpenAPI document.
func document(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openapi.Document)
}

// routingError answers a request that the router found no handler for, with httpStatus: 404 for a path it does not
// serve, 405 (and Allow) for a method the path does not take, 400 for a path it cannot match. A probe's is not
// answered.
func (g *Gateway) routingError(ctx context.Context, _ *runtime.ServeMux, _ runtime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
	if _, probe := ctx.Value(probeKey{}).(*bool); probe {
		return
	}
	var err error
	switch httpStatus {
	case http.StatusMethodNotAllowed:
		w.Header().Set("Allow", strings.Join(g.allowed(r), ", "))
		method := restjson.Shorten(r.Method)
		err = refusal.New(codes.Unimplemented, refusal.ReasonMethodNotAllowed, method+" is not a method of "+
			restjson.Shorten(r.URL.Path)+"; the Allow header lists its methods", map[string]string{"method": method})
	case http.StatusNotFound:
		err = refusal.New(codes.NotFound, refusal.ReasonUnknownPath, "no call at "+restjson.Shorten(r.URL.Path)+
			"; GET /openapi.json lists them", nil)
	default:
		err = malformedPath("the path cannot be read")
	}
	g.Refuse(w, r, err)
}

// probeKey is the context key of a probe: a request that the router routes only to learn whether it has a handler
// for it, which the handler does not serve (see routed).
type probeKey struct{}

// probedMethods are the methods that allowed tries: those of the gateway's handlers (GET, HEAD, POST), and the
// others an API takes.
var probedMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// allowed returns the methods that the path of r, refused for its method, takes: those of probedMethods for which the
// router, routing r as a probe, finds a handler.
func (g *Gateway) allowed(r *http.Request) []string {
	var allow []string
	for _, method := range probedMethods {
		found := false
		probe := r.WithContext(context.WithValue(r.Context(), probeKey{}, &found))
		probe.Method = method
		g.mux.ServeHTTP(discard{}, probe)
		if found {
			allow = append(allow, method)
		}
	}
	return allow
}

// discard is the ResponseWriter of a probe, which nothing answers.
type discard struct{}

// Header returns a header that no one reads.
func (discard) Header() http.Header { return http.Header{} }

// Write writes nothing.
func (discard) Write(b []byte) (int, error) { return len(b), nil }

// WriteHeader writes nothing.
func (discard) WriteHeader(int) {}

// malformedPath is the refusal (400 MALFORMED_PATH) of a path, for the reason why.
func malformedPath(why string) error {
	return refusal.New(codes.InvalidArgument, ReasonMalformedPath, why, nil)
}

// Refuse answers r, which calls nothing, with err, as the gateway answers a call's error, and tells Refused.
func (g *Gateway) Refuse(w http.ResponseWriter, r *http.Request, err error) {
	g.refused("", "", err)
	runtime.HTTPError(r.Context(), g.mux, g.marshaler, w, r, err) // callError answers it
}

// refused tells Refused, if set, of a request of game and method refused with err.
func (g *Gateway) refused(game, method string, err error) {
	if g.opts.Refused != nil {
		g.opts.Refused(game, method, err)
	}
}

// callError answers a call's error, or a refusal of a request that calls nothing, with the HTTP status that
// refusal.Classify gives it, except that a body that could not be read or decoded is answered (and counted) with the
// refusal its requestBody kept, and a path that the router could not unescape with MALFORMED_PATH. It logs an error
// of the server's own (refusal.Classify's level error) with its cause: a client's mistake is never one.
func (g *Gateway) callError(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	var unescapable *runtime.HTTPStatusError
	if body, ok := r.Body.(*requestBody); ok && body.refusal != nil {
		err = body.refusal
		method, _ := runtime.RPCMethod(ctx) // "/rulebook.v1.RulesService/ApplyMove"
		g.refused(body.game, method[strings.LastIndexByte(method, '/')+1:], err)
	} else if errors.As(err, &unescapable) {
		err = malformedPath("the path cannot be unescaped")
		g.refused("", "", err)
	}
	class := refusal.Classify(err)
	if class.Level >= zapcore.ErrorLevel {
		g.opts.Log.Error("REST call failed", zap.String("path", restjson.Shorten(r.URL.Path)), zap.Int("status", class.HTTPStatus),
			zap.Error(err))
	}
	runtime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, &runtime.HTTPStatusError{HTTPStatus: class.HTTPStatus, Err: err})
}
