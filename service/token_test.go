package service_test

import (
	"context"
	"encoding/base64"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// TestTokenGames plays seeded games of every game twice, once with plain states and once with tokens held by the
// seats themselves, and checks at every ply that the token holds exactly the plain state, that each seat's answers
// are what that seat may know (the view of its seat, its own legal moves, the events as it may see them), and that
// the game ends the same.
func TestTokenGames(t *testing.T) {
	ctx := context.Background()
	for _, g := range games {
		game := g.Info().GetId()
		t.Run(game, func(t *testing.T) {
			// Two servers with clocks in step: the moves of both are stamped with the same receive times.
			s, tokens := newService(t, true), newService(t, true)
			const seed = 11
			plain, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: game, Seed: proto.Uint64(seed)})
			if err != nil {
				t.Fatal(err)
			}
			sealed, err := tokens.NewGame(ctx, &rulebookv1.NewGameRequest{Game: game, Seed: proto.Uint64(seed), Seal: true, Seat: 1})
			if err != nil {
				t.Fatal(err)
			}
			if sealed.GetState() != nil || len(sealed.GetSeatPasses()) == 0 {
				t.Fatalf("a sealed NewGame answered the state or no passes: %v", sealed)
			}
			if !proto.Equal(sealed.GetView(), viewOf(t, g, plain.GetState(), 1)) {
				t.Errorf("NewGame's view is not seat 1's view")
			}
			state, token, passes := plain.GetState(), sealed.GetToken(), sealed.GetSeatPasses()
			rng := rand.New(rand.NewPCG(seed, 2))
			for ply := 0; ply < 400; ply++ {
				if got := opener(t, game, token); !proto.Equal(got, state) {
					t.Fatalf("ply %d: the token does not hold the plain state", ply)
				}
				legal, err := s.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: game, State: state})
				if err != nil {
					t.Fatal(err)
				}
				if len(legal.GetMoves()) == 0 {
					break
				}
				move := legal.GetMoves()[rng.IntN(len(legal.GetMoves()))]
				seat := engine.Player(move.GetPlayer())
				pass := passes[seat-1]
				own, err := tokens.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: game, Token: token, SeatPass: pass})
				if err != nil {
					t.Fatal(err)
				}
				wantOwn, _ := position(t, g, state).Legal(seat)
				if !equalAll(own.GetMoves(), wantOwn) {
					t.Fatalf("ply %d: a token caller of seat %d got other moves than its own", ply, seat)
				}
				applied, err := s.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: game, State: state, Move: move})
				if err != nil {
					t.Fatal(err)
				}
				viaToken, err := tokens.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: game, Token: token, SeatPass: pass, Move: applied.GetMove()})
				if err != nil {
					t.Fatalf("ply %d: the token caller's move: %v", ply, err)
				}
				if viaToken.GetState() != nil {
					t.Fatalf("ply %d: a token caller got the full state", ply)
				}
				if !proto.Equal(viaToken.GetView(), viewOf(t, g, applied.GetState(), seat)) {
					t.Fatalf("ply %d: the token caller's view is not its seat's view", ply)
				}
				want := position(t, g, state).ViewEvents(applied.GetEvents(), seat)
				if !equalAll(viaToken.GetEvents(), want) {
					t.Fatalf("ply %d: the token caller's events are not the events its seat may see", ply)
				}
				state, token = applied.GetState(), viaToken.GetToken()
			}
			plainScore, _ := s.Score(ctx, &rulebookv1.ScoreRequest{Game: game, State: state})
			for _, pass := range append([]string{""}, passes...) {
				tokenScore, err := tokens.Score(ctx, &rulebookv1.ScoreRequest{Game: game, Token: token, SeatPass: pass})
				if err != nil || !proto.Equal(tokenScore, plainScore) {
					t.Errorf("score with pass %q: %v, %v; want %v", pass, tokenScore, err, plainScore)
				}
			}
		})
	}
}

// truncate returns token with the last byte of its sealed part cut off, still in the token format.
func truncate(t *testing.T, token string) string {
	t.Helper()
	cut := strings.LastIndexByte(token, '.') + 1
	sealed, err := base64.RawURLEncoding.DecodeString(token[cut:])
	if err != nil {
		t.Fatal(err)
	}
	return token[:cut] + base64.RawURLEncoding.EncodeToString(sealed[:len(sealed)-1])
}

// equalAll reports whether a and b hold equal messages in the same order.
func equalAll[M proto.Message](a, b []M) bool {
	return slices.EqualFunc(a, b, func(x, y M) bool { return proto.Equal(x, y) })
}

// TestTokenRefusals checks every way a token caller can be refused: forged, altered, swapped or stale tokens, seat
// passes of other seats, tables and games, acting for another seat, and plain states or seeds on a token-only server.
func TestTokenRefusals(t *testing.T) {
	ctx := context.Background()
	s := newService(t, false)
	newGame := func(game string) *rulebookv1.NewGameResponse {
		resp, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: game})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	mp, other, ex := newGame("micropul"), newGame("micropul"), newGame("exploze")
	mpLegal, err := s.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: "micropul", Token: mp.GetToken(), SeatPass: mp.GetSeatPasses()[0]})
	if err != nil || len(mpLegal.GetMoves()) == 0 {
		t.Fatalf("seat 1's legal moves: %v, %v", mpLegal, err)
	}
	move := mpLegal.GetMoves()[0]              // seat 1's
	flip := func(token string, i int) string { // another base64 character: still well formed
		b := []byte(token)
		b[i] = map[bool]byte{true: 'B', false: 'A'}[b[i] == 'A']
		return string(b)
	}
	foreign := newService(t, false, servertest.Key(t, "elsewhere", 9))
	foreignGame, err := foreign.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "micropul"})
	if err != nil {
		t.Fatal(err)
	}
	apply := func(game, token, pass string, m *rulebookv1.Move) error {
		_, err := s.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: game, Token: token, SeatPass: pass, Move: m})
		return err
	}
	mpToken, pass1, pass2 := mp.GetToken(), mp.GetSeatPasses()[0], mp.GetSeatPasses()[1]
	seat2Move := proto.Clone(move).(*rulebookv1.Move)
	seat2Move.Player = 2
	tests := []struct {
		name       string
		err        error
		wantCode   codes.Code
		wantReason string
	}{
		{"the move itself is fine", apply("micropul", mpToken, pass1, move), codes.OK, ""},
		{"plain state", func() error {
			_, err := s.Score(ctx, &rulebookv1.ScoreRequest{Game: "micropul", State: &rulebookv1.GameState{}})
			return err
		}(), codes.PermissionDenied, service.ReasonPlainStateRefused},
		{"chosen seed", func() error {
			_, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "micropul", Seed: proto.Uint64(1)})
			return err
		}(), codes.PermissionDenied, service.ReasonSeedRefused},
		{"a bit flipped in the sealed part", apply("micropul", flip(mpToken, len(mpToken)-9), pass1, move), codes.InvalidArgument, seal.ReasonTokenInvalid},
		{"a bit flipped in the key id", apply("micropul", flip(mpToken, 3), pass1, move), codes.InvalidArgument, seal.ReasonTokenUnknownKey},
		{"truncated", apply("micropul", truncate(t, mpToken), pass1, move), codes.InvalidArgument, seal.ReasonTokenInvalid},
		{"not a token", apply("micropul", "hello", pass1, move), codes.InvalidArgument, seal.ReasonTokenMalformed},
		{"too long for the API", apply("micropul", strings.Repeat("a", 262145), pass1, move), codes.InvalidArgument, service.ReasonFieldTooLarge},
		{"token of another game", apply("micropul", ex.GetToken(), pass1, move), codes.InvalidArgument, seal.ReasonTokenInvalid},
		{"token sent as another game", apply("exploze", mpToken, "", &rulebookv1.Move{Player: 1}), codes.InvalidArgument, seal.ReasonTokenInvalid},
		{"token of a key this server lacks", apply("micropul", foreignGame.GetToken(), "", move), codes.InvalidArgument, seal.ReasonTokenUnknownKey},
		{"pass of another table", apply("micropul", mpToken, other.GetSeatPasses()[0], move), codes.PermissionDenied, seal.ReasonSeatPassInvalid},
		{"pass of another game", apply("micropul", mpToken, ex.GetSeatPasses()[0], move), codes.PermissionDenied, seal.ReasonSeatPassInvalid},
		{"pass with its seat changed", apply("micropul", mpToken, "2"+pass1[1:], move), codes.PermissionDenied, seal.ReasonSeatPassInvalid},
		{"malformed pass", apply("micropul", mpToken, "one", move), codes.InvalidArgument, seal.ReasonSeatPassMalformed},
		{"moving for another seat", apply("micropul", mpToken, pass2, move), codes.PermissionDenied, service.ReasonNotYourSeat},
		{"moving with another seat's number", apply("micropul", mpToken, pass1, seat2Move), codes.PermissionDenied, service.ReasonNotYourSeat},
		{"a spectator moving", apply("micropul", mpToken, "", move), codes.PermissionDenied, service.ReasonNotYourSeat},
		{"another seat's legal moves", func() error {
			_, err := s.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: "micropul", Token: mpToken, SeatPass: pass1, Player: 2})
			return err
		}(), codes.PermissionDenied, service.ReasonNotYourSeat},
		{"another seat's view", func() error {
			_, err := s.GetView(ctx, &rulebookv1.GetViewRequest{Game: "micropul", Token: mpToken, SeatPass: pass2, Viewer: 1})
			return err
		}(), codes.PermissionDenied, service.ReasonNotYourSeat},
		{"state and token", func() error {
			_, err := s.Score(ctx, &rulebookv1.ScoreRequest{Game: "micropul", Token: mpToken, State: &rulebookv1.GameState{}})
			return err
		}(), codes.InvalidArgument, service.ReasonConflictingFields},
		{"neither state nor token", func() error {
			_, err := s.Score(ctx, &rulebookv1.ScoreRequest{Game: "micropul"})
			return err
		}(), codes.InvalidArgument, service.ReasonMissingField},
		{"seat the game lacks", func() error {
			_, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "micropul", Seat: 3})
			return err
		}(), codes.InvalidArgument, service.ReasonNoSuchSeat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.wantCode == codes.OK {
				if tt.err != nil {
					t.Fatal(tt.err)
				}
				return
			}
			wantRefusal(t, tt.err, tt.wantCode, tt.wantReason)
		})
	}
}

// TestKeyRotation checks that a new sealing key keeps old games playable: a token sealed under the old key opens on
// a server whose first key is new, and the answer is sealed under the new key; once the old key is retired, its
// tokens are refused as sealed under an unknown key.
func TestKeyRotation(t *testing.T) {
	ctx := context.Background()
	oldKey, newKey := servertest.Key(t, "old", 1), servertest.Key(t, "new", 2)
	before := newService(t, false, oldKey)
	game, err := before.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze"})
	if err != nil {
		t.Fatal(err)
	}
	move := &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{}}}
	rotated := newService(t, false, newKey, oldKey)
	resp, err := rotated.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: game.GetToken(), SeatPass: game.GetSeatPasses()[0], Move: move})
	if err != nil {
		t.Fatalf("an old game after rotation: %v", err)
	}
	if !strings.HasPrefix(resp.GetToken(), "v2.new.") {
		t.Errorf("the answer is not sealed under the new key: %.12s...", resp.GetToken())
	}
	retired := newService(t, false, newKey)
	_, err = retired.Score(ctx, &rulebookv1.ScoreRequest{Game: "exploze", Token: game.GetToken()})
	wantRefusal(t, err, codes.InvalidArgument, seal.ReasonTokenUnknownKey)
	if _, err := retired.Score(ctx, &rulebookv1.ScoreRequest{Game: "exploze", Token: resp.GetToken()}); err != nil {
		t.Errorf("the re-sealed game after the old key is retired: %v", err)
	}
}
