package ubongoduel

import (
	"slices"
	"testing"
)

// TestBotSolvesEveryTask solves every task of both sides of the deck as the bot does, within its node limit, and
// checks each solution covers the shape with the task's pieces: the bot's BOT_FAILED cannot arise from a checked deck.
func TestBotSolvesEveryTask(t *testing.T) {
	d := defaultDeck()
	for _, side := range slices.Concat(d.A, d.B) {
		for i, task := range side.Tasks {
			solution, explored, err := solve(side, task)
			if err != nil {
				t.Errorf("%s face %d %v: %v", side.Name, i+1, task.Pieces, err)
				continue
			}
			if len(solution) != len(task.Pieces) || explored <= 0 || explored > botNodeLimit {
				t.Errorf("%s face %d %v: %d placements after %d nodes", side.Name, i+1, task.Pieces, len(solution), explored)
				continue
			}
			covered := 0
			for _, cells := range solution {
				covered += len(cells)
			}
			if covered != len(side.Shape) {
				t.Errorf("%s face %d %v: the solution covers %d cells of %d", side.Name, i+1, task.Pieces, covered, len(side.Shape))
			}
		}
	}
}
