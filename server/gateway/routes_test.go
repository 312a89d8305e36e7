package gateway

import (
	"maps"
	"net/http"
	"testing"

	"github.com/rulebook/rulebook/gen/openapi"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
)

// TestNewRoutes checks the routes read from an OpenAPI 3 document: each path item's operations, by method, with
// the other keys of a path item left out, and the routes of the service's own document.
func TestNewRoutes(t *testing.T) {
	doc := `{"openapi": "3.1.0", "paths": {
		"/v1/games": {"summary": "s", "get": {"operationId": "RulesService_ListGames"}},
		"/v1/games/{game}:apply": {"parameters": [{"name": "game", "in": "path"}],
			"post": {"operationId": "RulesService_ApplyMove"}, "put": {"operationId": "RulesService_Other"}}}}`
	rs, err := newRoutes([]byte(doc), map[string]map[string]string{"/healthz": {http.MethodGet: ""}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, template string
		methods        map[string]string
	}{
		{"/v1/games", "/v1/games", map[string]string{"GET": "ListGames"}},
		{"/v1/games/exploze:apply", "/v1/games/{game}:apply", map[string]string{"POST": "ApplyMove", "PUT": "Other"}},
		{"/healthz", "/healthz", map[string]string{"GET": ""}},
		{"/v1/games/:apply", "", nil},
		{"/v1/games/exploze", "", nil},
	} {
		template, methods := rs.match(tc.path)
		if template != tc.template || !maps.Equal(methods, tc.methods) {
			t.Errorf("%s: %q %v, want %q %v", tc.path, template, methods, tc.template, tc.methods)
		}
	}
	if _, err := newRoutes([]byte(`{"paths": {"/a": {"get": []}}}`), nil); err == nil {
		t.Error("an operation that is not an object: no error")
	}

	rs, err = newRoutes(openapi.Document, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rpcs := len(rulebookv1grpc.RulesService_ServiceDesc.Methods); len(rs) != rpcs {
		t.Errorf("the document has %d routes, not one per RPC (%d)", len(rs), rpcs)
	}
	if _, methods := rs.match("/v1/puzzles:solve"); !maps.Equal(methods, map[string]string{"POST": "SolvePuzzle"}) {
		t.Errorf("POST /v1/puzzles:solve: %v", methods)
	}
}
