package engine_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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
	out, err := exec.Command("go", "list", "-f",
		"{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}\t{{join .Deps \" \"}}\t{{.Module.GoMod}}",
		module+"engine/...", module+"gen/rulebook/v1", stubs).Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderrOf(err))
	}
	var listed []string
	for line := range strings.Lines(string(out)) {
		fields := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(fields) != 5 {
			t.Fatalf("go list printed %q", line)
		}
		pkg, dir, files, deps, goMod := fields[0], fields[1], fields[2], fields[3], fields[4]
		listed = append(listed, pkg)
		// go test keeps a pass in its cache until a file the test looked at changes: it looks at those whose imports
		// and requirements decide deps.
		looked := []string{goMod}
		for file := range strings.FieldsSeq(files) {
			looked = append(looked, filepath.Join(dir, file))
		}
		for _, path := range looked {
			if _, err := os.Stat(path); err != nil {
				t.Fatal(err)
			}
		}
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
