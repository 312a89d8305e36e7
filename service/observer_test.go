package service_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"go.uber.org/zap"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// recorder is an Observer that keeps what it is told.
type recorder struct {
	mu     sync.Mutex
	opens  []string
	moves  []string // the game of each move applied
	events int
	nodes  []int64
}

// TokenOpened keeps result.
func (r *recorder) TokenOpened(result string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opens = append(r.opens, result)
}

// MoveApplied keeps the game and counts the events.
func (r *recorder) MoveApplied(game string, events []*rulebookv1.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.moves = append(r.moves, game)
	r.events += len(events)
}

// PuzzleSearched keeps nodes.
func (r *recorder) PuzzleSearched(nodes int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nodes = append(r.nodes, nodes)
}

// TestObserver checks what the service tells its observer: each token it opens and how (a good one, an altered
// one), each move applied by ApplyMove and by Replay with its events, and the nodes of a puzzle search.
func TestObserver(t *testing.T) {
	ring, err := seal.NewKeyring(servertest.Key(t, "test", 1))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	s, err := service.New(zap.NewNop(), service.Config{Keys: ring, Observer: rec}, games...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	game, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze", Seal: true})
	if err != nil {
		t.Fatal(err)
	}
	applied, err := s.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: game.GetToken(),
		SeatPass: game.GetSeatPasses()[0], Move: servertest.ExplozeMove(1)})
	if err != nil {
		t.Fatal(err)
	}
	altered := applied.GetToken()[:len(applied.GetToken())-2] + "AA"
	if _, err := s.Score(ctx, &rulebookv1.ScoreRequest{Game: "exploze", Token: altered}); err == nil {
		t.Fatal("an altered token opened")
	}
	if _, err := s.Replay(ctx, &rulebookv1.ReplayRequest{Game: "exploze", Token: applied.GetToken(), SeatPass: game.GetSeatPasses()[1],
		Moves: []*rulebookv1.Move{{Player: 2, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: 1, Col: 1}}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SolvePuzzle(ctx, &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(10, 6), Pieces: &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: "pentominoes"}}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"ok", seal.ReasonTokenInvalid, "ok"}; !slices.Equal(rec.opens, want) {
		t.Errorf("token opens %v, want %v", rec.opens, want)
	}
	if want := []string{"exploze", "exploze"}; !slices.Equal(rec.moves, want) || rec.events < 2 {
		t.Errorf("moves applied %v with %d events, want %v with their events", rec.moves, rec.events, want)
	}
	if len(rec.nodes) != 1 || rec.nodes[0] <= 0 {
		t.Errorf("puzzle searches %v, want one of some nodes", rec.nodes)
	}
}
