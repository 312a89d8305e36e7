package engine_test

import (
	"fmt"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// One loop plays three games to their end through engine.Game and its Positions, by the games' protobuf messages, as
// the service does: whoever may move takes one of the legal moves, chosen by a counter (at most 1000 moves); then the
// standings. (Ubongo Duel's legal moves leave out its solutions, which are the game itself.)
func Example() {
	for _, g := range []engine.Game{exploze.Game{}, kipicot.Game{}, micropul.Game{}} {
		p, err := g.New(nil, 1) // every default option, seed 1
		if err != nil {
			panic(err)
		}
		moves := 0
		for ; moves < 1000; moves++ {
			legal, err := p.Legal(engine.NoPlayer)
			if err != nil {
				panic(err)
			}
			if len(legal) == 0 {
				break
			}
			if p, _, err = p.Apply(legal[moves*7%len(legal)]); err != nil {
				panic(err)
			}
		}
		score := p.Score()
		fmt.Printf("%s: %d moves, over %v, winners %v\n", g.Info().GetName(), moves, score.GetGameOver(),
			score.GetWinners())
	}
	// Output:
	// Exploze (Chain Reaction): 61 moves, over true, winners [1]
	// Kipicot: 168 moves, over true, winners [2]
	// Micropul: 75 moves, over true, winners [1]
}

// Errors from an engine.Game and its Positions are *engine.Error values: a kind, a stable reason code, the facts, and
// for malformed input the path of the field at fault, named as in the service's requests.
func ExampleAsError() {
	p, err := exploze.Spec.New(&rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{
		Exploze: &rulebookv1.ExplozeOptions{Rows: 3, Cols: 3}}}, 0)
	if err != nil {
		panic(err)
	}
	for _, move := range []*rulebookv1.Move{
		{Player: 1, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: 5, Col: 1}}},
		{Player: 2, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{}}},
		{Player: 1, Game: &rulebookv1.Move_Micropul{Micropul: &rulebookv1.MicropulMove{}}},
	} {
		if e, ok := engine.AsError(p.Validate(move)); ok {
			fmt.Printf("%v %s at %q %v: %s\n", e.Kind, e.Reason, e.Field, e.Facts, e)
		}
	}
	// Output:
	// invalid CELL_OFF_BOARD at "move.exploze.row" map[col:1 cols:3 row:5 rows:3]: cell (5,1) is off the 3 x 3 board
	// illegal NOT_YOUR_TURN at "" map[player:2 toMove:1]: it is player 1's turn, not player 2's
	// invalid GAME_MISMATCH at "move" map[envelope:move game:exploze]: the move holds no Exploze message
}
