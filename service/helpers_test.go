package service_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
	"github.com/rulebook/rulebook/engine/ubongoduel"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// games are the games the tests host.
var games = []engine.Game{exploze.Game{}, kipicot.Game{}, micropul.Game{}, ubongoduel.Game{}}

// newService returns a Service with the given keys (one test key if none) that accepts plain states if plain.
func newService(t testing.TB, plain bool, keys ...seal.Key) *service.Service {
	t.Helper()
	if len(keys) == 0 {
		keys = []seal.Key{servertest.Key(t, "test", 1)}
	}
	ring, err := seal.NewKeyring(keys...)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(1_800_000_000, 0) // receive times that are the same in every run, a millisecond apart
	now := func() time.Time {
		clock = clock.Add(time.Millisecond)
		return clock
	}
	s, err := service.New(zap.NewNop(), service.Config{Keys: ring, AcceptPlainStates: plain, Now: now}, games...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// opener opens tokens sealed with the default test key, of either scope, returning the envelope of the state they hold.
func opener(t testing.TB, game, token string) *rulebookv1.GameState {
	t.Helper()
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ring.Open(game, token, seal.ScopePlain)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	i := slices.IndexFunc(games, func(g engine.Game) bool { return g.Info().GetId() == game })
	if i < 0 {
		t.Fatalf("no game %q", game)
	}
	pos, err := games[i].Open(c.State)
	if err != nil {
		t.Fatal(err)
	}
	return pos.Encode()
}

// newState returns the initial state of g with opts and seed, or fails.
func newState(t testing.TB, g engine.Game, opts *rulebookv1.GameOptions, seed uint64) *rulebookv1.GameState {
	t.Helper()
	pos, err := g.New(opts, seed)
	if err != nil {
		t.Fatal(err)
	}
	return pos.Encode()
}

// viewOf returns what seat may see of state, a state of g, or fails.
func viewOf(t testing.TB, g engine.Game, state *rulebookv1.GameState, seat engine.Player) *rulebookv1.GameState {
	t.Helper()
	view, err := position(t, g, state).View(seat)
	if err != nil {
		t.Fatal(err)
	}
	return view.Encode()
}

// position returns state, a state of g, as a position, or fails.
func position(t testing.TB, g engine.Game, state *rulebookv1.GameState) engine.Position {
	t.Helper()
	pos, err := g.Decode(state)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// reasonOf returns the code and the ErrorInfo reason of err.
func reasonOf(err error) (codes.Code, string) {
	st := status.Convert(err)
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return st.Code(), info.GetReason()
		}
	}
	return st.Code(), ""
}

// fieldOf returns the first field violation's field of err, if any.
func fieldOf(err error) string {
	for _, d := range status.Convert(err).Details() {
		if br, ok := d.(*errdetails.BadRequest); ok && len(br.GetFieldViolations()) > 0 {
			return br.GetFieldViolations()[0].GetField()
		}
	}
	return ""
}

// wantRefusal fails unless err has code and reason.
func wantRefusal(t testing.TB, err error, code codes.Code, reason string) {
	t.Helper()
	gotCode, gotReason := reasonOf(err)
	if gotCode != code || gotReason != reason {
		t.Errorf("got %v %q (%v), want %v %q", gotCode, gotReason, err, code, reason)
	}
}

// randomGame plays a seeded game of g from NewGame to its end (or maxMoves) through s with plain states, and returns
// the seed, the moves and the final state.
func randomGame(t testing.TB, s *service.Service, game string, seed uint64, maxMoves int) ([]*rulebookv1.Move, *rulebookv1.GameState) {
	t.Helper()
	ctx := context.Background()
	resp, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: game, Seed: proto.Uint64(seed)})
	if err != nil {
		t.Fatal(err)
	}
	state := resp.GetState()
	rng := rand.New(rand.NewPCG(seed, 1))
	var moves []*rulebookv1.Move
	for range maxMoves {
		legal, err := s.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: game, State: state})
		if err != nil {
			t.Fatal(err)
		}
		if len(legal.GetMoves()) == 0 {
			break
		}
		move := legal.GetMoves()[rng.IntN(len(legal.GetMoves()))]
		applied, err := s.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: game, State: state, Move: move})
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, applied.GetMove())
		state = applied.GetState()
	}
	return moves, state
}
