package main

import "testing"

// TestSelfPlay plays whole random games on small boards against a server of each kind: with plain states, and with
// tokens at one table, selfplay holding every seat's pass. The seed fixes the game, so the output is a golden file, the
// same for both. selfplay relies on ListLegalMoves with player 0 listing the moves of the player to move (with tokens,
// on each seat listing its own).
func TestSelfPlay(t *testing.T) {
	for _, srv := range servers(t) {
		t.Run(srv.name, func(t *testing.T) {
			tests := []struct {
				name string
				args []string
				want want
			}{
				{"seed 1", []string{"selfplay", "exploze", "-options", small}, want{golden: "play-3x3-seed1.txt"}},
				{"sealed", []string{"selfplay", "exploze", "-seal", "-options", small}, want{golden: "play-3x3-seed1.txt"}},
				{"seed 7, three players", []string{"selfplay", "exploze", "-seed", "7", "-options", `{"exploze":{"rows":3,"cols":4,"players":3}}`},
					want{golden: "play-3x4x3-seed7.txt"}},
				{"gives up at -max-moves", []string{"selfplay", "exploze", "-options", small, "-max-moves", "3"}, want{code: 1,
					golden: "play-3x3-seed1-max3.txt", stderr: "rulebook: gave up after 3 moves (-max-moves): the game is not over\n"}},
				{"options of no game", []string{"selfplay", "exploze", "-options", "{}", "-max-moves", "2"}, want{code: 1,
					golden: "play-default-max2.txt", stderr: "rulebook: gave up after 2 moves (-max-moves): the game is not over\n"}},
				{"unknown game", []string{"selfplay", "go"}, want{code: 1,
					stderr: "rulebook: NotFound UNKNOWN_GAME: unknown game \"go\"; ListGames lists the hosted games {game=go}\n"}},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					tt.want.check(t, srv.run(t, "", tt.args...))
				})
			}
		})
	}
}

// TestSelfPlayGameSeed checks that selfplay sends -game-seed to NewGame: a server that accepts plain states takes it, one
// that accepts only tokens refuses it.
func TestSelfPlayGameSeed(t *testing.T) {
	args := []string{"selfplay", "exploze", "-game-seed", "5", "-options", small}
	want{golden: "play-3x3-seed1.txt"}.check(t, plainServer(t).run(t, "", args...))
	want{code: 1, stderr: "rulebook: PermissionDenied SEED_REFUSED: this server draws every seed itself: leave the seed unset\n"}.
		check(t, tokenServer(t).run(t, "", args...))
}

// TestPipeline plays a short game as a shell pipeline would, against a server of each kind, each command reading
// the game the one before printed: on a 2 x 2 board, player 1's second stone on (0,0) explodes, captures player 2's
// only cell and ends the game. With tokens, the game new prints holds every seat's pass, and apply passes them on.
func TestPipeline(t *testing.T) {
	for _, srv := range servers(t) {
		t.Run(srv.name, func(t *testing.T) {
			game := must(t, srv.run(t, "", "new", "exploze", "-options", `{"exploze":{"rows":2,"cols":2}}`))
			game = must(t, srv.run(t, game, "apply", "exploze", "-move", moveAt(1, 0, 0)))
			game = must(t, srv.run(t, game, "apply", "exploze", "-move", moveAt(2, 0, 1)))
			if got := must(t, srv.run(t, game, "validate", "exploze", "-move", moveAt(1, 0, 0))); got != "legal\n" {
				t.Errorf("validate printed %q, want \"legal\\n\"", got)
			}
			last := srv.run(t, game, "apply", "exploze", "-events", "-move", moveAt(1, 0, 0))
			game = must(t, last)
			checkGolden(t, "pipeline-over-"+srv.name+".json", elide(game))
			checkGolden(t, "pipeline-events.jsonl", last.stderr)

			want{golden: "pipeline-score.json"}.check(t, srv.run(t, game, "score", "exploze"))
			want{}.check(t, srv.run(t, game, "legal", "exploze", "-player", "1"))
			want{code: 1, stderr: "rulebook: FailedPrecondition GAME_OVER: the game is over: player 1 won {winner=1}\n"}.
				check(t, srv.run(t, game, "validate", "exploze", "-move", moveAt(1, 0, 0)))
		})
	}
}
