package micropul_test

import (
	"fmt"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/micropul"
)

// A two-player game dealt from seed 7: player 1 places a tile of their hand, whose catalyst gives them an extra turn;
// player 2's view hides player 1's hand and the core; and a tile player 1 does not hold is refused with its reason
// code.
func ExampleState_Apply() {
	s, err := micropul.New(micropul.DefaultOptions(), 7)
	if err != nil {
		panic(err)
	}
	legal := s.Legal(1)
	fmt.Println(len(legal), "legal moves, the first:", legal[0])
	s, events, err := s.Apply(legal[0])
	if err != nil {
		panic(err)
	}
	for _, e := range events {
		fmt.Println("  ", e)
	}
	fmt.Print(s.View(2))

	theirs := s.Seat(2).Hand[0]
	_, _, err = s.Apply(micropul.Move{Player: 1, Action: micropul.PlaceTile, Tile: theirs, At: micropul.Coord{X: -1}})
	if e, ok := engine.AsError(err); ok {
		fmt.Println(e.Kind, e.Reason+":", e)
	}
	// Output:
	// 28 legal moves, the first: P1 place 2 r0 at (1,0)
	//    P1 placed 2 r0 at (1,0)
	//    catalyst + at (1,0) BL: extra turn
	//    P1 won 1 extra turns
	// players 2, rules DEFAULT, view of 2
	// board: 40@0,0/0 2@1,0/0
	// stones:
	// P1 hand [] (5), supply 0
	// P2 hand [13 14 28 31 35 37] (6), supply 0
	// core 35; P1 to move (extra turn, 0 more pending)
	// illegal TILE_NOT_IN_HAND: tile 13 is not in player 1's hand
}

// A two-player game to its end, each move one of the legal moves chosen by a counter, and its score.
func Example() {
	s, err := micropul.New(micropul.DefaultOptions(), 1)
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
	fmt.Println(moves, "moves,", s.End())
	for _, p := range sc.Players {
		fmt.Printf("player %d: %d points (groups %d, supply %d, hand %d)\n", p.Player, p.Total, p.Groups, p.Supply,
			p.Hand)
	}
	fmt.Println("winners:", sc.Winners)
	// Output:
	// 75 moves, core empty
	// player 1: 12 points (groups 0, supply 12, hand 0)
	// player 2: 3 points (groups 0, supply 2, hand 1)
	// winners: [1]
}
