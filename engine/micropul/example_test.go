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
	// 28 legal moves, the first: P1: t2 1,0 r0
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

// A solo game to its end by a greedy player, who tries every legal move and keeps the one that scores the most, and
// the band its total earns.
func Example() {
	s, err := micropul.New(micropul.Options{Players: 1}, 1)
	if err != nil {
		panic(err)
	}
	turns := 0
	for ; !s.Over(); turns++ {
		var best *micropul.State
		for _, move := range s.Legal(1) {
			next, _, err := s.Apply(move)
			if err != nil {
				panic(err)
			}
			if best == nil || next.Score().Players[0].Total > best.Score().Players[0].Total {
				best = next
			}
		}
		s = best
	}
	sc := s.Score()
	p := sc.Players[0]
	fmt.Printf("%d turns, %v: %d points (groups %d, supply %d, hand %d), %v\n", turns, s.End(), p.Total, p.Groups,
		p.Supply, p.Hand, sc.Band)
	// Output:
	// 75 turns, core empty: 36 points (groups 10, supply 26, hand 0), Beginner
}
