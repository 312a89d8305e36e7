package gateway_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine/hosted"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/restjson"
	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/gateway"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/rulesserver"
	"github.com/rulebook/rulebook/service/seal"
)

// TestSameAsGateway checks that the gateway answers what restjson says it does, to the byte: an answer is Marshal of
// the service's response (MarshalOptions(true) when every field is asked for), a refusal of the service is StatusBody
// of its error, and a body that does not decode is StatusBody of Decode's refusal.
func TestSameAsGateway(t *testing.T) {
	svc := newService(t)
	ctx := context.Background()
	gw, err := gateway.New(ctx, rulesserver.New(svc), nil, gateway.Options{MaxBodyBytes: 1 << 20, Budget: admission.NewBudget(8<<20, nil),
		CallTimeout: 10 * time.Second, Log: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	newGame := &rulebookv1.NewGameRequest{Game: "exploze", Seed: proto.Uint64(7),
		Options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{Rows: 3, Cols: 3}}}}
	answer := func(resp proto.Message, err error) []byte {
		if err != nil {
			t.Fatal(err)
		}
		b, err := restjson.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	refusal := func(_ proto.Message, err error) []byte {
		if err == nil {
			t.Fatal("the service answered, want a refusal")
		}
		return restjson.StatusBody(err)
	}
	tests := []struct {
		name, method, path, body string
		unpopulated              bool
		want                     []byte
	}{
		{name: "an answer", method: http.MethodGet, path: "/v1/games",
			want: answer(svc.ListGames(ctx, &rulebookv1.ListGamesRequest{}))},
		{name: "an answer with a body", method: http.MethodPost, path: "/v1/games/exploze:new",
			body: `{"options": {"exploze": {"rows": 3, "cols": 3}}, "seed": "7"}`, want: answer(svc.NewGame(ctx, newGame))},
		{name: "a refusal of the service", method: http.MethodPost, path: "/v1/games/chess:new", body: `{}`,
			want: refusal(svc.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "chess"}))},
		{name: "a body that does not decode", method: http.MethodPost, path: "/v1/games/exploze:apply",
			body: `{"move": {"plaer": 1}}`, want: restjson.StatusBody(restjson.Decode([]byte(`{"move": {"plaer": 1}}`), &rulebookv1.ApplyMoveRequest{}))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			gw.ServeHTTP(w, req)
			got, _ := io.ReadAll(w.Result().Body)
			if !bytes.Equal(got, tt.want) {
				t.Errorf("the gateway answered %s\nrestjson says %s", got, tt.want)
			}
		})
	}
	t.Run("every field", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, "/v1/games/exploze:new", strings.NewReader(`{"options": {"exploze": {"rows": 3, "cols": 3}}, "seed": "7"}`))
		req.Header.Set("Accept", "application/json; unpopulated=true")
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		gw.ServeHTTP(w, req)
		resp, err := svc.NewGame(ctx, newGame)
		if err != nil {
			t.Fatal(err)
		}
		want, err := restjson.MarshalOptions(true).Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := io.ReadAll(w.Result().Body); !bytes.Equal(got, want) {
			t.Errorf("the gateway answered %s\nrestjson says %s", got, want)
		}
	})
}

// newService returns the service of a server that accepts plain states, hosting every game.
func newService(t *testing.T) *service.Service {
	t.Helper()
	key, err := seal.GenerateKey("k", nil)
	if err != nil {
		t.Fatal(err)
	}
	ring, err := seal.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(zap.NewNop(), service.Config{Keys: ring, AcceptPlainStates: true}, hosted.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}
