package main

import (
	"context"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
)

// Bounds of -think, as SuggestMove takes a think time.
const (
	minThink = time.Millisecond
	maxThink = 10 * time.Second
)

// botLevels are the levels of -level.
var botLevels = map[string]rulebookv1.BotLevel{
	"easy":   rulebookv1.BotLevel_BOT_LEVEL_EASY,
	"medium": rulebookv1.BotLevel_BOT_LEVEL_MEDIUM,
	"hard":   rulebookv1.BotLevel_BOT_LEVEL_HARD,
}

// serverBot is the server's bot: each move is a SuggestMove call for the bot's seat, with its pass.
type serverBot struct {
	client rulebookv1grpc.RulesServiceClient
	game   string
	level  rulebookv1.BotLevel
	think  *durationpb.Duration // nil: the level's budget
}

// newBot returns the bot of -seat, at level (easy, medium or hard), thinking think over each move (0: the level's
// budget of iterations).
func newBot(e *env, level string, think time.Duration) (bot, error) {
	l, ok := botLevels[strings.ToLower(level)]
	if !ok {
		return nil, usagef("-level %q: easy, medium or hard", level)
	}
	b := &serverBot{client: e.client, game: e.game, level: l}
	if think != 0 {
		switch {
		case think < minThink || think > maxThink:
			return nil, usagef("-think %v: from %v to %v", think, minThink, maxThink)
		case think >= e.timeout:
			return nil, usagef("-think %v: less than -timeout (%v), which bounds each call", think, e.timeout)
		}
		b.think = durationpb.New(think)
	}
	return b, nil
}

// suggest asks the server for the bot's move of seat in g.
func (b *serverBot) suggest(ctx context.Context, g *document, seat int32) (suggestion, error) {
	resp, err := b.client.SuggestMove(ctx, &rulebookv1.SuggestMoveRequest{Game: b.game, Token: g.token, State: g.state,
		SeatPass: g.passFor(seat), Player: seat, ThinkTime: b.think, Level: b.level})
	if err != nil {
		return suggestion{}, err
	}
	return suggestion{move: resp.GetMove(), delay: resp.GetDelay().AsDuration()}, nil
}
