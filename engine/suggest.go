package engine

import (
	"strconv"
	"time"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Level is how strongly a bot plays: the iterations its search runs, which each game sets for each level in its
// GameInfo's bot_levels (see Iterations), and in a race (Ubongo Duel) how long it waits.
type Level int

// The levels, weakest first.
const (
	Easy Level = iota + 1
	Medium
	Hard
)

// Iterations returns the iterations a search of level l runs in the game info describes: those of l in its
// bot_levels, or Medium's for a level it does not list (0 if it lists neither). An iteration is what each game's search
// counts (docs/bots.md).
func Iterations(info *rulebookv1.GameInfo, l Level) int {
	medium := 0
	for _, b := range info.GetBotLevels() {
		switch Level(b.GetLevel()) {
		case l:
			return int(b.GetIterations())
		case Medium:
			medium = int(b.GetIterations())
		}
	}
	return medium
}

// LevelInfo is what a game says of one level of its bot: the iterations its search runs (0 when the level bounds no
// search) and, for people, how strongly it plays.
type LevelInfo struct {
	Iterations  int
	Description string
}

// BotLevels returns the bot_levels of a game's info: its levels Easy, Medium and Hard, in that order.
func BotLevels(easy, medium, hard LevelInfo) []*rulebookv1.BotLevelInfo {
	out := make([]*rulebookv1.BotLevelInfo, 0, 3)
	for i, l := range []LevelInfo{easy, medium, hard} {
		out = append(out, &rulebookv1.BotLevelInfo{Level: rulebookv1.BotLevel(Easy + Level(i)),
			Iterations: uint32(l.Iterations), Description: l.Description})
	}
	return out
}

// Budget bounds one search of a bot. Engines read no clock: the caller's Stop does, and the search polls it.
type Budget struct {
	// Level is the level the bot plays at; a game may read it for more than the iterations (Ubongo Duel's delay).
	Level Level
	// Iterations is the most iterations the search runs; 0 means no bound but Stop.
	Iterations int
	// Stop, polled often during the search, ends it as soon as it returns true; nil never does. A search stopped
	// before its first iteration still answers a legal move.
	Stop func() bool
	// Seed drives every random choice of the search: with the same seed, budget and state, and a Stop that never
	// fires, a bot gives the same suggestion.
	Seed uint64
}

// Stopped reports whether b's Stop asks the search to end.
func (b Budget) Stopped() bool { return b.Stop != nil && b.Stop() }

// Plan is a bot's suggestion in the typed moves M of its game.
type Plan[M any] struct {
	// Move is the suggested move.
	Move M
	// PrincipalVariation is the line of play the search expects, starting with Move.
	PrincipalVariation []M
	// Evaluation is what the search expects for the seat; nil when it has no estimate.
	Evaluation *rulebookv1.Evaluation
	// Iterations is how many iterations the search ran.
	Iterations int64
	// Delay is, in a race, how long the bot waits before it plays Move; 0 in a turn-based game.
	Delay time.Duration
}

// Suggestion is a bot's suggestion in envelopes, as Position.Suggest answers it: Plan's moves as Move messages.
type Suggestion = Plan[*rulebookv1.Move]

// Reasons of the refusals of Position.Suggest.
const (
	// ReasonGameOver refuses a suggestion once the game is over.
	ReasonGameOver = "GAME_OVER"
	// ReasonNoLegalMove refuses a suggestion for a seat that has no legal move now (not its turn).
	ReasonNoLegalMove = "NO_LEGAL_MOVE"
	// ReasonBotFailed is the Internal error of a bot that found no move where the rules say there is one.
	ReasonBotFailed = "BOT_FAILED"
)

// NoLegalMove returns the NO_LEGAL_MOVE error of seat p, which may not move now.
func NoLegalMove(p Player) error {
	return Illegalf(ReasonNoLegalMove, map[string]string{"player": strconv.Itoa(int(p))},
		"player %d has no legal move now", p)
}

// GameOver returns the GAME_OVER error of a suggestion asked once the game is over.
func GameOver() error {
	return Illegalf(ReasonGameOver, nil, "the game is over: no seat has a move to suggest")
}
