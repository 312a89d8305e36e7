package service_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// format1Dir holds golden tokens of token format 1, sealed by an older build (see its README.md).
const format1Dir = "testdata/tokens-format1"

// goldenToken is a token of format1Dir's tokens.json.
type goldenToken struct {
	Name       string   `json:"name"`
	Game       string   `json:"game"`
	Position   string   `json:"position"`
	Token      string   `json:"token"`
	SeatPasses []string `json:"seatPasses"`
}

// tokenService returns a token-only Service of ring that seals tokens of format (0: the current one) and lets
// every caller open tokens of either scope.
func tokenService(t testing.TB, ring *seal.Keyring, format seal.Format) *service.Service {
	t.Helper()
	now := func() time.Time { return time.Unix(1_800_000_000, 0) }
	s, err := service.New(zap.NewNop(), service.Config{Keys: ring, SealTokenFormat: format, AcceptPlainScopedTokens: true, Now: now},
		games...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// gameOf returns the hosted game of id.
func gameOf(t testing.TB, id string) engine.Game {
	t.Helper()
	i := slices.IndexFunc(games, func(g engine.Game) bool { return g.Info().GetId() == id })
	if i < 0 {
		t.Fatalf("no game %q", id)
	}
	return games[i]
}

// openState returns the state that token holds, of any format and scope, as this build reads it.
func openState(t testing.TB, ring *seal.Keyring, game, token string) (seal.Contents, *rulebookv1.GameState) {
	t.Helper()
	c, err := ring.Open(game, token, seal.ScopePlain)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	pos, err := gameOf(t, game).Open(c.State)
	if err != nil {
		t.Fatalf("open the state: %v", err)
	}
	return c, pos.Encode()
}

// TestFormat1Tokens opens the golden tokens of format 1, which an older build sealed, with this build's service:
// each shows the spectator and every seat the views that build showed, holds the state it held, and plays on: the
// first seat with a legal move plays its first one, and gets a token of the current format, of the same scope, that
// holds what the rules make of the golden state. -update rewrites the golden states and views from what this build
// reads out of the tokens (after a change of the API's messages), never the tokens.
func TestFormat1Tokens(t *testing.T) {
	ctx := context.Background()
	text, err := os.ReadFile(filepath.Join(format1Dir, "state-keys"))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := seal.ParseKeys(string(text))
	if err != nil {
		t.Fatal(err)
	}
	ring, err := seal.NewKeyring(keys...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(format1Dir, "tokens.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tokens []goldenToken
	if err := json.Unmarshal(b, &tokens); err != nil {
		t.Fatal(err)
	}
	if len(tokens) != 4*len(games) {
		t.Fatalf("%d golden tokens, want 4 of each of the %d games", len(tokens), len(games))
	}
	s := tokenService(t, ring, 0)
	for _, tt := range tokens {
		t.Run(tt.Name, func(t *testing.T) {
			g := gameOf(t, tt.Game)
			c, state := openState(t, ring, tt.Game, tt.Token)
			if c.Format != seal.Format1 {
				t.Fatalf("a golden token of format %d", c.Format)
			}
			views := make([]*rulebookv1.GameState, len(tt.SeatPasses)+1) // the spectator's, then each seat's
			for v := range views {
				req := &rulebookv1.GetViewRequest{Game: tt.Game, Token: tt.Token}
				if v > 0 {
					req.SeatPass = tt.SeatPasses[v-1]
				}
				resp, err := s.GetView(ctx, req)
				if err != nil {
					t.Fatalf("view of seat %d: %v", v, err)
				}
				views[v] = resp.GetView()
			}
			enginetest.Golden(t, filepath.Join(format1Dir, tt.Game+"-"+tt.Position+".golden"), goldenStateText(t, state, views))

			applied := playFirstMove(t, s, tt.Game, tt.Token, tt.SeatPasses)
			want, err := applyOn(g, state, applied.GetMove())
			if err != nil {
				t.Fatalf("the golden state refuses the move the service applied: %v", err)
			}
			next, got := openState(t, ring, tt.Game, applied.GetToken())
			if next.Format != seal.CurrentFormat || next.Scope != c.Scope || next.Table != c.Table ||
				next.RulesVersion != g.Info().GetRulesVersion() {
				t.Errorf("the answer's token: format %d, scope %d, rules version %d, its table kept %v; want format %d, scope %d, "+
					"rules version %d, the same table", next.Format, next.Scope, next.RulesVersion, next.Table == c.Table,
					seal.CurrentFormat, c.Scope, g.Info().GetRulesVersion())
			}
			if !proto.Equal(got, want) {
				t.Errorf("the answer's token holds another state than the move played on the golden state")
			}
		})
	}
}

// playFirstMove plays, on the game of token, the first legal move of the first seat that has one, with its pass.
func playFirstMove(t testing.TB, s *service.Service, game, token string, passes []string) *rulebookv1.ApplyMoveResponse {
	t.Helper()
	ctx := context.Background()
	for _, pass := range passes {
		legal, err := s.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: game, Token: token, SeatPass: pass})
		if err != nil {
			t.Fatal(err)
		}
		if len(legal.GetMoves()) == 0 {
			continue
		}
		applied, err := s.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: game, Token: token, SeatPass: pass, Move: legal.GetMoves()[0]})
		if err != nil {
			t.Fatal(err)
		}
		return applied
	}
	t.Fatal("no seat has a legal move")
	return nil
}

// goldenStateText is the golden text of a state and its views: protojson, indented by encoding/json, whose layout
// (unlike protojson's) is stable.
func goldenStateText(t testing.TB, state *rulebookv1.GameState, views []*rulebookv1.GameState) []byte {
	t.Helper()
	marshal := func(m proto.Message) json.RawMessage {
		b, err := protojson.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	text := struct {
		State json.RawMessage   `json:"state"`
		Views []json.RawMessage `json:"views"`
	}{State: marshal(state)}
	for _, v := range views {
		text.Views = append(text.Views, marshal(v))
	}
	b, err := json.MarshalIndent(text, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestSealTokenFormat checks both formats a service seals: the current one, which says the game's rules version,
// and format 1, for a rolling update beside a build that reads only format 1, whose tokens hold the wire form of the
// GameState (which such a build reads of every game, unlike the private forms of this one). Each service opens the
// other's tokens and plays on them.
func TestSealTokenFormat(t *testing.T) {
	ctx := context.Background()
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	current, previous := tokenService(t, ring, 0), tokenService(t, ring, seal.Format1)
	for _, g := range games {
		game := g.Info().GetId()
		t.Run(game, func(t *testing.T) {
			for _, tt := range []struct {
				name          string
				sealer, other *service.Service
				prefix        string
				format        seal.Format
				rulesVersion  uint32
			}{
				{"current", current, previous, "v2.", seal.Format2, g.Info().GetRulesVersion()},
				{"format 1", previous, current, "v1.", seal.Format1, 0},
			} {
				started, err := tt.sealer.NewGame(ctx, &rulebookv1.NewGameRequest{Game: game})
				if err != nil {
					t.Fatal(err)
				}
				token := started.GetToken()
				c, state := openState(t, ring, game, token)
				if !strings.HasPrefix(token, tt.prefix) || c.Format != tt.format || c.RulesVersion != tt.rulesVersion {
					t.Errorf("%s: a token %.3s... of format %d and rules version %d, want %s, %d and %d", tt.name, token, c.Format,
						c.RulesVersion, tt.prefix, tt.format, tt.rulesVersion)
				}
				if tt.format == seal.Format1 {
					wire := &rulebookv1.GameState{}
					if err := proto.Unmarshal(c.State, wire); err != nil || !proto.Equal(wire, state) {
						t.Errorf("%s: the token does not hold the wire form of its state (%v)", tt.name, err)
					}
				}
				for _, s := range []*service.Service{tt.sealer, tt.other} {
					applied := playFirstMove(t, s, game, token, started.GetSeatPasses())
					if _, got := openState(t, ring, game, applied.GetToken()); !proto.Equal(got, mustApply(t, g, state, applied.GetMove())) {
						t.Errorf("%s: the answer's token holds another state than the move played on the token's", tt.name)
					}
				}
			}
		})
	}
	if _, err := service.New(zap.NewNop(), service.Config{Keys: ring, SealTokenFormat: seal.CurrentFormat + 1}, games...); err == nil {
		t.Errorf("a service sealing token format %d was made", seal.CurrentFormat+1)
	}
}

// mustApply returns the state after move.
func mustApply(t testing.TB, g engine.Game, state *rulebookv1.GameState, move *rulebookv1.Move) *rulebookv1.GameState {
	t.Helper()
	next, err := applyOn(g, state, move)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// applyOn returns the state after move, or the engine's refusal.
func applyOn(g engine.Game, state *rulebookv1.GameState, move *rulebookv1.Move) (*rulebookv1.GameState, error) {
	pos, err := g.Decode(state)
	if err != nil {
		return nil, err
	}
	next, _, err := pos.Apply(move)
	if err != nil {
		return nil, err
	}
	return next.Encode(), nil
}

// TestTokenVersions checks what the service makes of authentic tokens this build did not seal as it seals now: a
// state of other rules opens if it passes every check of this build's rules, and a token of an unknown format, or
// whose state this build cannot read or refuses, is TOKEN_VERSION_UNSUPPORTED (INVALID_ARGUMENT on the field token),
// never INTERNAL, whether its state is asked for whole (GetView) or held (ApplyMove).
func TestTokenVersions(t *testing.T) {
	ctx := context.Background()
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	s := tokenService(t, ring, 0)
	started, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "micropul"})
	if err != nil {
		t.Fatal(err)
	}
	c, state := openState(t, ring, "micropul", started.GetToken())
	version := c.RulesVersion
	wire := func(state *rulebookv1.GameState) []byte {
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(state)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// reseal returns the token of the game's table holding held, of format 2 and rules version, or of format 1.
	reseal := func(format seal.Format, rulesVersion uint32, held []byte) string {
		token, err := ring.Seal("micropul", seal.Contents{Format: format, RulesVersion: rulesVersion, Table: c.Table, State: held})
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	// A private form of Micropul, as tokens of format 1 held it: the start of a game of seed 1.
	private, err := hex.DecodeString("000102010100000000012800000000060b11171c1d2d0006070d14161a2e002329020c080a1209052f001e2b2a182619200e252723100324040f1b22061f1315212c01")
	if err != nil {
		t.Fatal(err)
	}
	otherRules := proto.Clone(state).(*rulebookv1.GameState)
	otherRules.GetMicropul().RulesVersion = version + 1
	_, rest, _ := strings.Cut(started.GetToken(), ".")
	tests := []struct {
		name  string
		token string
		opens bool
		// current is set for a token that says it was sealed as this build seals: its state is read only as the move
		// is played, which this test does not check.
		current bool
	}{
		{"this build's token", started.GetToken(), true, false},
		{"another rules version, a private form, which says no rules version", reseal(seal.Format2, version+1, private), false, false},
		{"another rules version, in wire form", reseal(seal.Format2, version+1, wire(state)), true, false},
		{"format 1, in wire form", reseal(seal.Format1, 0, wire(state)), true, false},
		{"format 1, in the private form", reseal(seal.Format1, 0, private), true, false},
		{"a newer format", "v3." + rest, false, false},
		{"a format of another kind", "x9.", false, false},
		{"another rules version, a state of those rules", reseal(seal.Format2, version+1, wire(otherRules)), false, false},
		{"format 1, a state of other rules", reseal(seal.Format1, 0, wire(otherRules)), false, false},
		{"another rules version, a private form of another version", reseal(seal.Format2, version+1, []byte{engine.PrivateForm, 99}), false, false},
		{"format 1, bytes of no state", reseal(seal.Format1, 0, []byte{0xff, 0xff, 0xff}), false, false},
		{"this rules version, bytes of no state", reseal(seal.Format2, version, []byte{0xff, 0xff, 0xff}), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.GetView(ctx, &rulebookv1.GetViewRequest{Game: "micropul", Token: tt.token})
			if tt.opens {
				if err != nil {
					t.Fatalf("GetView: %v", err)
				}
				playFirstMove(t, s, "micropul", tt.token, started.GetSeatPasses())
				return
			}
			wantRefusal(t, err, codes.InvalidArgument, seal.ReasonTokenVersionUnsupported)
			if field := fieldOf(err); field != "token" {
				t.Errorf("refused on the field %q, want token", field)
			}
			if tt.current {
				return
			}
			_, err = s.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "micropul", Token: tt.token, SeatPass: started.GetSeatPasses()[0],
				Move: &rulebookv1.Move{Player: 1}})
			wantRefusal(t, err, codes.InvalidArgument, seal.ReasonTokenVersionUnsupported)
		})
	}
}
