package service

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// suggestMargin is how long before the call's deadline SuggestMove's search stops, besides a tenth of the time the
// call had left when it began: the time to answer.
const suggestMargin = 10 * time.Millisecond

// SuggestMove searches for a move of one seat: within the request's think time (wall-clock) or, without one, the
// iterations of its level; never past the call's deadline less a margin. A token caller gets suggestions for its own
// seat only, and the search sees only what that seat may see.
func (s *Service) SuggestMove(ctx context.Context, req *rulebookv1.SuggestMoveRequest) (*rulebookv1.SuggestMoveResponse, error) {
	start := time.Now()
	h, err := s.openGame(ctx, req, req.GetGame(), req.GetState(), req.GetToken(), req.GetSeatPass())
	if err != nil {
		return nil, err
	}
	seat, err := h.askedSeat(engine.Player(req.GetPlayer()), "player")
	if err != nil {
		return nil, err
	}
	if h.sealed && seat == engine.NoPlayer { // a spectator has no move to be suggested
		return nil, notYourSeat(seat, "player", req.GetPlayer())
	}
	suggestion, err := h.pos.Suggest(seat, suggestBudget(ctx, time.Now(), req))
	if err != nil {
		return nil, s.refuse("SuggestMove", err)
	}
	resp := &rulebookv1.SuggestMoveResponse{Move: suggestion.Move, Evaluation: suggestion.Evaluation,
		PrincipalVariation: suggestion.PrincipalVariation, Iterations: suggestion.Iterations,
		Thought: durationpb.New(time.Since(start))}
	if suggestion.Delay > 0 {
		resp.Delay = durationpb.New(suggestion.Delay)
	}
	return resp, nil
}

// suggestBudget returns the budget of req's search, begun at start: its think time from start or its level's
// iterations, stopped at the call's deadline less a margin (suggestMargin and a tenth of the time left) if that
// comes first.
func suggestBudget(ctx context.Context, start time.Time, req *rulebookv1.SuggestMoveRequest) engine.Budget {
	level := engine.Level(req.GetLevel())
	if req.GetLevel() == rulebookv1.BotLevel_BOT_LEVEL_UNSPECIFIED {
		level = engine.Medium
	}
	b := engine.Budget{Level: level, Iterations: level.Iterations(), Seed: req.GetSeed()}
	var stopAt time.Time
	if req.GetThinkTime() != nil {
		b.Iterations = 0
		stopAt = start.Add(req.GetThinkTime().AsDuration())
	}
	if deadline, ok := ctx.Deadline(); ok {
		if last := deadline.Add(-suggestMargin - deadline.Sub(start)/10); stopAt.IsZero() || last.Before(stopAt) {
			stopAt = last
		}
	}
	var yielded atomic.Int64 // when the search last yielded, in nanoseconds from start
	b.Stop = func() bool {
		now := time.Now()
		if since := int64(now.Sub(start)); since-yielded.Load() >= int64(yieldEvery) {
			yielded.Store(since)
			runtime.Gosched()
		}
		return ctx.Err() != nil || !stopAt.IsZero() && !now.Before(stopAt)
	}
	return b
}

// yieldEvery is how often a bot's search lets other goroutines run (runtime.Gosched, when it checks its budget, at most this often): Go
// has no priorities among goroutines, and a search that kept its CPU for the scheduler's whole time slice (10 ms)
// would make the light calls queued behind it wait that long.
const yieldEvery = 200 * time.Microsecond
