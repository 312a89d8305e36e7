package service

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/deadline"
	"github.com/rulebook/rulebook/internal/refusal"
)

// SuggestMove searches for a move of one seat: within the request's think time (wall-clock) or, without one, the
// iterations of its level; never past the moment by which the call must answer to reach its caller by its deadline
// (deadline.Last, less stallFactor times the longest stall the search saw). A call with less than deadline.Minimum
// left when it begins is refused. A token caller gets suggestions for its own seat only, and the search sees only
// what that seat may see.
func (s *Service) SuggestMove(ctx context.Context, req *rulebookv1.SuggestMoveRequest) (*rulebookv1.SuggestMoveResponse, error) {
	start := time.Now()
	last, left, bounded := deadline.Last(ctx, start)
	if bounded && left < deadline.Minimum {
		return nil, deadlineTooShort()
	}
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
	suggestion, err := h.pos.Suggest(seat, suggestBudget(ctx, s.info(h.game), time.Now(), last, req))
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

// stallFactor is how many times the longest stall a search saw (the longest time between two of its polls of Stop:
// the time the machine kept it from running, or a long step of the search) it stops earlier than the call's last
// moment: its answer's way back, out of the server and into its caller, may meet such stalls too.
const stallFactor = 2

// suggestBudget returns the budget of req's search in the game info describes, begun at start: its think time from
// start or its level's iterations (engine.Iterations), stopped, if that comes first, at last (the moment by which the
// call must answer; zero for none) less stallFactor times the longest stall seen between two polls of Stop, or once
// ctx ends.
func suggestBudget(ctx context.Context, info *rulebookv1.GameInfo, start, last time.Time,
	req *rulebookv1.SuggestMoveRequest) engine.Budget {
	level := engine.Level(req.GetLevel())
	if req.GetLevel() == rulebookv1.BotLevel_BOT_LEVEL_UNSPECIFIED {
		level = engine.Medium
	}
	b := engine.Budget{Level: level, Iterations: engine.Iterations(info, level), Seed: req.GetSeed()}
	var thought time.Time
	if req.GetThinkTime() != nil {
		b.Iterations = 0
		thought = start.Add(req.GetThinkTime().AsDuration())
	}
	// In nanoseconds from start: when Stop was last polled, the longest time between two polls, and when the search
	// last yielded.
	var polled, stalled, yielded atomic.Int64
	b.Stop = func() bool {
		now := time.Now()
		since := int64(now.Sub(start))
		if gap := since - polled.Swap(since); gap > stalled.Load() {
			stalled.Store(gap)
		}
		if since-yielded.Load() >= int64(yieldEvery) {
			yielded.Store(since)
			runtime.Gosched()
		}
		return ctx.Err() != nil || !thought.IsZero() && !now.Before(thought) ||
			!last.IsZero() && !now.Before(last.Add(-stallFactor*time.Duration(stalled.Load())))
	}
	return b
}

// deadlineTooShort is the INVALID_ARGUMENT error of a SuggestMove call with less than deadline.Minimum left.
func deadlineTooShort() error {
	minimum := deadline.Minimum.String()
	return refusal.New(codes.InvalidArgument, ReasonDeadlineTooShort, "a suggestion needs at least "+minimum+
		" before the call's deadline when the call begins, for its answer to reach the caller in time",
		map[string]string{"minimum": minimum})
}

// yieldEvery is how often a bot's search lets other goroutines run (runtime.Gosched, when it checks its budget, at
// most this often): Go has no priorities among goroutines, and a search that kept its CPU for the scheduler's whole
// time slice (10 ms) would make the light calls queued behind it wait that long.
const yieldEvery = 200 * time.Microsecond
