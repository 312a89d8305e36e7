package main

import (
	"strings"
	"testing"

	"github.com/rulebook/rulebook/clients/clienttest"
)

// TestTerminalBot plays a whole game of Exploze on a 3 x 3 board against the bot in a terminal: the person, seat 1,
// types a legal move each turn, and the bot, the server's SuggestMove, answers for seat 2, to the end, whose move
// (the person's or the bot's) is narrated: the explosions that took the last stones of a player, who is out.
func TestTerminalBot(t *testing.T) {
	addrs := clienttest.Serve(t, clienttest.Config(false))
	term := startTerminal(t, noColor, "-addr", addrs.GRPC, "play", "exploze", "-seat", "1", "-level", "easy",
		"-options", `{"exploze":{"rows":3,"cols":3}}`)
	term.expectPrompt("1")
	for moves := 0; ; moves++ {
		if moves == 50 { // a 3 x 3 game is far shorter
			t.Fatal("the game did not end in 50 moves of seat 1")
		}
		term.typeLine(term.firstMove("1"))
		screen := term.expect(".\r\n") // through the status line of the next board: after the bot's reply, or the end
		if !strings.Contains(screen, "player 1 played ") {
			t.Fatalf("the move was not played:\n%s", screen)
		}
		if strings.Contains(screen, "The game is over") {
			if !strings.Contains(screen, " taken from player ") || !strings.Contains(screen, " is out\r\n") {
				t.Errorf("the last move, which took the last stones of a player, is not narrated:\n%s", screen)
			}
			break
		}
		if !strings.Contains(screen, "player 2 (bot) played ") {
			t.Fatalf("the bot did not reply:\n%s", screen)
		}
		term.expectPrompt("1")
	}
	term.expect(" wins.")
	term.wait(0)
}
