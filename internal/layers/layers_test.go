// Package layers_test checks the module's import graph: each layer imports only what lies beneath it, and nothing
// imports sideways (a package that serves two layers lives beneath both, in internal/).
package layers_test

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the module's path; the rules name packages relative to it.
const module = "github.com/rulebook/rulebook/"

// rule forbids the edges from any package at or under one of from to any package at or under one of to, other than
// the packages allowed.
type rule struct {
	why      string
	from, to []string
	allowed  []string
}

// rules are the module's layers.
var rules = []rule{
	{why: "the engines are pure rules, beneath everything", from: []string{"engine"},
		to: []string{"service", "server", "cmd", "internal", "conformance", "clients"}},
	{why: "the service is beneath the server and the commands", from: []string{"service"}, to: []string{"server", "cmd"}},
	{why: "what the server and the WebAssembly module share lies beneath both",
		from: []string{"internal/deadline", "internal/refusal", "internal/restjson"}, to: []string{"service", "server", "cmd", "engine"}},
	{why: "the WebAssembly module links none of the server", from: []string{"cmd/rulebook-wasm/jsapi"}, to: []string{"server"}},
	{why: "the server serves every hosted game alike: it names them only through engine/hosted", from: []string{"server"},
		to: []string{"engine"}, allowed: []string{"engine", "engine/hosted"}},
}

// under reports whether pkg (relative to the module) is prefix or a package beneath it.
func under(pkg, prefix string) bool {
	return pkg == prefix || strings.HasPrefix(pkg, prefix+"/")
}

// violations returns the edges of imports (by package, relative to the module) that rules forbid, as
// "from -> to: why".
func violations(imports map[string][]string) []string {
	var found []string
	for _, from := range slices.Sorted(maps.Keys(imports)) {
		for _, to := range imports[from] {
			for _, r := range rules {
				fromIn := slices.ContainsFunc(r.from, func(p string) bool { return under(from, p) })
				toIn := slices.ContainsFunc(r.to, func(p string) bool { return under(to, p) })
				if fromIn && toIn && !slices.Contains(r.allowed, to) {
					found = append(found, from+" -> "+to+": "+r.why)
				}
			}
		}
	}
	return found
}

// TestRulesCatchSidewaysImports checks the rules on the edges that issue 20 named as sideways, which they must
// forbid, and on edges of the layering, which they must allow.
func TestRulesCatchSidewaysImports(t *testing.T) {
	forbidden := map[string][]string{
		"cmd/rulebook-wasm/jsapi": {"server/gateway/restjson"},
		"internal/restjson":       {"service"},
		"server/play":             {"engine/micropul"},
		"service":                 {"server/admission"},
		"engine/exploze":          {"internal/refusal"},
	}
	if got := violations(forbidden); len(got) != len(forbidden) {
		t.Errorf("forbidden edges found: %q, want one for each of %v", got, forbidden)
	}
	allowed := map[string][]string{
		"cmd/rulebook-wasm/jsapi": {"internal/restjson", "internal/refusal", "service", "engine/hosted"},
		"server":                  {"engine", "engine/hosted", "service", "internal/refusal"},
		"server/gateway":          {"internal/restjson", "server/admission"},
		"service":                 {"engine", "engine/polyomino", "internal/refusal"},
		"engine/hosted":           {"engine/micropul"},
	}
	if got := violations(allowed); len(got) != 0 {
		t.Errorf("allowed edges found forbidden: %q", got)
	}
}

// TestLayers checks every package of the module (its files for this platform, tests aside) against the rules.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}\t{{join .Imports \" \"}}",
		module+"...").Output()
	if err != nil {
		var stderr []byte
		if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
			stderr = exit.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	imports := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(fields) != 4 {
			t.Fatalf("go list printed %q", line)
		}
		pkg, dir, files, deps := strings.TrimPrefix(fields[0], module), fields[1], fields[2], fields[3]
		// go test keeps a pass in its cache until a file the test looked at changes: it looks at those whose imports
		// make the graph.
		for file := range strings.FieldsSeq(files) {
			if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
				t.Fatal(err)
			}
		}
		imports[pkg] = []string{}
		for dep := range strings.FieldsSeq(deps) {
			if rel, ok := strings.CutPrefix(dep, module); ok {
				imports[pkg] = append(imports[pkg], rel)
			}
		}
	}
	for _, r := range rules { // a rule whose packages are gone checks nothing
		for _, from := range r.from {
			if _, ok := imports[from]; !ok {
				t.Errorf("no package %s%s, which a rule names (%s)", module, from, r.why)
			}
		}
	}
	for _, v := range violations(imports) {
		t.Error(v)
	}
}
