package service_test

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/caller"
	"github.com/rulebook/rulebook/service/seal"
)

// newCallerService returns a Service of the test key that lets the callers named plain hold plain states, and
// accepts plain-scoped tokens from the others if scoped.
func newCallerService(t *testing.T, scoped bool, plain ...string) *service.Service {
	t.Helper()
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	s, err := service.New(zap.NewNop(), service.Config{Keys: ring, PlainStateCallers: plain, AcceptPlainScopedTokens: scoped},
		games...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// as returns a context whose caller is name (caller.Anonymous: none).
func as(name string) context.Context {
	return caller.NewContext(context.Background(), caller.Caller{Name: name})
}

// TestPlainStateCallers checks that only the callers named plain-state callers may send plain states and choose
// seeds, and that the others, named or not, hold tokens.
func TestPlainStateCallers(t *testing.T) {
	s := newCallerService(t, false, "game-server")
	seed := uint64(7)
	for _, tt := range []struct {
		caller string
		want   string // the reason of the refusal, "" for none
	}{
		{"game-server", ""},
		{"player-app", service.ReasonSeedRefused},
		{caller.Anonymous, service.ReasonSeedRefused},
	} {
		t.Run("seed/"+tt.caller, func(t *testing.T) {
			_, err := s.NewGame(as(tt.caller), &rulebookv1.NewGameRequest{Game: "micropul", Seed: &seed})
			checkRefusal(t, err, tt.want)
		})
	}
	started, err := s.NewGame(as("game-server"), &rulebookv1.NewGameRequest{Game: "micropul", Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	if started.GetState() == nil {
		t.Fatal("a plain-state caller's NewGame answered no plain state")
	}
	for _, tt := range []struct {
		caller string
		want   string
	}{
		{"game-server", ""},
		{"player-app", service.ReasonPlainStateRefused},
		{caller.Anonymous, service.ReasonPlainStateRefused},
	} {
		t.Run("state/"+tt.caller, func(t *testing.T) {
			_, err := s.Score(as(tt.caller), &rulebookv1.ScoreRequest{Game: "micropul", State: started.GetState()})
			checkRefusal(t, err, tt.want)
		})
	}
}

// TestTokenScope checks that a token of a board a caller chose (a chosen seed, and the moves applied to it) is of the
// plain scope, which opens for plain-state callers (of any server sharing the keys), and for the others only where
// plain-scoped tokens are accepted; and that a token of a game the service dealt opens for everyone, whoever asked
// for it.
func TestTokenScope(t *testing.T) {
	strict, lenient := newCallerService(t, false, "game-server"), newCallerService(t, true, "game-server")
	newGame := func(who string, seed *uint64) *rulebookv1.NewGameResponse {
		t.Helper()
		resp, err := strict.NewGame(as(who), &rulebookv1.NewGameRequest{Game: "micropul", Seal: true, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	seed := uint64(42)
	chosen, dealt, players := newGame("game-server", &seed), newGame("game-server", nil), newGame("player-app", nil)
	moves, err := strict.ListLegalMoves(as("game-server"), &rulebookv1.ListLegalMovesRequest{Game: "micropul",
		Token: chosen.GetToken(), SeatPass: chosen.GetSeatPasses()[0]})
	if err != nil {
		t.Fatal(err)
	}
	moved, err := strict.ApplyMove(as("game-server"), &rulebookv1.ApplyMoveRequest{Game: "micropul", Token: chosen.GetToken(),
		SeatPass: chosen.GetSeatPasses()[0], Move: moves.GetMoves()[0]})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		s      *service.Service
		token  string
		caller string
		want   string
	}{
		{"chosen seed, plain-state caller", strict, chosen.GetToken(), "game-server", ""},
		{"chosen seed, token-only caller", strict, chosen.GetToken(), "player-app", seal.ReasonTokenScope},
		{"chosen seed, anonymous", strict, chosen.GetToken(), caller.Anonymous, seal.ReasonTokenScope},
		{"chosen seed, accepted", lenient, chosen.GetToken(), "player-app", ""},
		{"chosen seed and a move, token-only caller", strict, moved.GetToken(), "player-app", seal.ReasonTokenScope},
		{"dealt for a plain-state caller, token-only caller", strict, dealt.GetToken(), "player-app", ""},
		{"dealt for a token-only caller, plain-state caller", strict, players.GetToken(), "game-server", ""},
		{"dealt for a token-only caller, token-only caller", strict, players.GetToken(), "player-app", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.s.GetView(as(tt.caller), &rulebookv1.GetViewRequest{Game: "micropul", Token: tt.token})
			checkRefusal(t, err, tt.want)
		})
	}
	if !strings.HasPrefix(chosen.GetToken(), "p2.") || !strings.HasPrefix(dealt.GetToken(), "v2.") {
		t.Errorf("scopes of %.3s (chosen seed) and %.3s (dealt): want p2. and v2.", chosen.GetToken(), dealt.GetToken())
	}
}

// checkRefusal fails t unless err is the PERMISSION_DENIED refusal of reason want, or nil if want is "".
func checkRefusal(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	wantRefusal(t, err, codes.PermissionDenied, want)
}
