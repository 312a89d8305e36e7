package exploze_test

import (
	"fmt"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
)

// The first worked example of the rules: on a 2 x 2 board, B's second stone in a corner captures both of A's cells
// and ends the game.
func ExampleState_Apply() {
	s, err := exploze.New(exploze.Options{Rows: 2, Cols: 2})
	if err != nil {
		panic(err)
	}
	for _, cell := range []exploze.Coord{{Row: 0, Col: 0}, {Row: 1, Col: 1}, {Row: 0, Col: 0}, {Row: 1, Col: 1}} {
		move := exploze.Move{Player: s.ToMove(), Row: cell.Row, Col: cell.Col}
		next, events, err := s.Apply(move)
		if err != nil {
			panic(err)
		}
		fmt.Println(move, "->", next.Board())
		for _, e := range events[1:] {
			fmt.Println("  ", e)
		}
		s = next
	}
	fmt.Println("winner:", s.Winner())
	// Output:
	// A: a1 -> A1 .0 | .0 .0
	// B: b2 -> A1 .0 | .0 B1
	// A: a1 -> .0 A1 | A1 B1
	//    wave 1: exploded (0,0)
	// B: b2 -> .0 B2 | B2 .0
	//    wave 1: exploded (1,1); captured (0,1) 1 from A, (1,0) 1 from A
	//    A eliminated after wave 1
	//    game over: B wins
	// winner: 2
}

// ParseBoard reads the notation of the rules; NewState checks the position.
func ExampleParseBoard() {
	cells, rows, cols, err := exploze.ParseBoard("A1 A2 .0 | A2 A3 .0 | .0 .0 B1")
	if err != nil {
		panic(err)
	}
	s, err := exploze.NewState(exploze.Options{Rows: rows, Cols: cols}, 9, 2, cells)
	if err != nil {
		panic(err)
	}
	fmt.Print(s)
	// Output:
	// 3x3, 2 players, 9 moves played, B to move
	// A1 A2 .0
	// A2 A3 .0
	// .0 .0 B1
}

// Legal lists the moves of the player to move; a move that breaks a rule is refused with a typed error, whose reason
// code is stable and whose facts say why.
func ExampleState_Legal() {
	s, err := exploze.New(exploze.Options{Rows: 2, Cols: 3})
	if err != nil {
		panic(err)
	}
	s, _, err = s.Apply(exploze.Move{Player: 1, Row: 0, Col: 0})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Legal(s.ToMove()))
	fmt.Println(s.Legal(1))

	err = s.Validate(exploze.Move{Player: 2, Row: 0, Col: 0})
	if e, ok := engine.AsError(err); ok && e.Reason == exploze.ReasonCellOwnedByOpponent {
		fmt.Println(e.Kind, e.Reason, e.Facts, e)
	}
	// Output:
	// [B: b1 B: c1 B: a2 B: b2 B: c2]
	// []
	// illegal CELL_OWNED_BY_OPPONENT map[col:0 owner:1 row:0] cell (0,0) holds player 1's stones
}

// Score gives the stones and cells of each player, and the winner once the game is over.
func ExampleState_Score() {
	cells, rows, cols, err := exploze.ParseBoard("A1 A1 .0 | .0 A2 .0 | .0 B2 B1")
	if err != nil {
		panic(err)
	}
	s, err := exploze.NewState(exploze.Options{Rows: rows, Cols: cols}, 7, 2, cells)
	if err != nil {
		panic(err)
	}
	sc := s.Score()
	for _, p := range sc.Players {
		fmt.Printf("player %d: %d stones on %d cells\n", p.Player, p.Stones, p.Cells)
	}
	fmt.Println("over:", sc.Over)
	// Output:
	// player 1: 4 stones on 3 cells
	// player 2: 3 stones on 2 cells
	// over: false
}
