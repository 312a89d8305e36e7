package main

import "testing"

// TestCommands runs each command, successful or refused, against a real server and checks its output and exit
// status. States come from testdata: start.json is a new 3 x 3 game, two-moves.json the same after player 1 played
// (0,0) and player 2 played (1,1).
func TestCommands(t *testing.T) {
	addr := startServer(t)
	start, twoMoves := readTestdata(t, "start.json"), readTestdata(t, "two-moves.json")
	const (
		move11 = `{"player":1,"exploze":{"row":1,"col":1}}`
		move22 = `{"player":1,"exploze":{"row":2,"col":2}}`
		// legal is the legal moves of player 1 in two-moves.json: every cell but player 2's (1,1).
		legal = `{"player":1,"exploze":{"row":0,"col":0}}
{"player":1,"exploze":{"row":0,"col":1}}
{"player":1,"exploze":{"row":0,"col":2}}
{"player":1,"exploze":{"row":1,"col":0}}
{"player":1,"exploze":{"row":1,"col":2}}
{"player":1,"exploze":{"row":2,"col":0}}
{"player":1,"exploze":{"row":2,"col":1}}
{"player":1,"exploze":{"row":2,"col":2}}
`
	)
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  want
	}{
		{"games", []string{"games"}, "", want{golden: "games.txt"}},
		{"new", []string{"new", "exploze", "-options", `{"exploze":{"rows":3,"cols":3}}`}, "", want{golden: "start.json"}},
		{"new flags before GAME", []string{"new", "-seed", "9", "-options", `{"exploze":{"rows":3,"cols":3}}`, "exploze"}, "",
			want{golden: "start.json"}},
		{"new default options", []string{"new", "exploze"}, "", want{golden: "new-default.json"}},
		{"new option out of range", []string{"new", "exploze", "-options", `{"exploze":{"rows":40}}`}, "", want{code: 1,
			stderr: "rulebook: InvalidArgument OPTION_OUT_OF_RANGE: option rows is 40; it must be from 2 to 32 {max=32 min=2 option=rows value=40}\n" +
				"  field options.exploze.rows: option rows is 40; it must be from 2 to 32\n"}},
		{"new unknown game", []string{"new", "chess"}, "", want{code: 1,
			stderr: "rulebook: NotFound UNKNOWN_GAME: unknown game \"chess\"; ListGames lists the hosted games {game=chess}\n"}},

		// Without -player, rulebook asks for player 0, which ListLegalMovesRequest defines as the player to move.
		{"legal player to move", []string{"legal", "exploze"}, twoMoves, want{stdout: legal}},
		{"legal player 1", []string{"legal", "exploze", "-player", "1"}, twoMoves, want{stdout: legal}},
		{"legal player not to move", []string{"legal", "exploze", "-player", "2"}, twoMoves, want{}},
		{"legal empty stdin", []string{"legal", "exploze"}, "", want{code: 1,
			stderr: "rulebook: no state on standard input: give a GameState in JSON, such as the output of 'rulebook new'\n"}},
		{"legal stdin not JSON", []string{"legal", "exploze"}, "rows=3", want{code: 1,
			stderrPrefix: "rulebook: the state on standard input is not a GameState in JSON: "}},
		{"legal state of no game", []string{"legal", "exploze"}, "{}", want{code: 1,
			stderr: "rulebook: InvalidArgument GAME_MISMATCH: the state holds no Exploze message {envelope=state game=exploze}\n" +
				"  field state: the state holds no Exploze message\n"}},

		{"validate legal", []string{"validate", "exploze", "-move", move22}, twoMoves, want{stdout: "legal\n"}},
		{"validate opponent's cell", []string{"validate", "exploze", "-move", move11}, twoMoves, want{code: 1,
			stderr: "rulebook: FailedPrecondition CELL_OWNED_BY_OPPONENT: cell (1,1) holds player 2's stones {col=1 owner=2 row=1}\n"}},
		{"validate not your turn", []string{"validate", "exploze", "-move", `{"player":2,"exploze":{"row":2,"col":2}}`}, twoMoves, want{code: 1,
			stderr: "rulebook: FailedPrecondition NOT_YOUR_TURN: it is player 1's turn, not player 2's {player=2 toMove=1}\n"}},
		{"validate off the board", []string{"validate", "exploze", "-move", `{"player":1,"exploze":{"row":3,"col":0}}`}, twoMoves, want{code: 1,
			stderr: "rulebook: InvalidArgument CELL_OFF_BOARD: cell (3,0) is off the 3 x 3 board {col=0 cols=3 row=3 rows=3}\n" +
				"  field move.exploze.row: cell (3,0) is off the 3 x 3 board\n"}},

		{"apply", []string{"apply", "exploze", "-move", move22}, twoMoves, want{golden: "apply.json"}},
		{"apply with events", []string{"apply", "exploze", "-events", "-move", move22}, twoMoves, want{golden: "apply.json",
			stderr: `{"exploze":{"placed":{"player":1,"cell":{"row":2,"col":2},"stones":1}}}` + "\n"}},
		{"apply illegal", []string{"apply", "exploze", "-events", "-move", move11}, twoMoves, want{code: 1,
			stderr: "rulebook: FailedPrecondition CELL_OWNED_BY_OPPONENT: cell (1,1) holds player 2's stones {col=1 owner=2 row=1}\n"}},

		{"score", []string{"score", "exploze"}, twoMoves, want{golden: "score-two-moves.json"}},
		{"score of another game", []string{"score", "chess"}, twoMoves, want{code: 1,
			stderr: "rulebook: NotFound UNKNOWN_GAME: unknown game \"chess\"; ListGames lists the hosted games {game=chess}\n"}},

		{"view spectator", []string{"view", "exploze"}, twoMoves, want{golden: "two-moves.json"}},
		{"view player", []string{"view", "exploze", "-viewer", "2"}, start, want{golden: "start.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, rulebook(t, tt.stdin, append([]string{"-addr", addr}, tt.args...)...))
		})
	}
}
