package ubongoduel

import (
	"fmt"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Event is one thing that happened during a move: a DuelStarted, Solved, GaveUp, DuelWon, Rerolled or GameOver.
// Apply returns them in the order they happened. Events hold nothing hidden: every player may see them all.
type Event interface {
	// String describes the event in one line.
	String() string
	// proto returns the event as its protobuf message.
	proto() *rulebookv1.UbongoDuelEvent
}

// DuelStarted is the die rolled for a duel on Sheet (side name Side, such as "A3"): Faces (two in a catch-up duel,
// roll 1 for Leader only), with each face's task.
type DuelStarted struct {
	Sheet  int
	Side   string
	Faces  []int
	Tasks  []TaskInfo
	Leader engine.Player
}

// TaskInfo is a task as players see it: the face, the side's name, the pieces and the shape to cover.
type TaskInfo struct {
	Face     int
	SideName string
	Pieces   []string
	Shape    polyomino.Cells
}

// Solved is a valid solution of Player's Roll (1 or 2) of face Face, received at ReceivedAt; Pending when the win
// waits for the tie window to close.
type Solved struct {
	Player     engine.Player
	Roll       int
	Face       int
	ReceivedAt int64
	Pending    bool
}

// GaveUp is Player giving up the duel.
type GaveUp struct {
	Player engine.Player
}

// DuelWon is Player winning the duel on Sheet, with the duels won by each player after it.
type DuelWon struct {
	Player   engine.Player
	Sheet    int
	DuelsWon [Players]int
}

// RerollReason tells why a duel is rolled again.
type RerollReason int

const (
	// RerollTie: both players solved within the tie window.
	RerollTie RerollReason = iota + 1
	// RerollGiveUp: both players gave up.
	RerollGiveUp
)

// String returns "tie" or "give up".
func (r RerollReason) String() string {
	switch r {
	case RerollTie:
		return "tie"
	case RerollGiveUp:
		return "give up"
	}
	return fmt.Sprintf("RerollReason(%d)", int(r))
}

// Rerolled is the duel on Sheet rolled again, nobody scoring; a DuelStarted follows.
type Rerolled struct {
	Reason RerollReason
	Sheet  int
}

// GameOver is the end of the game: Winner has won 5 duels.
type GameOver struct {
	Winner engine.Player
}

// String describes the event, such as "duel on A3: faces [7] pieces [[A C J T]]".
func (e DuelStarted) String() string {
	var pieces [][]string
	for _, t := range e.Tasks {
		pieces = append(pieces, t.Pieces)
	}
	s := fmt.Sprintf("duel on %s: faces %v pieces %v", e.Side, e.Faces, pieces)
	if e.Leader != engine.NoPlayer {
		s += fmt.Sprintf(", leader P%d solves both", e.Leader)
	}
	return s
}

// String describes the event, such as "P1 solved roll 1 (face 7) @5, pending".
func (e Solved) String() string {
	s := fmt.Sprintf("P%d solved roll %d (face %d) @%d", e.Player, e.Roll, e.Face, e.ReceivedAt)
	if e.Pending {
		s += ", pending"
	}
	return s
}

// String describes the event, such as "P2 gave up".
func (e GaveUp) String() string { return fmt.Sprintf("P%d gave up", e.Player) }

// String describes the event, such as "P1 won the duel on sheet 3: 2-1".
func (e DuelWon) String() string {
	return fmt.Sprintf("P%d won the duel on sheet %d: %d-%d", e.Player, e.Sheet, e.DuelsWon[0], e.DuelsWon[1])
}

// String describes the event, such as "re-roll on sheet 3 (tie)".
func (e Rerolled) String() string { return fmt.Sprintf("re-roll on sheet %d (%v)", e.Sheet, e.Reason) }

// String describes the event, such as "game over: P1 wins".
func (e GameOver) String() string { return fmt.Sprintf("game over: P%d wins", e.Winner) }
