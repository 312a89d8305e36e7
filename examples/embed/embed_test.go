package main

import (
	"bytes"
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/internal/guidetest"
)

// guide is the guide, from the repository's root, whose section shows this program.
const guide = "docs/embedding.md"

// section is the guide's section that shows this program.
const section = "## Embed the rules"

// linked are the modules the program links besides the standard library, as the guide's section says: the engines,
// the messages and their runtime (the messages carry protovalidate's rules as options), no gRPC nor grpc-gateway.
var linked = []string{
	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go",
	"github.com/rulebook/rulebook",
	"google.golang.org/protobuf",
}

// shown returns the blocks of the guide's section that shows this program: its commands (the ```sh block), the
// program (```go) and what it prints (```output).
func shown(t *testing.T, root string) (commands, program, output string) {
	t.Helper()
	s := guidetest.Read(t, filepath.Join(root, guide), section)
	return s.Block("sh"), s.Block("go"), s.Block("output")
}

// TestGuide checks that the guide shows this very program.
func TestGuide(t *testing.T) {
	_, program, _ := shown(t, filepath.Join("..", ".."))
	file, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if program != string(file) {
		t.Errorf("the program of %s's section %q is not examples/embed/main.go: copy main.go there", guide, section)
	}
}

// TestEmbedding does what the guide's section says, as a program of another module would: in a new module whose
// requirement of github.com/rulebook/rulebook is replaced by this repository, it runs the section's commands, builds
// the guide's program, checks that it prints the section's output and that it links the modules of linked only.
func TestEmbedding(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	commands, program, output := shown(t, root)
	dir := t.TempDir()
	sums, err := os.ReadFile(filepath.Join(root, "go.sum")) // the module's dependencies, already verified
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"main.go": program, "go.sum": string(sums)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Offline: the module proxy is the module cache, which holds every dependency (the repository's own build
	// fetched them, and go.sum has their sums) and not github.com/rulebook/rulebook, which go get then takes from
	// its replacement.
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	proxy := "file://" + filepath.ToSlash(filepath.Join(strings.TrimSpace(string(cache)), "cache", "download"))
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY="+proxy)
	run := func(name string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
		}
		return out
	}
	run("go", "mod", "init", "example.com/embed")
	run("go", "mod", "edit", "-replace", "github.com/rulebook/rulebook="+root)
	run("bash", "-euo", "pipefail", "-c", commands)
	bin := filepath.Join(dir, "embed")
	run("go", "build", "-o", bin, ".")

	if got := string(run(bin)); got != output {
		t.Errorf("the program printed\n%s\nwant the guide's output\n%s", got, output)
	}
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	var modules []string
	for _, dep := range info.Deps {
		modules = append(modules, dep.Path)
	}
	slices.Sort(modules)
	if !slices.Equal(modules, linked) {
		t.Errorf("the program links the modules %q, want %q (as the guide says)", modules, linked)
	}
}
