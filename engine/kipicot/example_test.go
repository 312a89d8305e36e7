package kipicot_test

import (
	"fmt"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/kipicot"
)

// Player 1 plays a turn step by step, each step one of the legal moves of its phase; player 2 plays a whole turn in
// one composite move, after a step out of its phase is refused with its reason code.
func ExampleState_Apply() {
	s, err := kipicot.New(kipicot.DefaultOptions())
	if err != nil {
		panic(err)
	}
	for range 3 {
		phase, legal := s.Phase(), s.Legal(s.ToMove())
		move := legal[len(legal)/2]
		var events []kipicot.Event
		if s, events, err = s.Apply(move); err != nil {
			panic(err)
		}
		fmt.Printf("%v, %d legal moves: %v %v\n", phase, len(legal), move, events)
	}

	pawn := kipicot.Step{Kind: kipicot.StepPawn, To: kipicot.Coord{Row: 2, Col: 2}}
	_, _, err = s.Apply(kipicot.Move{Player: 2, Step: pawn})
	if e, ok := engine.AsError(err); ok {
		fmt.Println(e.Kind, e.Reason+":", e)
	}

	s, events, err := s.Apply(kipicot.Move{Player: 2, Turn: []kipicot.Step{
		{Kind: kipicot.StepSkip},
		{Kind: kipicot.StepPlace, Color: kipicot.Yellow, To: kipicot.Coord{Row: 1, Col: 1}},
		{Kind: kipicot.StepPawn, To: kipicot.Coord{Row: 1, Col: 1}},
	}})
	if err != nil {
		panic(err)
	}
	for _, e := range events {
		fmt.Println("  ", e)
	}
	fmt.Print(s)
	// Output:
	// optional move, 1 legal moves: A: skip []
	// action, 50 legal moves: A: y c3 [A placed yellow at (2,2)]
	// pawn, 1 legal moves: A: pawn c3 [A pawn off-(2,2)]
	// illegal WRONG_PHASE: a pawn step belongs to step 3, and the turn is in phase optional move
	//    B placed yellow at (1,1)
	//    B pawn off-(1,1)
	// A to move, optional move; supply 20r 18y; caught A 0r 0y, B 0r 0y; 0 turns without placement
	// .   .   .   .   .
	// .   y2  .   .   .
	// .   .   y1  .   .
	// .   .   .   .   .
	// .   .   .   .   .
}

// A whole game between two players who each take one of their legal moves, chosen by a counter, to the end.
func Example() {
	s, err := kipicot.New(kipicot.DefaultOptions())
	if err != nil {
		panic(err)
	}
	moves := 0
	for ; !s.Over(); moves++ {
		legal := s.Legal(s.ToMove())
		if s, _, err = s.Apply(legal[moves*7%len(legal)]); err != nil {
			panic(err)
		}
	}
	sc := s.Score()
	fmt.Println(moves, "moves")
	for _, p := range sc.Players {
		fmt.Printf("player %d caught %d red and %d yellow\n", p.Player, p.Caught.Red, p.Caught.Yellow)
	}
	fmt.Println("winner:", sc.Winner, "draw:", sc.Draw)
	// Output:
	// 168 moves
	// player 1 caught 3 red and 6 yellow
	// player 2 caught 6 red and 6 yellow
	// winner: 2 draw: false
}
