package grpcnode

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/clients/clienttest"
)

// line is one JSON line that play.js prints: a game played, or a move refused.
type line struct {
	Game    string            `json:"game"`
	Moves   int               `json:"moves"`
	Winners []int             `json:"winners"`
	End     string            `json:"end"`
	Totals  []int             `json:"totals"`
	Refused string            `json:"refused"`
	Code    string            `json:"code"`
	Reason  string            `json:"reason"`
	Facts   map[string]string `json:"facts"`
}

// TestPlay runs play.js against a server that takes only tokens: a whole Exploze game (without chance, so the same
// game for the same seed), a whole two-player Micropul game (dealt by the server's own seed) and a refused move.
func TestPlay(t *testing.T) {
	addrs := clienttest.Serve(t, clienttest.Config(false))
	out := clienttest.Run(t, nil, "grpc/play.js", addrs.GRPC, "1")
	var got []line
	for text := range strings.Lines(out) {
		var l line
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatalf("play.js printed %q: %v", text, err)
		}
		got = append(got, l)
	}
	if len(got) != 3 {
		t.Fatalf("play.js printed %d lines, want 3:\n%s", len(got), out)
	}
	exploze, micropul, refused := got[0], got[1], got[2]

	if exploze.Game != "exploze" || exploze.Moves != 71 || !slices.Equal(exploze.Winners, []int{1}) {
		t.Errorf("exploze: %+v, want 71 moves won by player 1 (seed 1)", exploze)
	}

	ends := []string{"MICROPUL_END_CORE_EMPTY", "MICROPUL_END_OUT_OF_TILES"}
	if micropul.Game != "micropul" || micropul.Moves == 0 || !slices.Contains(ends, micropul.End) || len(micropul.Totals) != 2 {
		t.Errorf("micropul: %+v, want a finished two-player game", micropul)
	}
	for _, w := range micropul.Winners {
		if w != 1 && w != 2 {
			t.Errorf("micropul: winner %d is not a seat", w)
		}
	}

	want := line{Refused: "ApplyMove", Code: "FAILED_PRECONDITION", Reason: "CELL_OWNED_BY_OPPONENT",
		Facts: map[string]string{"col": "0", "owner": "1", "row": "0"}}
	if !reflect.DeepEqual(refused, want) {
		t.Errorf("refused: %+v, want %+v", refused, want)
	}
}
