package ubongoduel

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// botNodeLimit bounds the bot's tiling search: far more than any task of the deck needs.
const botNodeLimit = 10_000_000

// thinkPerPiece is how long a bot of each level takes over each piece of its task before it submits.
var thinkPerPiece = map[engine.Level]time.Duration{
	engine.Easy:   12 * time.Second,
	engine.Medium: 6 * time.Second,
	engine.Hard:   2500 * time.Millisecond,
}

// botLevels are Ubongo Duel's bot levels: each waits its thinkPerPiece for each piece of its task. The solver finds
// its solution whatever the level, so no level bounds a search (0 iterations).
func botLevels() []*rulebookv1.BotLevelInfo {
	waits := func(l engine.Level) engine.LevelInfo {
		return engine.LevelInfo{Description: fmt.Sprintf("Submits its solution %g s per piece of its task after the "+
			"suggestion (the delay of its answer).", thinkPerPiece[l].Seconds())}
	}
	return engine.BotLevels(waits(engine.Easy), waits(engine.Medium), waits(engine.Hard))
}

// Suggest is Ubongo Duel's bot: it solves its own task with the tiling solver and submits the solution after a
// delay that its level sets per piece of the task (thinkPerPiece; any other level is Medium's). With no task left to
// solve and a win pending, it closes the duel once the tie window has passed (its delay). The die's state is never
// read. There is no evaluation: the race is against a clock the bot cannot see.
func (d definition) Suggest(s *State, seat engine.Player, b engine.Budget) (engine.Plan[Move], error) {
	task, _, ok := s.CurrentTask(seat)
	if !ok {
		if s.pending != engine.NoPlayer {
			m := Move{Player: seat, Action: CloseDuel, ReceivedAt: s.closeTime()}
			return engine.Plan[Move]{Move: m, PrincipalVariation: []Move{m}, Delay: time.Duration(s.opts.window())}, nil
		}
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	solution, explored, err := solve(s.side(), task)
	if err != nil {
		return engine.Plan[Move]{}, err
	}
	m := Move{Player: seat, Action: Submit, ReceivedAt: s.last}
	for i, cells := range solution {
		m.Placements = append(m.Placements, Placement{Piece: task.Pieces[i], Cells: slices.Clone(cells)})
	}
	per, ok := thinkPerPiece[b.Level]
	if !ok {
		per = thinkPerPiece[engine.Medium]
	}
	return engine.Plan[Move]{Move: m, PrincipalVariation: []Move{m}, Iterations: explored,
		Delay: per * time.Duration(len(task.Pieces))}, nil
}

// solve returns a tiling of side's shape by task's pieces, in the task's order, and the nodes the search explored.
// Every task of a checked deck has one, found in far fewer nodes than botNodeLimit (TestBotSolvesEveryTask): an error,
// BOT_FAILED, is a bug.
func solve(side Side, task Task) (polyomino.Solution, int64, error) {
	var explored int64
	solution, found, err := polyomino.Find(context.Background(), side.Shape, task.Set(),
		polyomino.Options{NodeLimit: botNodeLimit, Explored: &explored})
	if err != nil || !found {
		return nil, explored, engine.Internalf(engine.ReasonBotFailed, "the bot found no solution of task %v: %v",
			task.Pieces, err)
	}
	return solution, explored, nil
}
