package grpcnode

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/clients/clienttest"
	"github.com/rulebook/rulebook/server/identity"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/server/tlsfiles"
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
	checkPlay(t, clienttest.Run(t, nil, "grpc/play.js", addrs.GRPC, "1"))
}

// TestPlayMutualTLS runs play.js as TestPlay does, against a server that requires a client certificate (mutual
// TLS), with its TLS options: the CA, and the client's certificate and key. Without the client's certificate, it
// fails.
func TestPlayMutualTLS(t *testing.T) {
	dir := t.TempDir()
	ca := servertest.NewCA(t, "test CA")
	files := servertest.WriteTLSFiles(t, dir, servertest.ServerPair(t, ca), ca)
	if err := servertest.ClientPair(t, ca, "node").Write(dir, "client"); err != nil {
		t.Fatal(err)
	}
	cfg := clienttest.Config(false)
	cfg.TLS = tlsfiles.Files{Cert: files.Cert, Key: files.Key, ClientCA: files.ClientCA}
	addrs := clienttest.Serve(t, cfg)
	checkPlay(t, clienttest.Run(t, nil, "grpc/play.js", "--ca", files.ClientCA, "--cert", filepath.Join(dir, "client.crt"),
		"--key", filepath.Join(dir, "client.key"), "--server-name", "localhost", addrs.GRPC, "1"))

	_, err := clienttest.Attempt(t, nil, "grpc/play.js", "--ca", files.ClientCA, "--server-name", "localhost", addrs.GRPC, "1")
	if err == nil || !strings.Contains(err.Error(), "certificate required") {
		t.Errorf("play.js without a client certificate: %v, want UNAVAILABLE for the certificate required", err)
	}
}

// TestPlayAPIKey runs play.js as TestPlay does, over TLS, against a server that serves only callers named by an API
// key: it sends RULEBOOK_API_KEY with every call; without it, the server refuses the calls; and over plain TCP,
// play.js refuses to send the key.
func TestPlayAPIKey(t *testing.T) {
	const key = "a-key-of-the-node-client-0123456789"
	dir := t.TempDir()
	ca := servertest.NewCA(t, "test CA")
	files := servertest.WriteTLSFiles(t, dir, servertest.ServerPair(t, ca), ca)
	sum := sha256.Sum256([]byte(key))
	keys, err := identity.ParseKeys(strings.NewReader("node:sha256:" + hex.EncodeToString(sum[:]) + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := clienttest.Config(false)
	cfg.TLS = tlsfiles.Files{Cert: files.Cert, Key: files.Key}
	cfg.APIKeys, cfg.RequireCaller = keys, true
	addrs := clienttest.Serve(t, cfg)
	args := []string{"grpc/play.js", "--ca", files.ClientCA, "--server-name", "localhost", addrs.GRPC, "1"}
	checkPlay(t, clienttest.Run(t, []string{"RULEBOOK_API_KEY=" + key}, args...))

	if _, err := clienttest.Attempt(t, []string{"RULEBOOK_API_KEY="}, args...); err == nil || !strings.Contains(err.Error(), "16 UNAUTHENTICATED") {
		t.Errorf("play.js without a key: %v, want UNAUTHENTICATED", err)
	}
	plain := []string{"grpc/play.js", addrs.GRPC, "1"}
	if _, err := clienttest.Attempt(t, []string{"RULEBOOK_API_KEY=" + key}, plain...); err == nil || !strings.Contains(err.Error(), "over TLS only") {
		t.Errorf("play.js with a key over plain TCP: %v, want a refusal to send it", err)
	}
}

// checkPlay checks out, what play.js printed: the games and the refusal TestPlay describes.
func checkPlay(t *testing.T, out string) {
	t.Helper()
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

	// The game is dealt from a seed the server draws (a token caller chooses none): any of the ends may come.
	ends := []string{"MICROPUL_END_CORE_EMPTY", "MICROPUL_END_OUT_OF_TILES", "MICROPUL_END_BLOCKED"}
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
