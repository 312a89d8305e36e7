// Package gateway serves RulesService as REST, through grpc-gateway, with GET /healthz from the gRPC health service
// and GET /openapi.json. Every request is bounded: it has the call's deadline from its arrival, a body is read within
// that deadline, the size limit and the budget of request memory before anything decodes it, and it is decoded
// strictly (one object, no unknown field, the field at fault named). Every refusal, of a call or of a request that is
// not one (an unknown path, a wrong method, a path that is not UTF-8), is the JSON of a google.rpc.Status with a
// stable reason.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/gen/openapi"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/gateway/restjson"
	"github.com/rulebook/rulebook/service/refusal"
)

// Reasons of the gateway's refusals of a request that calls nothing.
const (
	// ReasonUnknownPath: no REST call is at the path (HTTP 404); GET /openapi.json lists them.
	ReasonUnknownPath = "UNKNOWN_PATH"
	// ReasonMethodNotAllowed: the path takes another method (HTTP 405), which the Allow header names.
	ReasonMethodNotAllowed = "METHOD_NOT_ALLOWED"
	// ReasonMalformedPath: the path is not valid UTF-8 once unescaped, or is not a path at all (HTTP 400).
	ReasonMalformedPath = "MALFORMED_PATH"
	// ReasonUnsupportedMediaType: a call's request is of a content type the server does not take (HTTP 415): a REST
	// call's is not application/json, a call over Connect, gRPC-Web or gRPC is of none of their types.
	ReasonUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
)

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
	routes    routes
}

// New returns the REST API, whose calls go to rules in process (decoded from JSON, never encoded as protobuf), and
// whose /healthz asks health.
func New(ctx context.Context, rules rulebookv1grpc.RulesServiceServer, health healthpb.HealthClient, opts Options) (*Gateway, error) {
	rs, err := newRoutes(openapi.Document, map[string]map[string]string{"/healthz": {http.MethodGet: ""}, "/openapi.json": {http.MethodGet: ""}})
	if err != nil {
		return nil, err
	}
	g := &Gateway{opts: opts, routes: rs, marshaler: newBodyMarshaler(false)}
	g.mux = runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, g.marshaler),
		runtime.WithMarshalerOption(mimeUnpopulated, newBodyMarshaler(true)),
		runtime.WithErrorHandler(g.callError),
		runtime.WithRoutingErrorHandler(g.routingError),
		runtime.WithHealthzEndpoint(health),
		runtime.WithDisableHTTPMethodOverride(),
		runtime.WithWriteContentLength(),
		runtime.WithIncomingHeaderMatcher(noHeader),
	)
	if err := rulebookv1grpc.RegisterRulesServiceHandlerServer(ctx, g.mux, rules); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	return g, nil
}

// ServeHTTP serves a request: the OpenAPI document, or a call through grpc-gateway under the call's deadline, its
// body read first.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !utf8.ValidString(r.URL.Path) || !strings.HasPrefix(r.URL.Path, "/") {
		g.Refuse(w, r, refusal.New(codes.InvalidArgument, ReasonMalformedPath, "the path is not valid UTF-8 once unescaped", nil))
		return
	}
	if r.URL.Path == "/openapi.json" {
		g.document(w, r)
		return
	}
	if wantsUnpopulated(r.Header.Values("Accept")) {
		r.Header.Set("Accept", mimeUnpopulated)
	}
	ctx, cancel := context.WithTimeout(r.Context(), g.opts.CallTimeout)
	defer cancel()
	r = r.WithContext(ctx)
	if r.Method == http.MethodPost {
		if err := g.checkContentType(r); err != nil {
			w.Header().Set("Connection", "close") // the body is never read
			g.Refuse(w, r, err)
			return
		}
		body, release, ok := g.readBody(w, r)
		if !ok {
			return
		}
		defer release()
		r.Body, r.ContentLength = newRequestBody(body), int64(len(body))
	}
	g.mux.ServeHTTP(w, r)
}

// checkContentType returns the refusal (415 UNSUPPORTED_MEDIA_TYPE) of r, a POST, if its path has a call that takes
// POST and its Content-Type is not application/json (parameters such as charset aside), a missing one included; else
// nil. A browser sends a text/plain, form or multipart body to another site without asking it first (CORS's
// preflight), but never an application/json one.
func (g *Gateway) checkContentType(r *http.Request) error {
	_, methods := g.routes.match(r.URL.Path)
	if _, call := methods[http.MethodPost]; !call {
		return nil // routing refuses it
	}
	if media, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && media == "application/json" {
		return nil
	}
	return refusal.New(codes.InvalidArgument, ReasonUnsupportedMediaType,
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

// OtherRoute is the route of a request on none of the gateway's paths.
const OtherRoute = "other"

// Route returns the template of the route that r is on, such as "/v1/games/{game}:apply", or OtherRoute.
func (g *Gateway) Route(r *http.Request) string {
	if route, _ := g.routes.match(r.URL.Path); route != "" {
		return route
	}
	return OtherRoute
}

// Routes returns every route that Route returns, in order: the templates of the gateway's paths, and OtherRoute.
func (g *Gateway) Routes() []string {
	templates := make([]string, 0, len(g.routes)+1)
	for _, r := range g.routes {
		templates = append(templates, r.template)
	}
	return append(templates, OtherRoute)
}

// document serves the OpenAPI document to GET (and HEAD).
func (g *Gateway) document(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		g.routingError(r.Context(), g.mux, g.marshaler, w, r, http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openapi.Document)
}

// routingError answers a request that the gateway has no call for, with httpStatus: 404 for a path it does not
// serve, 405 (and Allow) for a method the path does not take, 400 for a path it cannot match.
func (g *Gateway) routingError(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
	var err error
	switch httpStatus {
	case http.StatusMethodNotAllowed:
		g.routes.allow(w, r.URL.Path)
		method := restjson.Shorten(r.Method)
		err = refusal.New(codes.Unimplemented, ReasonMethodNotAllowed, method+" is not a method of "+
			restjson.Shorten(r.URL.Path)+"; the Allow header lists its methods", map[string]string{"method": method})
	case http.StatusNotFound:
		err = refusal.New(codes.NotFound, ReasonUnknownPath, "no call at "+restjson.Shorten(r.URL.Path)+"; GET /openapi.json lists them", nil)
	default:
		err = refusal.New(codes.InvalidArgument, ReasonMalformedPath, "the path cannot be read", nil)
	}
	g.Refuse(w, r, err)
}

// Refuse answers r, which calls nothing, with err, as the gateway answers a call's error, and tells Refused.
func (g *Gateway) Refuse(w http.ResponseWriter, r *http.Request, err error) {
	if g.opts.Refused != nil {
		game, method := g.callOf(r)
		g.opts.Refused(game, method, err)
	}
	runtime.HTTPError(r.Context(), g.mux, g.marshaler, w, r, err) // callError answers it
}

// withHTTPStatus returns err, a refusal, with the HTTP status of its reason when the reason says more than its gRPC
// code (from which grpc-gateway takes the status otherwise): 413 REQUEST_TOO_LARGE, 408 REQUEST_TIMEOUT, 405
// METHOD_NOT_ALLOWED, 415 UNSUPPORTED_MEDIA_TYPE.
func withHTTPStatus(err error) error {
	var code int
	switch refusal.Reason(err) {
	case ReasonRequestTooLarge:
		code = http.StatusRequestEntityTooLarge
	case ReasonRequestTimeout:
		code = http.StatusRequestTimeout
	case ReasonMethodNotAllowed:
		code = http.StatusMethodNotAllowed
	case ReasonUnsupportedMediaType:
		code = http.StatusUnsupportedMediaType
	default:
		return err
	}
	return &runtime.HTTPStatusError{HTTPStatus: code, Err: err}
}

// callOf returns the game that r's path names (as the path has it, "" for none) and the RulesService method of its
// route ("" for none).
func (g *Gateway) callOf(r *http.Request) (game, method string) {
	route, methods := g.routes.match(r.URL.Path)
	if strings.Contains(route, "{game}") {
		segments := strings.Split(r.URL.Path, "/")
		game, _, _ = strings.Cut(segments[3], ":") // "/v1/games/{game}:verb"
	}
	return game, methods[r.Method]
}

// callError answers a call's error, or a refusal of a request that calls nothing, as the gateway does (with the HTTP
// status of its reason, withHTTPStatus), except that a body that could not be decoded is answered with the refusal
// its decoder kept; it logs an answer of 500 or more, other than 504, with its cause (a client's mistake is never
// one: 405, 408 and 413 are not 500s of the server).
func (g *Gateway) callError(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if body, ok := r.Body.(*requestBody); ok && body.refusal != nil {
		err = body.refusal
	}
	err = withHTTPStatus(err)
	if code := httpStatus(err); code >= http.StatusInternalServerError && code != http.StatusGatewayTimeout {
		g.opts.Log.Error("REST call failed", zap.String("path", restjson.Shorten(r.URL.Path)), zap.Int("status", code),
			zap.Error(err))
	}
	runtime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, err)
}

// httpStatus returns the HTTP status that grpc-gateway answers err with: the one withHTTPStatus gave it, else its
// gRPC code's.
func httpStatus(err error) int {
	var withStatus *runtime.HTTPStatusError
	if errors.As(err, &withStatus) {
		return withStatus.HTTPStatus
	}
	return runtime.HTTPStatusFromCode(status.Code(err))
}
