package gateway_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/gateway"
	"github.com/rulebook/rulebook/service/rulesserver"
)

// TestRoutes checks what grpc-gateway's router, the gateway's only one, makes of requests: the route it records (the
// template of the path it matched, whether or not the method is the path's, else "other"), the status, and for a
// method the path does not take the Allow header it finds by routing the request again with each method.
func TestRoutes(t *testing.T) {
	gw, err := gateway.New(context.Background(), rulesserver.New(newService(t)), nil, gateway.Options{MaxBodyBytes: 1 << 20,
		Budget: admission.NewBudget(8<<20, nil), CallTimeout: 10 * time.Second, Log: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method, path string
		route        string
		status       int
		allow        string
	}{
		{http.MethodPost, "/v1/games/exploze:apply", "/v1/games/{game}:apply", http.StatusBadRequest, ""}, // no state
		{http.MethodGet, "/v1/games", "/v1/games", http.StatusOK, ""},
		{http.MethodHead, "/openapi.json", "/openapi.json", http.StatusOK, ""},
		{http.MethodGet, "/v1/games/exploze:apply", "/v1/games/{game}:apply", http.StatusMethodNotAllowed, "POST"},
		{http.MethodPut, "/v1/puzzles:solve", "/v1/puzzles:solve", http.StatusMethodNotAllowed, "POST"},
		{http.MethodPost, "/healthz", "/healthz", http.StatusMethodNotAllowed, "GET"},
		{http.MethodDelete, "/openapi.json", "/openapi.json", http.StatusMethodNotAllowed, "GET, HEAD"},
		{http.MethodPost, "/v1/games/:apply", "other", http.StatusNotFound, ""},
		{http.MethodPost, "/v1/games/exploze:castle", "other", http.StatusNotFound, ""},
		{http.MethodGet, "/v2/games", "other", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		ctx, route := gateway.WithRouteSlot(context.Background())
		req := httptest.NewRequestWithContext(ctx, tt.method, tt.path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		gw.ServeHTTP(w, req)
		if *route != tt.route || w.Code != tt.status || w.Header().Get("Allow") != tt.allow {
			t.Errorf("%s %s: route %q, HTTP %d, Allow %q; want %q, %d, %q", tt.method, tt.path, *route, w.Code,
				w.Header().Get("Allow"), tt.route, tt.status, tt.allow)
		}
	}
}
