package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestPassSeat reads the seat a pass names, and refuses what is no pass.
func TestPassSeat(t *testing.T) {
	tests := []struct {
		pass string
		seat int32
		ok   bool
	}{
		{"1.abc", 1, true}, {"12.x", 12, true}, {"0.x", 0, false}, {"01.x", 0, false}, {"+1.x", 0, false},
		{"-1.x", 0, false}, {"1.", 0, false}, {"1", 0, false}, {"a.x", 0, false}, {"", 0, false},
		{"4294967298.x", 0, false}, // beyond int32: no seat, not seat 2 wrapped around
	}
	for _, tt := range tests {
		if seat, ok := passSeat(tt.pass); seat != tt.seat || ok != tt.ok {
			t.Errorf("passSeat(%q) = %d, %v; want %d, %v", tt.pass, seat, ok, tt.seat, tt.ok)
		}
	}
}

// TestPlayHotSeat plays hot-seat from standard input that is no terminal: moves in the notation, a refusal in
// words, and the end of the input, which leaves the game with its token and passes printed, without colour.
func TestPlayHotSeat(t *testing.T) {
	srv := tokenServer(t)
	r := srv.run(t, "a1\na1\nb1\n", "play", "exploze", "-options", `{"exploze":{"rows":2,"cols":2}}`)
	want{stdout: `exploze: type a move, or help.

    a   b   
  1 .   .   
  2 .   .   
A player 1: 0 stones
B player 2: 0 stones
0 moves played. player 1 to move.
player 1> player 1 played a1

    a   b   
  1 A1  .   
  2 .   .   
A player 1: 1 stone
B player 2: 0 stones
1 moves played. player 2 to move.
player 2> Refused: a1 holds player 1's stones: you may only add a stone to your own cells or an empty one.
player 2> player 2 played b1

    a   b   
  1 A1  B1  
  2 .   .   
A player 1: 1 stone
B player 2: 1 stone
2 moves played. player 1 to move.
player 1> 
The game is left unfinished. Each seat may take it up with rulebook play exploze -token TOKEN -pass PASS:
Token: v2.test.…
Seat 1's pass: 1.…
Seat 2's pass: 2.…
`}.check(t, elideBare(r))
}

// TestPlayNarrates plays hot-seat to a chain reaction in Exploze, whose line tells its waves, its explosions and the
// cells it took (testdata/play-narrated.txt), as each move's line tells what the move did.
func TestPlayNarrates(t *testing.T) {
	// a2, an edge, reaches 3 stones and takes a1 and a3, which reach 2 and explode in a second wave.
	r := tokenServer(t).run(t, "c3\na2\na1\na2\na3\na2\n", "play", "exploze", "-options", `{"exploze":{"rows":3,"cols":3}}`)
	want{golden: "play-narrated.txt"}.check(t, elideBare(r))
	if !strings.Contains(r.stdout, "player 2 played a2: a chain of 2 waves, 3 explosions, 2 cells taken from player 1\n") {
		t.Errorf("the chain reaction is not narrated:\n%s", r.stdout)
	}
}

// Tokens and seat passes in plain text, as play prints them.
var (
	bareToken = regexp.MustCompile(`\b([vp][0-9]+\.[A-Za-z0-9_-]+\.)[A-Za-z0-9_-]+`)
	barePass  = regexp.MustCompile(`(pass: [1-9][0-9]*\.)[A-Za-z0-9_-]{22}\b`)
)

// elideBare returns r with the sealed part of every token and the code of every pass on its standard output left
// out, as elide does in JSON.
func elideBare(r result) result {
	r.stdout = barePass.ReplaceAllString(bareToken.ReplaceAllString(r.stdout, "${1}…"), "${1}…")
	return r
}
