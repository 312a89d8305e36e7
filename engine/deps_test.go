package engine_test

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// serviceModules are the modules that only the service links: a Go program that embeds the engines must not.
var serviceModules = []string{"google.golang.org/grpc", "github.com/grpc-ecosystem/grpc-gateway"}

// TestEnginesLinkNoGRPC checks that no engine package, nor the messages' package gen/rulebook/v1, depends on gRPC or
// grpc-gateway, which only the service's stubs and gateway (gen/rulebook/v1/rulebookv1grpc) need: importing a game's
// engine does not link them. The stubs' own package is listed too, to show that the check finds what they link.
func TestEnginesLinkNoGRPC(t *testing.T) {
	const module = "github.com/rulebook/rulebook/"
	const stubs = module + "gen/rulebook/v1/rulebookv1grpc"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}",
		module+"engine/...", module+"gen/rulebook/v1", stubs).Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderrOf(err))
	}
	var listed []string
	for line := range strings.Lines(string(out)) {
		pkg, deps, _ := strings.Cut(strings.TrimSpace(line), " ")
		listed = append(listed, pkg)
		var linked []string
		for dep := range strings.FieldsSeq(deps) {
			inModule := func(m string) bool { return dep == m || strings.HasPrefix(dep, m+"/") }
			if slices.ContainsFunc(serviceModules, inModule) {
				linked = append(linked, dep)
			}
		}
		switch {
		case pkg == stubs && len(linked) == 0:
			t.Errorf("%s links none of %v: the check cannot tell", pkg, serviceModules)
		case pkg != stubs && len(linked) > 0:
			t.Errorf("%s links %s", pkg, strings.Join(linked, ", "))
		}
	}
	for _, want := range []string{"engine", "engine/exploze", "engine/kipicot", "engine/micropul", "engine/polyomino",
		"engine/ubongoduel", "gen/rulebook/v1"} {
		if !slices.Contains(listed, module+want) {
			t.Errorf("go list did not list %s%s: %q", module, want, listed)
		}
	}
}

// stderrOf returns what the command of err wrote to its standard error, if err says.
func stderrOf(err error) []byte {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.Stderr
	}
	return nil
}
