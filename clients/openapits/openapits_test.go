// Package openapits tests the OpenAPI document from TypeScript: the document the server serves at GET /openapi.json
// passes Redocly's recommended lint, openapi-typescript makes types of it that tsc (strict) checks a client against,
// and that client (clients/openapi/play.ts, with openapi-fetch) plays a whole game over REST.
package openapits_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/rulebook/rulebook/clients/clienttest"
)

// redocly runs Redocly's CLI without its usage report and its check for a newer version, which would go online.
var redocly = []string{"REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true"}

func TestTypeScriptClient(t *testing.T) {
	dir := clienttest.Dir(t)
	clienttest.Node(t)
	addrs := clienttest.Serve(t, clienttest.Config(true))

	// The document as served is the one committed, which the commands below read, as docs/api.md shows them.
	resp, err := http.Get("http://" + addrs.HTTP + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	served, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /openapi.json: %d %v", resp.StatusCode, err)
	}
	doc := filepath.Join("..", "gen", "openapi", "rulebook.openapi.json")
	committed, err := os.ReadFile(filepath.Join(dir, doc))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(served, committed) {
		t.Fatalf("GET /openapi.json is not %s", doc)
	}

	t.Run("lint", func(t *testing.T) {
		// An error fails the command, and so the test; so does a warning.
		out := clienttest.Run(t, redocly, "node_modules/.bin/redocly", "lint", "--format=json", doc)
		var report struct {
			Problems []struct {
				RuleID   string `json:"ruleId"`
				Severity string `json:"severity"`
				Message  string `json:"message"`
			} `json:"problems"`
		}
		if err := json.Unmarshal([]byte(out), &report); err != nil {
			t.Fatalf("redocly lint: %v\n%s", err, out)
		}
		for _, p := range report.Problems {
			t.Errorf("redocly lint: %s %s: %s", p.Severity, p.RuleID, p.Message)
		}
	})

	t.Run("game", func(t *testing.T) {
		clienttest.Run(t, nil, "node_modules/.bin/openapi-typescript", doc, "-o", filepath.Join("openapi", "generated", "rulebook.ts"))
		clienttest.Run(t, nil, "node_modules/.bin/tsc", "-p", "openapi")
		for _, seed := range []string{"1", "2"} {
			out := clienttest.Run(t, []string{"RULEBOOK_HTTP=" + addrs.HTTP, "SEED=" + seed}, filepath.Join("openapi", "dist", "play.js"))
			var played struct {
				Moves, MaxMoves int
				Winners         []int
				Refusal         struct {
					Status int
					Reason string
					Facts  map[string]string
				}
			}
			if err := json.Unmarshal([]byte(out), &played); err != nil {
				t.Fatalf("play.js: %v\n%s", err, out)
			}
			t.Logf("seed %s: %s", seed, out)
			if played.Moves < 2 || played.Moves > played.MaxMoves || len(played.Winners) != 1 {
				t.Errorf("seed %s: %d moves (at most %d), winners %v", seed, played.Moves, played.MaxMoves, played.Winners)
			}
			if r := played.Refusal; r.Status != http.StatusBadRequest || r.Reason != "CELL_OWNED_BY_OPPONENT" || r.Facts["owner"] != "1" {
				t.Errorf("seed %s: the move on the first stone was refused with %+v, not 400 CELL_OWNED_BY_OPPONENT by owner 1", seed, r)
			}
		}
	})
}
