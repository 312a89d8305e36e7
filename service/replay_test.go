package service_test

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service"
)

// TestReplayReproducesGames replays recorded games of every game from their setup and checks that the replay ends in
// exactly the recorded final state, with one step per move and no refusal: two seeds of each game, in parallel (one
// with go test -short, five at the long depth).
func TestReplayReproducesGames(t *testing.T) {
	seeds := enginetest.ByDepth(1, 2, 5)
	for _, g := range games {
		game := g.Info().GetId()
		for seed := range uint64(seeds) {
			seed++
			t.Run(fmt.Sprintf("%s/seed%d", game, seed), func(t *testing.T) {
				t.Parallel()
				s := newService(t, true) // its own: a service's test clock is not safe for concurrent calls
				moves, final := randomGame(t, s, game, seed, 2000)
				resp, err := s.Replay(context.Background(), &rulebookv1.ReplayRequest{Game: game,
					Setup: &rulebookv1.GameSetup{Seed: seed}, Moves: moves})
				if err != nil {
					t.Fatal(err)
				}
				if resp.GetRefusal() != nil || len(resp.GetSteps()) != len(moves) {
					t.Fatalf("refusal %v, %d steps for %d moves", resp.GetRefusal(), len(resp.GetSteps()), len(moves))
				}
				if !proto.Equal(resp.GetState(), final) {
					t.Errorf("the replay does not end in the recorded state")
				}
				want := position(t, g, final).Score()
				if !proto.Equal(resp.GetScore(), want) {
					t.Errorf("score %v, want %v", resp.GetScore(), want)
				}
			})
		}
	}
}

// TestReplayCatchesDoctoredRecords changes one move of a recorded game and checks that the replay stops there: the
// refusal names the doctored move's index and the rule it breaks, and the state is the one before it.
func TestReplayCatchesDoctoredRecords(t *testing.T) {
	ctx := context.Background()
	s := newService(t, true)
	moves, _ := randomGame(t, s, "exploze", 5, 40)
	const doctored = 7
	record := make([]*rulebookv1.Move, len(moves))
	copy(record, moves)
	record[doctored] = proto.Clone(moves[doctored]).(*rulebookv1.Move)
	record[doctored].Player = 3 - record[doctored].Player // the other player moves out of turn
	resp, err := s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Setup: &rulebookv1.GameSetup{Seed: 5}, Moves: record})
	if err != nil {
		t.Fatal(err)
	}
	r := resp.GetRefusal()
	if r.GetIndex() != doctored || r.GetReason() != "NOT_YOUR_TURN" || codes.Code(r.GetCode()) != codes.FailedPrecondition {
		t.Errorf("refusal %v, want index %d NOT_YOUR_TURN", r, doctored)
	}
	before, err := s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Setup: &rulebookv1.GameSetup{Seed: 5}, Moves: moves[:doctored]})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetSteps()) != doctored || !proto.Equal(resp.GetState(), before.GetState()) {
		t.Errorf("%d steps, and the state is not the one before the doctored move", len(resp.GetSteps()))
	}

	offBoard := proto.Clone(moves[doctored]).(*rulebookv1.Move)
	offBoard.GetExploze().Row = 20
	record[doctored] = offBoard
	resp, err = s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Setup: &rulebookv1.GameSetup{Seed: 5}, Moves: record})
	if err != nil {
		t.Fatal(err)
	}
	if r := resp.GetRefusal(); r.GetIndex() != doctored || r.GetField() != "moves[7].exploze.row" {
		t.Errorf("refusal %v, want index %d on moves[7].exploze.row", r, doctored)
	}
}

// TestReplayTokens checks the two kinds of token record: a batch of the caller's own moves, which ends in a token
// to play on and refuses another seat's move; and an audit of a finished game every seat played, checked token by
// token, which catches a doctored token at its index, reports another seat's failing move without its reason, and is
// refused for a game not yet over (where whether another seat's move succeeds would tell what that seat holds).
func TestReplayTokens(t *testing.T) {
	ctx := context.Background()
	s := newService(t, false)
	move := func(player, row, col int32) *rulebookv1.Move {
		return &rulebookv1.Move{Player: player, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: row, Col: col}}}
	}
	start, moves, tokens := tokenGame(t, s, 3)
	passes := start.GetSeatPasses()
	last := len(moves) - 1

	audit, err := s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Token: start.GetToken(), Moves: moves, Tokens: tokens})
	if err != nil {
		t.Fatal(err)
	}
	if audit.GetRefusal() != nil || len(audit.GetSteps()) != len(moves) || audit.GetToken() != tokens[last] ||
		audit.GetState() != nil || !audit.GetScore().GetGameOver() {
		t.Errorf("audit of a true record: refusal %v, %d steps of %d, last token kept: %v", audit.GetRefusal(),
			len(audit.GetSteps()), len(moves), audit.GetToken() == tokens[last])
	}

	doctored := append([]string(nil), tokens...)
	doctored[2] = tokens[1]
	audit, err = s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Token: start.GetToken(), Moves: moves, Tokens: doctored})
	if err != nil {
		t.Fatal(err)
	}
	if r := audit.GetRefusal(); r.GetIndex() != 2 || r.GetReason() != service.ReasonRecordMismatch || len(audit.GetSteps()) != 2 {
		t.Errorf("a doctored token: refusal %v after %d steps, want index 2 %s", r, len(audit.GetSteps()), service.ReasonRecordMismatch)
	}

	wrongMoves := append([]*rulebookv1.Move(nil), moves...)
	first := moves[0].GetExploze()
	wrongMoves[1] = move(2, first.GetRow(), first.GetCol()) // seat 2 on seat 1's cell: illegal, but seat 1 is not told why
	audit, err = s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Token: start.GetToken(), SeatPass: passes[0], Moves: wrongMoves, Tokens: tokens})
	if err != nil {
		t.Fatal(err)
	}
	if r := audit.GetRefusal(); r.GetIndex() != 1 || r.GetReason() != service.ReasonRecordMismatch {
		t.Errorf("another seat's illegal move in an audit: refusal %v, want index 1 %s", r, service.ReasonRecordMismatch)
	}

	_, err = s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Token: start.GetToken(), SeatPass: passes[0],
		Moves: moves[:2], Tokens: tokens[:2]})
	wantRefusal(t, err, codes.FailedPrecondition, service.ReasonRecordUnfinished)

	batch, err := s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Token: tokens[1], SeatPass: passes[moves[2].GetPlayer()-1],
		Moves: []*rulebookv1.Move{moves[2], moves[3]}})
	if err != nil {
		t.Fatal(err)
	}
	r := batch.GetRefusal()
	if len(batch.GetSteps()) != 1 || r.GetIndex() != 1 || r.GetReason() != service.ReasonNotYourSeat || codes.Code(r.GetCode()) != codes.PermissionDenied {
		t.Errorf("a batch with another seat's move: %d steps, refusal %v", len(batch.GetSteps()), r)
	}
	if _, err := s.Score(ctx, &rulebookv1.ScoreRequest{Game: "exploze", Token: batch.GetToken()}); err != nil {
		t.Errorf("the batch's token: %v", err)
	}

	_, err = s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Setup: &rulebookv1.GameSetup{Seed: 1}})
	wantRefusal(t, err, codes.PermissionDenied, service.ReasonPlainStateRefused)
	_, err = s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Token: start.GetToken(), Moves: moves, Tokens: tokens[:2]})
	wantRefusal(t, err, codes.InvalidArgument, service.ReasonRecordTokens)
	_, err = s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Token: start.GetToken(), Seal: true})
	wantRefusal(t, err, codes.InvalidArgument, service.ReasonConflictingFields)
}

// tokenGame plays a seeded Exploze game on a size x size board to its end with tokens, each seat with its own pass,
// and returns its NewGame answer, the moves as applied and the token after each.
func tokenGame(t *testing.T, s *service.Service, size int32) (*rulebookv1.NewGameResponse, []*rulebookv1.Move, []string) {
	t.Helper()
	ctx := context.Background()
	start, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze",
		Options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{Rows: size, Cols: size}}}})
	if err != nil {
		t.Fatal(err)
	}
	var moves []*rulebookv1.Move
	var tokens []string
	token := start.GetToken()
	for range 500 {
		view, err := s.GetView(ctx, &rulebookv1.GetViewRequest{Game: "exploze", Token: token})
		if err != nil {
			t.Fatal(err)
		}
		seat := view.GetView().GetExploze().GetToMove()
		pass := start.GetSeatPasses()[seat-1]
		legal, err := s.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: "exploze", Token: token, SeatPass: pass})
		if err != nil {
			t.Fatal(err)
		}
		ms := legal.GetMoves()
		resp, err := s.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: token, SeatPass: pass, Move: ms[len(moves)*7%len(ms)]})
		if err != nil {
			t.Fatal(err)
		}
		moves, tokens, token = append(moves, resp.GetMove()), append(tokens, resp.GetToken()), resp.GetToken()
		score, err := s.Score(ctx, &rulebookv1.ScoreRequest{Game: "exploze", Token: token})
		if err != nil {
			t.Fatal(err)
		}
		if score.GetScore().GetGameOver() {
			return start, moves, tokens
		}
	}
	t.Fatal("the game did not end")
	return nil, nil, nil
}

// TestReplayDeadline checks that a replay stops when its call is cancelled.
func TestReplayDeadline(t *testing.T) {
	s := newService(t, true)
	moves, _ := randomGame(t, s, "exploze", 9, 30)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Setup: &rulebookv1.GameSetup{Seed: 9}, Moves: moves})
	if code, _ := reasonOf(err); code != codes.Canceled {
		t.Errorf("a cancelled replay: %v, want CANCELED", err)
	}
}

// TestReplayRefusesBadStarts checks that a record whose start is at fault is refused as a whole, not blamed on its
// first move, and that fields that do not go with the start are refused rather than ignored.
func TestReplayRefusesBadStarts(t *testing.T) {
	ctx := context.Background()
	s := newService(t, true)
	moves, state := randomGame(t, s, "micropul", 6, 4)
	view, err := s.GetView(ctx, &rulebookv1.GetViewRequest{Game: "micropul", State: state, Viewer: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "micropul", State: view.GetView(), Moves: moves[:1]})
	wantRefusal(t, err, codes.InvalidArgument, "STATE_IS_VIEW")
	_, err = s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "micropul", Setup: &rulebookv1.GameSetup{Seed: 6}, SeatPass: "1.AAAA"})
	wantRefusal(t, err, codes.InvalidArgument, service.ReasonPassWithoutToken)
}
