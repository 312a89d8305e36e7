package gateway

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// routes are the paths the gateway serves, as templates ("/v1/games/{game}:apply"), each with its HTTP methods and
// the RulesService method each calls ("" for none).
type routes map[string]map[string]string

// newRoutes returns the routes of the OpenAPI document doc, and extra.
func newRoutes(doc []byte, extra routes) (routes, error) {
	var d struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("OpenAPI document: %w", err)
	}
	rs := routes{}
	for path, ops := range d.Paths {
		rs[path] = map[string]string{}
		for method, op := range ops {
			rs[path][strings.ToUpper(method)] = strings.TrimPrefix(op.OperationID, "RulesService_")
		}
	}
	for path, methods := range extra {
		rs[path] = methods
	}
	return rs, nil
}

// match returns the route that path is on, with the methods it takes; "" if none.
func (rs routes) match(path string) (route string, methods map[string]string) {
	segments := strings.Split(path, "/")
	for template, ms := range rs {
		if matches(strings.Split(template, "/"), segments) && (route == "" || template < route) {
			route, methods = template, ms
		}
	}
	return route, methods
}

// matches reports whether the segments of a path match those of a template: a literal segment itself, "{name}" any
// segment but an empty one, and "{name}:verb" any that ends in ":verb" after something.
func matches(template, segments []string) bool {
	if len(template) != len(segments) {
		return false
	}
	for i, t := range template {
		s := segments[i]
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
