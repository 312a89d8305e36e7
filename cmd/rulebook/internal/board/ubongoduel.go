package board

import (
	"strings"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// ubongoPieces holds the cells of the Ubongo pieces, by letter.
var ubongoPieces = func() map[string]polyomino.Cells {
	pieces := map[string]polyomino.Cells{}
	for _, p := range polyomino.Ubongo().Pieces {
		pieces[p.Name] = polyomino.Normalize(p.Cells)
	}
	return pieces
}()

// drawUbongoDuel draws the task seat is to solve (every task of the duel, for a spectator): the shape to cover, its
// squares labelled as the notation names them, and the pieces to cover it with, each as it is drawn in the rules
// (any may be turned or turned over); then the duels won, and who has solved, given up or waits for the tie window.
func drawUbongoDuel(p *pen, s *rulebookv1.UbongoDuelState, seat int32) {
	for _, task := range ubongoTasks(s, seat) {
		p.printf("Sheet %s, face %d: cover the shape with pieces %s.\n", task.GetSideName(), task.GetFace(),
			strings.Join(task.GetPieces(), " "))
		drawShape(p, task.GetShape())
		drawPieces(p, task.GetPieces())
	}
	for i, pl := range s.GetPlayers() {
		n := int32(i + 1)
		p.player(n)
		p.printf(": %d of 5 duels won", pl.GetDuelsWon())
		switch {
		case pl.GetGaveUp():
			p.printf(", gave up this duel")
		case pl.GetSolved() > 0:
			p.printf(", solved %d this duel", pl.GetSolved())
		}
		p.printf("\n")
	}
	switch {
	case s.GetWinner() != 0:
		p.printf("The game is over: ")
		p.player(s.GetWinner())
		p.printf(" won.\n")
	case s.GetPendingWinner() != 0:
		p.player(s.GetPendingWinner())
		p.printf(" has solved; the duel is won once the tie window closes (close).\n")
	}
}

// ubongoTasks returns the tasks to draw for seat: its current one (the leader of a catch-up duel solves the first
// roll, then the second), or every one for a spectator.
func ubongoTasks(s *rulebookv1.UbongoDuelState, seat int32) []*rulebookv1.UbongoDuelTask {
	tasks := s.GetTasks()
	if seat < 1 || int(seat) > len(s.GetPlayers()) || len(tasks) < 2 {
		return tasks
	}
	if seat == s.GetLeader() && s.GetPlayers()[seat-1].GetSolved() == 0 {
		return tasks[:1]
	}
	return tasks[len(tasks)-1:]
}

// drawShape writes the shape's grid: "." on the squares to cover, nothing elsewhere.
func drawShape(p *pen, shape []*rulebookv1.UbongoDuelCell) {
	var w, h int32
	in := map[[2]int32]bool{}
	for _, c := range shape {
		in[[2]int32{c.GetX(), c.GetY()}] = true
		w, h = max(w, c.GetX()+1), max(h, c.GetY()+1)
	}
	p.columnHeader(4, int(w), 2, engine.Column)
	for y := range h {
		p.printf("%3d ", y+1)
		for x := range w {
			if in[[2]int32{x, y}] {
				p.printf(". ")
			} else {
				p.printf("  ")
			}
		}
		p.printf("\n")
	}
}

// drawPieces writes the pieces side by side, each a grid of its letter.
func drawPieces(p *pen, letters []string) {
	height := 0
	for _, l := range letters {
		_, h := ubongoPieces[l].Bounds()
		height = max(height, h)
	}
	for y := range height {
		p.printf("    ")
		for i, l := range letters {
			cells := ubongoPieces[l]
			w, _ := cells.Bounds()
			row := []byte(strings.Repeat(" ", w))
			for _, c := range cells {
				if c.Y == y {
					row[c.X] = l[0]
				}
			}
			p.paint(playerColor(int32(i+1)), string(row))
			p.printf("   ")
		}
		p.printf("\n")
	}
}
