package server

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// tokenConfig is the configuration of a server that accepts only tokens.
func tokenConfig() Config {
	cfg := testConfig()
	cfg.AcceptPlainStates = false
	return cfg
}

// sealedExploze starts a 2-player Exploze game on ts and returns its token and seat passes.
func sealedExploze(t testing.TB, ts *testServer) (token string, passes []string) {
	t.Helper()
	resp := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}))(t)
	if len(resp.GetSeatPasses()) != 2 {
		t.Fatalf("seat passes %v, want 2", resp.GetSeatPasses())
	}
	return resp.GetToken(), resp.GetSeatPasses()
}

// TestKeyRotation rotates the state key through the key file: a server with the keys [old], one with [new, old] and
// one with [new]. The second opens the first's tokens and answers them with tokens sealed under "new"; the first
// cannot open those, the third cannot open the old ones; seat passes outlive the rotation, being the table's.
func TestKeyRotation(t *testing.T) {
	oldKey, newKey := servertest.Key(t, "old", 1), servertest.Key(t, "new", 2)
	serve := func(keys ...seal.Key) *testServer { return startServerWithKeys(t, tokenConfig(), keyring(t, keys...)) }
	before, during, after := serve(oldKey), serve(newKey, oldKey), serve(newKey)

	oldToken, passes := sealedExploze(t, before)
	moved := servertest.Succeeded(during.RPC.ApplyMove(servertest.CallContext(t), &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: oldToken,
		SeatPass: passes[0], Move: servertest.ExplozeMove(1)}))(t)
	newToken := moved.GetToken()
	for token, prefix := range map[string]string{oldToken: "v2.old.", newToken: "v2.new."} {
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
			legal, err := tt.server.RPC.ListLegalMoves(servertest.CallContext(t), &rulebookv1.ListLegalMovesRequest{Game: "exploze",
				Token: tt.token, SeatPass: passes[1]})
			code, reason := status.Code(err), refusal.Reason(err)
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
// and another id), tokens of a format the server does not know (TOKEN_VERSION_UNSUPPORTED), and seat passes of another seat, another table or altered. Each must be refused with the code
// and reason expected (for an altered token, the reason package seal itself gives when opening it), and no refusal
// may show any part of the token, the seat pass or the key.
func TestTamperedTokens(t *testing.T) {
	ts := startServer(t, tokenConfig())
	sameID := startServerWithKeys(t, tokenConfig(), keyring(t, servertest.Key(t, "test", 9)))
	otherID := startServerWithKeys(t, tokenConfig(), keyring(t, servertest.Key(t, "other", 9)))
	token, passes := sealedExploze(t, ts)
	sameIDToken, sameIDPasses := sealedExploze(t, sameID)
	otherIDToken, _ := sealedExploze(t, otherID)
	micropul := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "micropul", Seal: true}))(t)

	ring := testKeys(t)
	secret := strings.TrimSpace(servertest.StateKeys[strings.IndexByte(servertest.StateKeys, ':')+1:])
	secrets := []string{token, passes[0], passes[1], secret}

	// apply is the case of seat 1's first move, with token and pass, refused as want.
	apply := func(name, token, pass string, want servertest.WantError) servertest.ErrorCase {
		c := servertest.RequestCase(t, name, "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: token, SeatPass: pass,
			Move: servertest.ExplozeMove(1)}, want)
		c.Secrets = slices.Concat(secrets, []string{token, pass})
		return c
	}
	// altered is the case of a token altered from the test's: refused for the reason seal gives when opening it.
	reasons := map[string]int{}
	altered := func(name, altered string) servertest.ErrorCase {
		_, err := ring.Open("exploze", altered, seal.ScopeSealed)
		reason := seal.Reason(err)
		if reason == "" {
			t.Fatalf("%s: seal opens the altered token (%v)", name, err)
		}
		reasons[reason]++
		return apply(name, altered, passes[0], servertest.Invalid(reason, "token"))
	}
	denied := func(reason string) servertest.WantError {
		return servertest.WantError{Code: codes.PermissionDenied, HTTPCode: http.StatusForbidden, Reason: reason}
	}

	rng := rand.New(rand.NewPCG(2024, 6))
	var cases []servertest.ErrorCase
	for i := range 200 {
		cases = append(cases, altered(fmt.Sprintf("bit flip %d", i), flipBit(token, rng)))
	}
	prefix := len("v2.test.")
	for _, n := range []int{1, 3, prefix - 1, prefix, prefix + 10, len(token) / 2, len(token) - 1} {
		cases = append(cases, altered(fmt.Sprintf("cut to %d", n), token[:n]))
	}
	macStart := strings.IndexByte(passes[0], '.') + 1
	otherMAC := []byte(passes[0])
	otherMAC[macStart] = map[bool]byte{true: 'B', false: 'A'}[otherMAC[macStart] == 'A'] // another MAC, in the alphabet
	cases = append(cases,
		altered("extended", token+"A"),
		apply("token of another game", micropul.GetToken(), micropul.GetSeatPasses()[0], servertest.Invalid(seal.ReasonTokenInvalid, "token")),
		apply("another key of the same id", sameIDToken, passes[0], servertest.Invalid(seal.ReasonTokenInvalid, "token")),
		apply("a key of another id", otherIDToken, passes[0], servertest.Invalid(seal.ReasonTokenUnknownKey, "token")),
		apply("a token of a newer format", "v3"+token[2:], passes[0], servertest.Invalid(seal.ReasonTokenVersionUnsupported, "token")),
		apply("a token of a format of another kind", "x9.", passes[0], servertest.Invalid(seal.ReasonTokenVersionUnsupported, "token")),
		apply("pass of another seat", token, passes[1], denied(service.ReasonNotYourSeat)),
		apply("pass of another table", token, sameIDPasses[0], denied(seal.ReasonSeatPassInvalid)),
		apply("pass of another game", token, micropul.GetSeatPasses()[0], denied(seal.ReasonSeatPassInvalid)),
		apply("altered pass", token, string(otherMAC), denied(seal.ReasonSeatPassInvalid)),
		apply("cut pass", token, passes[0][:len(passes[0])-1], servertest.Invalid(seal.ReasonSeatPassMalformed, "seatPass")),
		apply("no pass", token, "", denied(service.ReasonNotYourSeat)),
	)
	t.Logf("altered tokens, by reason: %v", reasons)
	servertest.CheckErrorCases(t, ts.Client, cases)
}
