package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/cmd/rulebook/internal/explain"
	"github.com/rulebook/rulebook/cmd/rulebook/internal/narrate"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// bot chooses the moves of the seats the person does not play, against the bot.
type bot interface {
	// suggest returns a move of seat in g.
	suggest(ctx context.Context, g *document, seat int32) (suggestion, error)
}

// suggestion is a move the bot chose, and how long it waits before it plays it: in a race (Ubongo Duel), the time a
// bot of its level takes; 0 in a game of turns.
type suggestion struct {
	move  *rulebookv1.Move
	delay time.Duration
}

// botMoves plays a move of the bot's, when only its seats may move: the first of them in seat order, after the
// delay it asks for.
func (t *table) botMoves(ctx context.Context, movers []int32) error {
	if t.bot == nil || len(movers) == 0 {
		return fmt.Errorf("no seat of yours may move, and no bot plays the others (seats that may move: %s)",
			narrate.Seats(movers))
	}
	s, err := t.bot.suggest(ctx, t.g, movers[0])
	if err != nil {
		return fmt.Errorf("the bot: %s", explain.Refusal(t.e.game, err))
	}
	if s.delay > 0 {
		t.printf("player %d (bot) is thinking...\n", movers[0])
		if err := sleep(ctx, s.delay); err != nil {
			return err
		}
	}
	return t.botPlayed(ctx, raceResult{suggestion: s})
}

// botPlayed applies the bot's move.
func (t *table) botPlayed(ctx context.Context, r raceResult) error {
	if r.err != nil {
		return fmt.Errorf("the bot: %s", explain.Refusal(t.e.game, r.err))
	}
	applied, err := apply(ctx, t.e, t.g, r.move)
	if err != nil {
		return fmt.Errorf("the bot's move was refused: %s", explain.Refusal(t.e.game, err))
	}
	return t.played(ctx, applied, " (bot)")
}

// botRace is the bot playing while the person thinks, in a game where both may move at once (Ubongo Duel): the
// bot's suggestion, played once its delay has passed unless the person moves first.
type botRace struct {
	cancel context.CancelFunc
	done   chan raceResult
}

// raceResult is the bot's move in a race, or why it has none.
type raceResult struct {
	suggestion
	err error
}

// startRace starts the bot on its first seat among movers other than the person's, or returns nil when it has
// none.
func (t *table) startRace(ctx context.Context, movers []int32) *botRace {
	i := slices.IndexFunc(movers, func(s int32) bool { return s != t.seat })
	if i < 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	race := &botRace{cancel: cancel, done: make(chan raceResult, 1)}
	g, seat := t.g, movers[i]
	go func() {
		s, err := t.bot.suggest(ctx, g, seat)
		if err == nil {
			err = sleep(ctx, s.delay)
		}
		if ctx.Err() != nil {
			return // the person moved first, or left
		}
		race.done <- raceResult{suggestion: s, err: err}
	}()
	return race
}

// result returns the channel of the race's move, or nil (which never delivers) for no race.
func (r *botRace) result() <-chan raceResult {
	if r == nil {
		return nil
	}
	return r.done
}

// stop ends the race, if any.
func (r *botRace) stop() {
	if r != nil {
		r.cancel()
	}
}

// sleep waits for d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// isRefusal reports whether err is the server refusing a request (a move, a token, a pass) for what it holds,
// rather than a failure to reach it.
func isRefusal(err error) bool {
	switch status.Code(err) {
	case codes.InvalidArgument, codes.FailedPrecondition, codes.PermissionDenied, codes.OutOfRange:
		return true
	}
	return false
}
