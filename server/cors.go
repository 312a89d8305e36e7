package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	connectcors "connectrpc.com/cors"
	"github.com/rs/cors"
)

// corsMaxAge is how long, in seconds, a browser may keep a preflight's answer: two hours, the most that Chromium
// keeps one.
const corsMaxAge = 7200

// corsAllowedHeaders are the request headers a page may send: those of Connect and gRPC-Web (Content-Type among
// them), Accept (for "application/json; unpopulated=true"), and the trace context of W3C Trace Context.
var corsAllowedHeaders = append(connectcors.AllowedHeaders(), "Accept", "Authorization", "Traceparent", "Tracestate")

// corsExposedHeaders are the response headers a page may read: those of gRPC-Web (grpc-status, grpc-message,
// grpc-status-details-bin), and Allow, which names the methods of a path that refused a method.
var corsExposedHeaders = append(connectcors.ExposedHeaders(), "Allow")

// newCORS returns what makes a handler answer the cross-origin requests of pages from origins; with none, it returns
// each handler as it is, and no CORS header is ever sent. A preflight (OPTIONS with Access-Control-Request-Method)
// is answered 204 without calling the handler: from an allowed origin with the methods (GET, POST), the headers the
// API reads and the max age, from any other origin with no CORS header. Every other answer to an allowed origin,
// refusals included, says Access-Control-Allow-Origin and the headers the page may read. Browsers are not asked to
// send credentials: the API takes none.
func newCORS(origins []string) func(http.Handler) http.Handler {
	if len(origins) == 0 {
		return func(h http.Handler) http.Handler { return h }
	}
	return cors.New(cors.Options{
		AllowedOrigins:       origins,
		AllowedMethods:       connectcors.AllowedMethods(),
		AllowedHeaders:       corsAllowedHeaders,
		ExposedHeaders:       corsExposedHeaders,
		MaxAge:               corsMaxAge,
		OptionsSuccessStatus: http.StatusNoContent,
	}).Handler
}

// checkOrigins reports an origin that no browser sends, so that a mistake in the configuration is told at start
// rather than found as pages that cannot call: each is "*" alone (any origin), or scheme://host[:port] with scheme
// http or https, no path (not even "/"), and at most one "*" for a part of the host ("https://*.example.com"). With
// plainStates, "*" is refused: any page a browser visits could call a server that trusts its callers.
func checkOrigins(origins []string, plainStates bool) error {
	if slices.Contains(origins, "*") {
		switch {
		case len(origins) > 1:
			return errors.New(`CORS origin "*" allows every origin: list no other`)
		case plainStates:
			return errors.New(`CORS origin "*" on a server that accepts plain states would let any web page call a server that trusts its callers: list the origins`)
		}
		return nil
	}
	for _, origin := range origins {
		u, err := url.Parse(strings.Replace(origin, "*", "x", 1))
		if err != nil || strings.Count(origin, "*") > 1 || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			u.RawPath != "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(origin, "?#") {
			return fmt.Errorf("CORS origin %q: want scheme://host[:port] (http or https, no path), as a browser sends it", origin)
		}
	}
	return nil
}
