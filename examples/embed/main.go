// Command embed plays a game of Exploze to its end with the rule engine linked in: no server, no network.
package main

import (
	"fmt"
	"log"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
)

func main() {
	s, err := exploze.New(exploze.Options{Rows: 4, Cols: 4, Players: 3})
	if err != nil {
		log.Fatal(err)
	}

	// A move that breaks a rule is refused with a typed error and a stable reason code.
	first, _, err := s.Apply(exploze.Move{Player: 1, Row: 0, Col: 0})
	if err != nil {
		log.Fatal(err)
	}
	_, _, err = first.Apply(exploze.Move{Player: 2, Row: 0, Col: 0})
	e, ok := engine.AsError(err)
	if !ok {
		log.Fatalf("want a refusal, got %v", err)
	}
	fmt.Printf("refused: %s (%s): %s\n", e.Reason, e.Kind, e)

	// Each seat in turn plays one of its legal moves, chosen by the move number, until the game is over.
	var events []exploze.Event
	for !s.Over() {
		legal := s.Legal(s.ToMove())
		move := legal[s.MovesPlayed()*7%len(legal)]
		if s, events, err = s.Apply(move); err != nil {
			log.Fatal(err)
		}
	}

	fmt.Println("the last move:")
	for _, e := range events {
		fmt.Println("  ", e)
	}
	fmt.Println(s.Board())
	for _, p := range s.Score().Players {
		fmt.Printf("player %d: %d stones on %d cells\n", p.Player, p.Stones, p.Cells)
	}
	fmt.Printf("player %d wins after %d moves\n", s.Winner(), s.MovesPlayed())
}
