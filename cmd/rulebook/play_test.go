package main

import (
	"fmt"
	"testing"
)

// TestPlay plays whole random games on small boards. The seed fixes the game, so the output is a golden file. play
// relies on ListLegalMoves with player 0 listing the moves of the player to move.
func TestPlay(t *testing.T) {
	addr := startServer(t)
	small := `{"exploze":{"rows":3,"cols":3}}`
	tests := []struct {
		name string
		args []string
		want want
	}{
		{"seed 1", []string{"play", "exploze", "-options", small}, want{golden: "play-3x3-seed1.txt"}},
		{"seed 7, three players", []string{"play", "exploze", "-seed", "7", "-options", `{"exploze":{"rows":3,"cols":4,"players":3}}`},
			want{golden: "play-3x4x3-seed7.txt"}},
		{"gives up at -max-moves", []string{"play", "exploze", "-options", small, "-max-moves", "3"}, want{code: 1,
			golden: "play-3x3-seed1-max3.txt", stderr: "rulebook: gave up after 3 moves (-max-moves): the game is not over\n"}},
		{"options of no game", []string{"play", "exploze", "-options", "{}", "-max-moves", "2"}, want{code: 1,
			golden: "play-default-max2.txt", stderr: "rulebook: gave up after 2 moves (-max-moves): the game is not over\n"}},
		{"unknown game", []string{"play", "go"}, want{code: 1,
			stderr: "rulebook: NotFound UNKNOWN_GAME: unknown game \"go\"; ListGames lists the hosted games {game=go}\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, rulebook(t, "", append([]string{"-addr", addr}, tt.args...)...))
		})
	}
}

// TestPipeline plays a short game as a shell pipeline would, each command reading the state the one before
// printed: on a 2 x 2 board, player 1's second stone on (0,0) explodes, captures player 2's only cell and ends the
// game.
func TestPipeline(t *testing.T) {
	addr := startServer(t)
	cmd := func(stdin string, args ...string) result {
		t.Helper()
		return rulebook(t, stdin, append([]string{"-addr", addr}, args...)...)
	}
	move := func(player, row, col int) string {
		return fmt.Sprintf(`{"player":%d,"exploze":{"row":%d,"col":%d}}`, player, row, col)
	}
	must := func(r result) string {
		t.Helper()
		if r.code != 0 {
			t.Fatalf("exit status %d: %s", r.code, r.stderr)
		}
		return r.stdout
	}

	state := must(cmd("", "new", "exploze", "-options", `{"exploze":{"rows":2,"cols":2}}`))
	state = must(cmd(state, "apply", "exploze", "-move", move(1, 0, 0)))
	state = must(cmd(state, "apply", "exploze", "-move", move(2, 0, 1)))
	if got := must(cmd(state, "validate", "exploze", "-move", move(1, 0, 0))); got != "legal\n" {
		t.Errorf("validate printed %q, want \"legal\\n\"", got)
	}
	last := cmd(state, "apply", "exploze", "-events", "-move", move(1, 0, 0))
	state = must(last)
	checkGolden(t, "pipeline-over.json", state)
	checkGolden(t, "pipeline-events.jsonl", last.stderr)

	want{golden: "pipeline-score.json"}.check(t, cmd(state, "score", "exploze"))
	want{}.check(t, cmd(state, "legal", "exploze", "-player", "1"))
	want{code: 1, stderr: "rulebook: FailedPrecondition GAME_OVER: the game is over: player 1 won {winner=1}\n"}.
		check(t, cmd(state, "validate", "exploze", "-move", move(1, 0, 0)))
}
