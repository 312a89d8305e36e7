package service_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/deadline"
	"github.com/rulebook/rulebook/service"
)

// TestSuggestMove checks, for every game, that a suggestion on a plain state is a legal move of the player to move,
// that its principal variation starts with it, and that the same seed and level give the same suggestion.
func TestSuggestMove(t *testing.T) {
	s := newService(t, true)
	ctx := context.Background()
	for _, g := range games {
		game := g.Info().GetId()
		t.Run(game, func(t *testing.T) {
			state := newState(t, g, nil, 3)
			req := &rulebookv1.SuggestMoveRequest{Game: game, State: state, Level: rulebookv1.BotLevel_BOT_LEVEL_EASY, Seed: 5}
			first, err := s.SuggestMove(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.ValidateMove(ctx, &rulebookv1.ValidateMoveRequest{Game: game, State: state, Move: first.GetMove()}); err != nil {
				t.Errorf("the suggestion %v is refused: %v", first.GetMove(), err)
			}
			if pv := first.GetPrincipalVariation(); len(pv) == 0 || !proto.Equal(pv[0], first.GetMove()) {
				t.Errorf("principal variation %v does not start with the move %v", pv, first.GetMove())
			}
			again, err := s.SuggestMove(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			first.Thought, again.Thought = nil, nil
			if !proto.Equal(first, again) {
				t.Errorf("same seed and level, another suggestion:\n%v\n%v", first, again)
			}
		})
	}
}

// TestSuggestMoveThinkTime checks that a think time, instead of a level's iterations, searches and answers a move.
func TestSuggestMoveThinkTime(t *testing.T) {
	s := newService(t, true)
	state := newState(t, games[0], nil, 1)
	resp, err := s.SuggestMove(context.Background(), &rulebookv1.SuggestMoveRequest{Game: "exploze", State: state,
		ThinkTime: durationpb.New(2e6)})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetMove().GetExploze() == nil || resp.GetThought() == nil {
		t.Errorf("answer %v: want an Exploze move and the time thought", resp)
	}
}

// TestSuggestMoveRefusals checks the refusals of SuggestMove: seats a token caller may not ask for, a seat that may
// not move, a game over, and bounds of the request.
func TestSuggestMoveRefusals(t *testing.T) {
	s := newService(t, false)
	plain := newService(t, true)
	ctx := context.Background()
	resp, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze"})
	if err != nil {
		t.Fatal(err)
	}
	token, passes := resp.GetToken(), resp.GetSeatPasses()
	_, over := randomGame(t, plain, "exploze", 4, 10000)
	start := newState(t, games[0], nil, 1)
	for _, c := range []struct {
		name   string
		s      bool // on the server that accepts plain states
		req    *rulebookv1.SuggestMoveRequest
		code   codes.Code
		reason string
	}{
		{"seat of the pass", false, &rulebookv1.SuggestMoveRequest{Token: token, SeatPass: passes[0], Player: 1}, codes.OK, ""},
		{"another seat", false, &rulebookv1.SuggestMoveRequest{Token: token, SeatPass: passes[0], Player: 2},
			codes.PermissionDenied, "NOT_YOUR_SEAT"},
		{"spectator", false, &rulebookv1.SuggestMoveRequest{Token: token}, codes.PermissionDenied, "NOT_YOUR_SEAT"},
		{"not its turn", false, &rulebookv1.SuggestMoveRequest{Token: token, SeatPass: passes[1]}, codes.FailedPrecondition,
			engine.ReasonNoLegalMove},
		{"game over", true, &rulebookv1.SuggestMoveRequest{State: over}, codes.FailedPrecondition, engine.ReasonGameOver},
		{"no such player", true, &rulebookv1.SuggestMoveRequest{State: start, Player: 3}, codes.InvalidArgument,
			engine.ReasonPlayerOutOfRange},
		{"plain state", false, &rulebookv1.SuggestMoveRequest{State: start}, codes.PermissionDenied, "PLAIN_STATE_REFUSED"},
		{"think time too long", true, &rulebookv1.SuggestMoveRequest{State: start, ThinkTime: durationpb.New(11e9)},
			codes.InvalidArgument, "FIELD_OUT_OF_RANGE"},
		{"think time too short", true, &rulebookv1.SuggestMoveRequest{State: start, ThinkTime: durationpb.New(1)},
			codes.InvalidArgument, "FIELD_OUT_OF_RANGE"},
		{"unknown level", true, &rulebookv1.SuggestMoveRequest{State: start, Level: 9}, codes.InvalidArgument,
			"FIELD_OUT_OF_RANGE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.req.Game, c.req.Level = "exploze", max(c.req.Level, rulebookv1.BotLevel_BOT_LEVEL_EASY)
			srv := s
			if c.s {
				srv = plain
			}
			_, err := srv.SuggestMove(ctx, c.req)
			if c.code == codes.OK {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRefusal(t, err, c.code, c.reason)
		})
	}
}

// TestSuggestMoveDeadline checks SuggestMove's answers by the time its call has left: too little (none, or less
// than deadline.Minimum) is refused DEADLINE_TOO_SHORT at once; a deadline far shorter than the think time, but long
// enough, answers a move searched until the deadline less its margin. (The times are far apart, so that the outcome
// does not depend on the machine's speed.)
func TestSuggestMoveDeadline(t *testing.T) {
	s := newService(t, true)
	state := newState(t, games[0], nil, 1)
	for _, c := range []struct {
		name    string
		timeout time.Duration
		code    codes.Code
	}{
		{"past", -time.Second, codes.InvalidArgument},
		{"below the minimum", deadline.Minimum / 2, codes.InvalidArgument},
		{"shorter than the think time", 2 * time.Second, codes.OK},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
			defer cancel()
			resp, err := s.SuggestMove(ctx, &rulebookv1.SuggestMoveRequest{Game: "exploze", State: state,
				ThinkTime: durationpb.New(10 * time.Second)})
			if c.code != codes.OK {
				wantRefusal(t, err, c.code, service.ReasonDeadlineTooShort)
				return
			}
			if err != nil || resp.GetMove().GetExploze() == nil || resp.GetIterations() == 0 {
				t.Errorf("answer %v, %v: want a move, searched", resp, err)
			}
		})
	}
}
