package service_test

import (
	"context"
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

// TestTokenScope checks that a token sealed for a plain-state caller opens for plain-state callers (of any server
// sharing the keys), and for the others only where plain-scoped tokens are accepted; and that a token sealed for a
// token-only caller opens for everyone.
func TestTokenScope(t *testing.T) {
	strict, lenient := newCallerService(t, false, "game-server"), newCallerService(t, true, "game-server")
	trusted, err := strict.NewGame(as("game-server"), &rulebookv1.NewGameRequest{Game: "micropul", Seal: true})
	if err != nil {
		t.Fatal(err)
	}
	untrusted, err := strict.NewGame(as("player-app"), &rulebookv1.NewGameRequest{Game: "micropul", Seal: true})
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
		{"plain-scoped, plain-state caller", strict, trusted.GetToken(), "game-server", ""},
		{"plain-scoped, token-only caller", strict, trusted.GetToken(), "player-app", seal.ReasonTokenScope},
		{"plain-scoped, anonymous", strict, trusted.GetToken(), caller.Anonymous, seal.ReasonTokenScope},
		{"plain-scoped, accepted", lenient, trusted.GetToken(), "player-app", ""},
		{"sealed-only, plain-state caller", strict, untrusted.GetToken(), "game-server", ""},
		{"sealed-only, token-only caller", strict, untrusted.GetToken(), "player-app", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.s.GetView(as(tt.caller), &rulebookv1.GetViewRequest{Game: "micropul", Token: tt.token})
			checkRefusal(t, err, tt.want)
		})
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
