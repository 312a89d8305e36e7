package server

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/identity"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
)

// Keys of the callers of the tests, and the key file naming them.
const (
	gameServerKey = "key-of-the-game-server-0123456789abcdef"
	playerKey     = "key-of-a-player-app-0123456789abcdef"
)

// callerKeys returns the key file of the test keys: game-server's and player-app's.
func callerKeys(t testing.TB) *identity.Keys {
	t.Helper()
	line := func(name, key string) string {
		sum := sha256.Sum256([]byte(key))
		return name + ":sha256:" + hex.EncodeToString(sum[:]) + "\n"
	}
	keys, err := identity.ParseKeys(strings.NewReader("# test keys\n" + line("game-server", gameServerKey) + line("player-app", playerKey)))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// callerConfig is testConfig with the test keys, game-server a plain-state caller, and a caller required.
func callerConfig(t testing.TB) Config {
	cfg := testConfig()
	cfg.AcceptPlainStates, cfg.APIKeys, cfg.PlainStateCallers, cfg.RequireCaller = false, callerKeys(t), []string{"game-server"}, true
	return cfg
}

// callAs makes a NewGame call with the given Authorization ("" for none) over each transport, and returns its
// answer's HTTP status (200 over gRPC for OK) and reason, by transport.
func callAs(t *testing.T, ts *testServer, authorization string, req *rulebookv1.NewGameRequest) map[string]string {
	t.Helper()
	got := map[string]string{}
	ctx := servertest.CallContext(t)
	if authorization != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", authorization)
	}
	_, err := ts.RPC.NewGame(ctx, req)
	got["grpc"] = status.Code(err).String() + " " + refusal.Reason(err)
	json := `{"game": "` + req.GetGame() + `"`
	if req.Seed != nil {
		json += `, "seed": "7"`
	}
	json += `}`
	for transport, path := range map[string]string{"rest": "/v1/games/" + req.GetGame() + ":new",
		"connect": "/rulebook.v1.RulesService/NewGame"} {
		r, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodPost, ts.URL+path, strings.NewReader(json))
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Content-Type", "application/json")
		if authorization != "" {
			r.Header.Set("Authorization", authorization)
		}
		code, answer := servertest.Do(t, r)
		reason := ""
		if code != http.StatusOK {
			reason = reasonOfBody(t, transport, answer)
		}
		got[transport] = http.StatusText(code) + " " + reason
	}
	return got
}

// reasonOfBody returns the reason of a refusal's body: a google.rpc.Status over REST, a Connect error over Connect.
func reasonOfBody(t *testing.T, transport string, body []byte) string {
	t.Helper()
	if transport == "rest" {
		return refusal.Reason(status.FromProto(servertest.RESTStatus(t, body)).Err())
	}
	for _, reason := range []string{identity.ReasonAPIKeyUnknown, identity.ReasonCallerRequired,
		identity.ReasonAuthorizationMalformed, service.ReasonSeedRefused} {
		if strings.Contains(string(body), reason) {
			return reason
		}
	}
	return string(body)
}

// TestCallers checks, over gRPC, REST and Connect, that a server requiring callers serves the holders of known API
// keys, refuses anonymous callers and unknown or malformed keys UNAUTHENTICATED (401), and lets only the plain-state
// caller choose a seed.
func TestCallers(t *testing.T) {
	ts := startServer(t, callerConfig(t))
	drawn := &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}
	chosen := &rulebookv1.NewGameRequest{Game: "exploze", Seed: proto.Uint64(7)}
	for _, tt := range []struct {
		name          string
		authorization string
		req           *rulebookv1.NewGameRequest
		grpc, http    string // the gRPC code and reason, the HTTP status and reason
	}{
		{"known key", "Bearer " + playerKey, drawn, "OK ", "OK "},
		{"scheme in lower case", "bearer " + playerKey, drawn, "OK ", "OK "},
		{"no key", "", drawn, "Unauthenticated CALLER_REQUIRED", "Unauthorized CALLER_REQUIRED"},
		{"unknown key", "Bearer not-a-key", drawn, "Unauthenticated API_KEY_UNKNOWN", "Unauthorized API_KEY_UNKNOWN"},
		{"not bearer", "Basic dXNlcjpwYXNz", drawn, "Unauthenticated AUTHORIZATION_MALFORMED", "Unauthorized AUTHORIZATION_MALFORMED"},
		{"plain-state caller's seed", "Bearer " + gameServerKey, chosen, "OK ", "OK "},
		{"token-only caller's seed", "Bearer " + playerKey, chosen, "PermissionDenied SEED_REFUSED", "Forbidden SEED_REFUSED"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := callAs(t, ts, tt.authorization, tt.req)
			if got["grpc"] != tt.grpc {
				t.Errorf("gRPC: %s, want %s", got["grpc"], tt.grpc)
			}
			for _, transport := range []string{"rest", "connect"} {
				if got[transport] != tt.http {
					t.Errorf("%s: %s, want %s", transport, got[transport], tt.http)
				}
			}
		})
	}
	if code, _ := ts.Get(t, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz of a server requiring callers: %d", code)
	}
}

// TestCallerLogged checks that the call log line of a gRPC call and the access line of a REST call name the caller.
func TestCallerLogged(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	ts := start(t, setup{cfg: callerConfig(t), log: zap.New(core)})
	ctx := metadata.AppendToOutgoingContext(servertest.CallContext(t), "authorization", "Bearer "+playerKey)
	servertest.Succeeded(ts.RPC.ListGames(ctx, &rulebookv1.ListGamesRequest{}))(t)
	r, err := http.NewRequestWithContext(servertest.CallContext(t), http.MethodGet, ts.URL+"/v1/games", nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Authorization", "Bearer "+gameServerKey)
	if code, body := servertest.Do(t, r); code != http.StatusOK {
		t.Fatalf("REST: %d %s", code, body)
	}
	for message, want := range map[string]string{"finished call": "player-app", "request": "game-server"} {
		lines := logs.FilterMessage(message).FilterField(zap.String("caller", want)).Len()
		if lines != 1 {
			t.Errorf("%d %q lines naming %s, want 1: %v", lines, message, want, logs.All())
		}
	}
}

// TestCallerMetric checks that rulebook_caller_calls_total counts calls under the names the configuration gives,
// and anonymous calls as "anonymous".
func TestCallerMetric(t *testing.T) {
	ts := start(t, setup{cfg: callerConfig(t), admin: true})
	callAs(t, ts, "Bearer "+playerKey, &rulebookv1.NewGameRequest{Game: "exploze", Seal: true})
	callAs(t, ts, "", &rulebookv1.NewGameRequest{Game: "exploze", Seal: true})
	calls := map[string]float64{}
	for _, m := range scrape(t, ts)["rulebook_caller_calls_total"].GetMetric() {
		labels := map[string]string{}
		for _, p := range m.GetLabel() {
			labels[p.GetName()] = p.GetValue()
		}
		calls[labels["caller"]+" "+labels["code"]] += m.GetCounter().GetValue()
	}
	// Each callAs makes a call over gRPC, REST and Connect.
	for key, want := range map[string]float64{"player-app OK": 3, "anonymous Unauthenticated": 3} {
		if calls[key] != want {
			t.Errorf("rulebook_caller_calls_total %s: %v, want %v (all: %v)", key, calls[key], want, calls)
		}
	}
}
