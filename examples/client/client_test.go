package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/clients/clienttest"
	"github.com/rulebook/rulebook/internal/guidetest"
)

// guide is the guide, from the repository's root, whose section shows this program.
const guide = "docs/clients.md"

// section is the guide's section that shows this program.
const section = "## A Go service"

// TestGuide checks that the guide shows this very program, and the command that runs it.
func TestGuide(t *testing.T) {
	s := guidetest.Read(t, filepath.Join("..", "..", guide), section)
	file, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if s.Block("go") != string(file) {
		t.Errorf("the program of %s's section %q is not examples/client/main.go: copy main.go there", guide, section)
	}
	if got := s.Block("sh"); got != "go run ./examples/client\n" {
		t.Errorf("the section runs %q, want go run ./examples/client", got)
	}
}

// TestClient plays the program against a server with rulebookd's defaults (states sealed as tokens) over real gRPC,
// and checks that it prints what the guide says.
func TestClient(t *testing.T) {
	want := guidetest.Read(t, filepath.Join("..", "..", guide), section).Block("output")
	var out strings.Builder
	if err := run(clienttest.Serve(t, clienttest.Config(false)).GRPC, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("the program printed\n%s\nwant the guide's output\n%s", out.String(), want)
	}
}
