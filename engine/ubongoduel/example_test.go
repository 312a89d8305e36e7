package ubongoduel_test

import (
	"fmt"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/ubongoduel"
)

// A duel: the die rolls itself when the game starts; player 2 submits the deck's witness solution of the task and
// wins the duel, which moves play to sheet 2 and rolls again.
func Example() {
	s, err := ubongoduel.New(ubongoduel.Options{Side: ubongoduel.SideA}, 42)
	if err != nil {
		panic(err)
	}
	task, roll, _ := s.CurrentTask(2)
	fmt.Println("sheet", s.Sheet(), "roll", roll, "pieces", len(task.Pieces))
	next, events, err := s.Apply(ubongoduel.Move{Player: 2, Action: ubongoduel.Submit, ReceivedAt: 1_000,
		Placements: task.Witness})
	if err != nil {
		panic(err)
	}
	fmt.Println(events[1])
	fmt.Println("now sheet", next.Sheet(), "score", next.Score().DuelsWon)
	// Output:
	// sheet 1 roll 1 pieces 4
	// P2 won the duel on sheet 1: 0-1
	// now sheet 2 score [0 1]
}

// Legal lists the moves that can be enumerated, such as giving up, but no solution: finding one is the game. A
// submission that does not solve the task is refused with a typed error and its reason code.
func ExampleState_Legal() {
	s, err := ubongoduel.New(ubongoduel.Options{Side: ubongoduel.SideA}, 42)
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Legal(1))

	task, _, _ := s.CurrentTask(1)
	short := ubongoduel.Move{Player: 1, Action: ubongoduel.Submit, ReceivedAt: 1_000,
		Placements: task.Witness[1:]}
	if e, ok := engine.AsError(s.Validate(short)); ok {
		fmt.Println(e.Kind, e.Reason+":", e)
	}
	// Output:
	// [P1 @0: giveup]
	// illegal PIECE_MISSING: pieces C of the task are not placed
}
