package gateway

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// route is a path the gateway serves, as a template ("/v1/games/{game}:apply"), with its HTTP methods and the
// RulesService method each calls ("" for none).
type route struct {
	template string
	segments []string // the template's, split at "/"
	methods  map[string]string
}

// routes are the paths the gateway serves, in the order of their templates.
type routes []route

// operationMethods are the keys of an OpenAPI 3 path item that are HTTP methods (the others, such as "parameters",
// apply to all of them).
var operationMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// newRoutes returns the routes of the OpenAPI 3 document doc, and extra (templates and their methods).
func newRoutes(doc []byte, extra map[string]map[string]string) (routes, error) {
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("OpenAPI document: %w", err)
	}
	byTemplate := map[string]map[string]string{}
	for path, item := range d.Paths {
		methods := map[string]string{}
		for key, raw := range item {
			if !slices.Contains(operationMethods, key) {
				continue
			}
			var op struct {
				OperationID string `json:"operationId"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, fmt.Errorf("OpenAPI document: %s %s: %w", key, path, err)
			}
			methods[strings.ToUpper(key)] = strings.TrimPrefix(op.OperationID, "RulesService_")
		}
		byTemplate[path] = methods
	}
	maps.Copy(byTemplate, extra)
	var rs routes
	for template, methods := range byTemplate {
		rs = append(rs, route{template: template, segments: strings.Split(template, "/"), methods: methods})
	}
	slices.SortFunc(rs, func(a, b route) int { return cmp.Compare(a.template, b.template) })
	return rs, nil
}

// match returns the route that path is on (the first template that it matches), with the methods it takes; "" if
// none.
func (rs routes) match(path string) (template string, methods map[string]string) {
	segments := strings.Count(path, "/") + 1
	for _, r := range rs {
		if len(r.segments) == segments && r.matches(path) {
			return r.template, r.methods
		}
	}
	return "", nil
}

// matches reports whether path, of as many segments as r's template, matches it: a literal segment itself,
// "{name}" any segment but an empty one, and "{name}:verb" any that ends in ":verb" after something.
func (r route) matches(path string) bool {
	for _, t := range r.segments {
		var s string
		s, path, _ = strings.Cut(path, "/")
		switch {
		case !strings.HasPrefix(t, "{"):
			if s != t {
				return false
			}
		case strings.HasSuffix(t, "}"):
			if s == "" {
				return false
			}
		default: // "{name}:verb"
			verb := t[strings.LastIndexByte(t, '}')+1:]
			if len(s) <= len(verb) || !strings.HasSuffix(s, verb) {
				return false
			}
		}
	}
	return true
}

// allow sets the Allow header of a response refusing a request to path for its method.
func (rs routes) allow(w http.ResponseWriter, path string) {
	if _, methods := rs.match(path); len(methods) > 0 {
		w.Header().Set("Allow", strings.Join(slices.Sorted(maps.Keys(methods)), ", "))
	}
}
