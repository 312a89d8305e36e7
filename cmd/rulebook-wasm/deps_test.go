//go:build !(js && wasm)

package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/cmd/rulebook-wasm/wasmnode"
)

// TestDeps checks that the module links none of the server: neither gRPC's server and transport (grpc-go's root
// package, which the generated stubs import) nor grpc-gateway, nor any of the server's packages, which it would carry
// without calling them (see BENCHMARKS.md for its size). What it shares with the server lies beneath both
// (internal/layers checks the edges).
func TestDeps(t *testing.T) {
	deps := strings.Fields(wasmnode.Run(t, ".", []string{"GOOS=js", "GOARCH=wasm"}, "go", "list", "-deps", "."))
	for _, pkg := range deps {
		if slices.Contains([]string{"google.golang.org/grpc", "github.com/grpc-ecosystem/grpc-gateway/v2/runtime",
			"github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"}, pkg) ||
			strings.HasPrefix(pkg+"/", "github.com/rulebook/rulebook/server/") {
			t.Errorf("the module links %s", pkg)
		}
	}
}

// TestDoc checks that the module's documentation, which docs/embedding.md points to, shows with go doc and gives
// the API.
func TestDoc(t *testing.T) {
	doc := wasmnode.Run(t, ".", []string{"GOOS=js", "GOARCH=wasm"}, "go", "doc", ".")
	for _, want := range []string{"listGames()", "newGame(game, optionsJson, seed)", "validateMove(game, stateJson, moveJson)",
		"applyMove(game, stateJson, moveJson, events)", "legalMoves(game, stateJson, player)", "score(game, stateJson)",
		"view(game, stateJson, viewer)", "configure(configJson)", "INVALID_ARGUMENTS"} {
		if !strings.Contains(doc, want) {
			t.Errorf("go doc does not show %s", want)
		}
	}
}
