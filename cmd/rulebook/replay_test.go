package main

import (
	"fmt"
	"strings"
	"testing"
)

// finishingMoves are the moves (player, row, column) of a whole game on a 3 x 3 board: player 2 wins with the last.
var finishingMoves = [][3]int{{1, 0, 0}, {2, 1, 1}, {1, 0, 0}, {2, 1, 1}, {1, 0, 1}, {2, 1, 1}, {1, 0, 0}, {2, 1, 1}}

// TestReplay replays records against a server of each kind: the games new and apply printed, one after the other,
// for a whole game on a 3 x 3 board. With tokens, such a record is an audit (of a finished game, as an audit of other
// seats' moves must be).
func TestReplay(t *testing.T) {
	for _, srv := range servers(t) {
		t.Run(srv.name, func(t *testing.T) {
			game := []string{must(t, srv.run(t, "", "new", "exploze", "-options", small))}
			for _, m := range finishingMoves {
				game = append(game, must(t, srv.run(t, game[len(game)-1], "apply", "exploze", "-move", moveAt(m[0], m[1], m[2]))))
			}
			start, first, second, rest := game[0], game[1], game[2], strings.Join(game[3:], "")
			outOfOrder := "rulebook: FailedPrecondition NOT_YOUR_TURN: moves[0] of the record: it is player 1's turn, not player 2's {player=2 toMove=1}\n"
			if !srv.plain { // an audit does not tell why another seat's move fails
				outOfOrder = "rulebook: FailedPrecondition RECORD_MISMATCH: moves[0] of the record: the move does not lead to the state of the record's next token\n" +
					"  field tokens[0]: the move does not lead to the state of the record's next token\n"
			}
			tests := []struct {
				name  string
				stdin string
				want  want
			}{
				{"the game played", strings.Join(game, ""), want{golden: "replay-" + srv.name + ".json"}},
				{"no moves", start, want{golden: "replay-start-" + srv.name + ".json"}},
				{"out of order", start + second + first + rest, want{code: 1, golden: "replay-start-" + srv.name + ".json", stderr: outOfOrder}},
				{"entry without a move", start + "{}", want{code: 1, stderr: "rulebook: moves[0] of the record holds no move\n"}},
				{"entry not JSON", start + first + "move", want{code: 1, stderrPrefix: "rulebook: the record on standard input is not JSON: "}},
				{"empty", "", want{code: 1,
					stderr: "rulebook: no game on standard input: give the output of 'rulebook new' or 'rulebook apply', or a GameState in JSON\n"}},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					tt.want.check(t, srv.run(t, tt.stdin, "replay", "exploze"))
				})
			}
		})
	}
}

// TestTokenReplay checks the records particular to tokens: a batch of one seat's own moves, and records that mix
// the two kinds.
func TestTokenReplay(t *testing.T) {
	srv := tokenServer(t)
	start := must(t, srv.run(t, "", "new", "exploze", "-options", small))
	first := must(t, srv.run(t, start, "apply", "exploze", "-move", moveAt(1, 0, 0)))
	game := parse(t, start)
	seat1 := fmt.Sprintf(`{"token":%q,"seatPass":%q}`, game.token, game.passFor(1))
	ownMove := fmt.Sprintf(`{"move":%s}`, moveAt(1, 0, 0))
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  want
	}{
		{"seat 1's own move", nil, seat1 + ownMove, want{golden: "replay-batch.json"}},
		{"another seat's move", []string{"-pass", game.passFor(2)}, start + ownMove, want{code: 1, golden: "replay-start-token.json",
			stderr: "rulebook: PermissionDenied NOT_YOUR_SEAT: moves[0] of the record: the seat pass is for seat 2: move.player must be 2 {asked=1 field=move.player seat=2}\n" +
				"  field moves[0].player: the seat pass is for seat 2: move.player must be 2\n"}},
		{"some moves with a token", nil, start + first + fmt.Sprintf(`{"move":%s}`, moveAt(2, 1, 1)), want{code: 1,
			stderr: "rulebook: some moves of the record come with a token and some do not: give every move's token, for an audit, or none\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, srv.run(t, tt.stdin, append([]string{"replay", "exploze"}, tt.args...)...))
		})
	}
}

// TestPlainReplay checks the records particular to plain states: one that starts from a bare GameState, and one
// sealed at a new table.
func TestPlainReplay(t *testing.T) {
	srv := plainServer(t)
	twoMoves := readTestdata(t, "two-moves.json")
	record := twoMoves + fmt.Sprintf(`{"move":%s}`, moveAt(1, 2, 2))
	want{golden: "replay-bare.json"}.check(t, srv.run(t, record, "replay", "exploze"))

	sealed := srv.run(t, record, "replay", "exploze", "-seal")
	want{golden: "replay-sealed.json"}.check(t, sealed)
	if next := must(t, sealed); !strings.Contains(must(t, srv.run(t, next, "legal", "exploze", "-player", "2")), `"player":2`) {
		t.Errorf("the sealed game's seat 2 has no legal moves")
	}
}
