//go:build suggestmove

package main

import (
	"strings"
	"testing"

	"github.com/rulebook/rulebook/clients/clienttest"
)

// TestTerminalBot plays a whole game of Exploze on a 3 x 3 board against the bot in a terminal: the person, seat 1,
// types a legal move each turn, and the bot, the server's SuggestMove, answers for seat 2, to the end.
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
		term.expect("player 1 played ")
		screen := term.expect(".\r\n")
		if strings.Contains(screen, "The game is over") {
			break
		}
		term.expect("player 2 (bot) played ")
		if screen := term.expect(".\r\n"); strings.Contains(screen, "The game is over") {
			break
		}
		term.expectPrompt("1")
	}
	term.expect(" wins.")
	term.wait(0)
}
