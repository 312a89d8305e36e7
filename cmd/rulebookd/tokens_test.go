package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// testKey returns a key with id whose secret is 32 times the byte b.
func testKey(t testing.TB, id string, b byte) seal.Key {
	t.Helper()
	key, err := seal.GenerateKey(id, bytes.NewReader(bytes.Repeat([]byte{b}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// tokenConfig is the configuration of a server that accepts only tokens, sealed and opened with keys (the key
// file's text; testStateKeys if empty).
func tokenConfig(keys string) config {
	cfg := testConfig()
	cfg.acceptPlainStates = false
	if keys != "" {
		cfg.stateKeys = keys
	}
	return cfg
}

// sealedExploze starts a 2-player Exploze game on ts and returns its token and seat passes.
func sealedExploze(t testing.TB, ts *testServer) (token string, passes []string) {
	t.Helper()
	resp := succeeded(ts.client.NewGame(callContext(t), &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}))(t)
	if len(resp.GetSeatPasses()) != 2 {
		t.Fatalf("seat passes %v, want 2", resp.GetSeatPasses())
	}
	return resp.GetToken(), resp.GetSeatPasses()
}

// TestKeyRotation rotates the state key through the key file: a server with the keys [old], one with [new, old] and
// one with [new]. The second opens the first's tokens and answers them with tokens sealed under "new"; the first
// cannot open those, the third cannot open the old ones; seat passes outlive the rotation, being the table's.
func TestKeyRotation(t *testing.T) {
	dir := t.TempDir()
	oldKey, newKey := testKey(t, "old", 1), testKey(t, "new", 2)
	serve := func(name string, keys ...seal.Key) *testServer {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(seal.FormatKeys(keys...)), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg := tokenConfig("")
		cfg.stateKeys, cfg.stateKeysFile = "", path
		return startServer(t, cfg)
	}
	before, during, after := serve("old", oldKey), serve("new-old", newKey, oldKey), serve("new", newKey)

	oldToken, passes := sealedExploze(t, before)
	moved := succeeded(during.client.ApplyMove(callContext(t), &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: oldToken,
		SeatPass: passes[0], Move: explozeMove(1)}))(t)
	newToken := moved.GetToken()
	for token, prefix := range map[string]string{oldToken: "v1.old.", newToken: "v1.new."} {
		if !strings.HasPrefix(token, prefix) {
			t.Errorf("token %.20s..., want it sealed under %s", token, prefix)
		}
	}
	tests := []struct {
		name       string
		server     *testServer
		token      string
		wantReason string // "" for a token that opens
	}{
		{"old token, old keys", before, oldToken, ""},
		{"old token, new and old keys", during, oldToken, ""},
		{"new token, new and old keys", during, newToken, ""},
		{"new token, new keys", after, newToken, ""},
		{"old token, new keys", after, oldToken, seal.ReasonTokenUnknownKey},
		{"new token, old keys", before, newToken, seal.ReasonTokenUnknownKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Seat 2 moves next: its pass, from the first server, must hold at every server that opens the token.
			legal, err := tt.server.client.ListLegalMoves(callContext(t), &rulebookv1.ListLegalMovesRequest{Game: "exploze",
				Token: tt.token, SeatPass: passes[1]})
			code, reason := codeReason(err)
			switch {
			case tt.wantReason == "" && (err != nil || tt.token == newToken && len(legal.GetMoves()) == 0):
				t.Errorf("legal moves of seat 2: %v %v, want them", legal.GetMoves(), err)
			case tt.wantReason != "" && (code != codes.InvalidArgument || reason != tt.wantReason):
				t.Errorf("got %v, want INVALID_ARGUMENT %s", err, tt.wantReason)
			}
		})
	}
}

// flipBit returns token with one random bit of one random character flipped, within ASCII (a token travels as a
// string, which must stay UTF-8).
func flipBit(token string, rng *rand.Rand) string {
	b := []byte(token)
	b[rng.IntN(len(b))] ^= 1 << rng.IntN(7)
	return string(b)
}

// TestTamperedTokens sends altered tokens and seat passes to a token-only server over gRPC and REST: 200 seeded
// random bit flips, truncations, an extension, a token of another game, tokens sealed under another key (same id,
// and another id), and seat passes of another seat, another table or altered. Each must be refused with the code
// and reason expected (for an altered token, the reason package seal itself gives when opening it), and no refusal
// may show any part of the token, the seat pass or the key.
func TestTamperedTokens(t *testing.T) {
	ts := startServer(t, tokenConfig(""))
	sameID := startServer(t, tokenConfig(seal.FormatKeys(testKey(t, "test", 9))))
	otherID := startServer(t, tokenConfig(seal.FormatKeys(testKey(t, "other", 9))))
	token, passes := sealedExploze(t, ts)
	sameIDToken, sameIDPasses := sealedExploze(t, sameID)
	otherIDToken, _ := sealedExploze(t, otherID)
	micropul := succeeded(ts.client.NewGame(callContext(t), &rulebookv1.NewGameRequest{Game: "micropul", Seal: true}))(t)

	keys, err := seal.ParseKeys(testStateKeys)
	if err != nil {
		t.Fatal(err)
	}
	ring, err := seal.NewKeyring(keys...)
	if err != nil {
		t.Fatal(err)
	}
	secret := strings.TrimSpace(testStateKeys[strings.IndexByte(testStateKeys, ':')+1:])
	secrets := []string{token, passes[0], passes[1], secret}

	// apply is the case of seat 1's first move, with token and pass, refused as want.
	apply := func(name, token, pass string, want wantError) errorCase {
		c := requestCase(t, name, "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: token, SeatPass: pass,
			Move: explozeMove(1)}, want)
		c.secrets = slices.Concat(secrets, []string{token, pass})
		return c
	}
	// altered is the case of a token altered from the test's: refused for the reason seal gives when opening it.
	reasons := map[string]int{}
	altered := func(name, altered string) errorCase {
		_, _, err := ring.Open("exploze", altered)
		reason := seal.Reason(err)
		if reason == "" {
			t.Fatalf("%s: seal opens the altered token (%v)", name, err)
		}
		reasons[reason]++
		return apply(name, altered, passes[0], invalid(reason, "token"))
	}
	denied := func(reason string) wantError {
		return wantError{codes.PermissionDenied, http.StatusForbidden, reason, ""}
	}

	rng := rand.New(rand.NewPCG(2024, 6))
	var cases []errorCase
	for i := range 200 {
		cases = append(cases, altered(fmt.Sprintf("bit flip %d", i), flipBit(token, rng)))
	}
	prefix := len("v1.test.")
	for _, n := range []int{1, 3, prefix - 1, prefix, prefix + 10, len(token) / 2, len(token) - 1} {
		cases = append(cases, altered(fmt.Sprintf("cut to %d", n), token[:n]))
	}
	macStart := strings.IndexByte(passes[0], '.') + 1
	otherMAC := []byte(passes[0])
	otherMAC[macStart] = map[bool]byte{true: 'B', false: 'A'}[otherMAC[macStart] == 'A'] // another MAC, in the alphabet
	cases = append(cases,
		altered("extended", token+"A"),
		apply("token of another game", micropul.GetToken(), micropul.GetSeatPasses()[0], invalid(seal.ReasonTokenInvalid, "token")),
		apply("another key of the same id", sameIDToken, passes[0], invalid(seal.ReasonTokenInvalid, "token")),
		apply("a key of another id", otherIDToken, passes[0], invalid(seal.ReasonTokenUnknownKey, "token")),
		apply("pass of another seat", token, passes[1], denied(service.ReasonNotYourSeat)),
		apply("pass of another table", token, sameIDPasses[0], denied(seal.ReasonSeatPassInvalid)),
		apply("pass of another game", token, micropul.GetSeatPasses()[0], denied(seal.ReasonSeatPassInvalid)),
		apply("altered pass", token, string(otherMAC), denied(seal.ReasonSeatPassInvalid)),
		apply("cut pass", token, passes[0][:len(passes[0])-1], invalid(seal.ReasonSeatPassMalformed, "seatPass")),
		apply("no pass", token, "", denied(service.ReasonNotYourSeat)),
	)
	t.Logf("altered tokens, by reason: %v", reasons)
	checkErrorCases(t, ts, cases)
}
