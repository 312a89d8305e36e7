package main

import (
	"fmt"
	"strings"
	"testing"
)

// small is the options of a 3 x 3 game of Exploze.
const small = `{"exploze":{"rows":3,"cols":3}}`

// moveAt returns the Exploze move of player on cell (row,col), in JSON.
func moveAt(player, row, col int) string {
	return fmt.Sprintf(`{"player":%d,"exploze":{"row":%d,"col":%d}}`, player, row, col)
}

// newGames returns, as srv's commands print them, a new 3 x 3 game and the same game after player 1 played (0,0)
// and player 2 played (1,1).
func newGames(t *testing.T, srv server) (start, twoMoves string) {
	t.Helper()
	start = must(t, srv.run(t, "", "new", "exploze", "-options", small))
	twoMoves = start
	for _, m := range []string{moveAt(1, 0, 0), moveAt(2, 1, 1)} {
		twoMoves = must(t, srv.run(t, twoMoves, "apply", "exploze", "-move", m))
	}
	return start, twoMoves
}

// TestCommands runs each command, successful or refused, against a real server of each kind, on games that new
// and apply made: plain states from the one, tokens held by the table's host (every seat's pass) from the other.
// The answers are the same, but for the game apply prints.
func TestCommands(t *testing.T) {
	const (
		// legal is the legal moves of player 1 after two moves: every cell but player 2's (1,1).
		legal = `{"player":1,"exploze":{"row":0,"col":0}}
{"player":1,"exploze":{"row":0,"col":1}}
{"player":1,"exploze":{"row":0,"col":2}}
{"player":1,"exploze":{"row":1,"col":0}}
{"player":1,"exploze":{"row":1,"col":2}}
{"player":1,"exploze":{"row":2,"col":0}}
{"player":1,"exploze":{"row":2,"col":1}}
{"player":1,"exploze":{"row":2,"col":2}}
`
		ownedBy2 = "rulebook: FailedPrecondition CELL_OWNED_BY_OPPONENT: cell (1,1) holds player 2's stones {col=1 owner=2 row=1}\n"
	)
	for _, srv := range servers(t) {
		t.Run(srv.name, func(t *testing.T) {
			start, twoMoves := newGames(t, srv)
			tests := []struct {
				name  string
				args  []string
				stdin string
				want  want
			}{
				{"games", []string{"games"}, "", want{golden: "games.txt"}},
				{"new option out of range", []string{"new", "exploze", "-options", `{"exploze":{"rows":40}}`}, "", want{code: 1,
					stderr: "rulebook: InvalidArgument OPTION_OUT_OF_RANGE: option rows is 40; it must be from 2 to 32 {max=32 min=2 option=rows value=40}\n" +
						"  field options.exploze.rows: option rows is 40; it must be from 2 to 32\n"}},
				{"new unknown game", []string{"new", "chess"}, "", want{code: 1,
					stderr: "rulebook: NotFound UNKNOWN_GAME: unknown game \"chess\"; ListGames lists the hosted games {game=chess}\n"}},

				// Without -player, rulebook asks for player 0: every player who may move now.
				{"legal player to move", []string{"legal", "exploze"}, twoMoves, want{stdout: legal}},
				{"legal player 1", []string{"legal", "exploze", "-player", "1"}, twoMoves, want{stdout: legal}},
				{"legal player not to move", []string{"legal", "exploze", "-player", "2"}, twoMoves, want{}},
				{"legal empty stdin", []string{"legal", "exploze"}, "", want{code: 1,
					stderr: "rulebook: no game on standard input: give the output of 'rulebook new' or 'rulebook apply', or a GameState in JSON\n"}},
				{"legal stdin not JSON", []string{"legal", "exploze"}, "rows=3", want{code: 1,
					stderrPrefix: "rulebook: the game on standard input is not a GameState in JSON: "}},

				{"validate legal", []string{"validate", "exploze", "-move", moveAt(1, 2, 2)}, twoMoves, want{stdout: "legal\n"}},
				{"validate opponent's cell", []string{"validate", "exploze", "-move", moveAt(1, 1, 1)}, twoMoves, want{code: 1, stderr: ownedBy2}},
				{"validate not your turn", []string{"validate", "exploze", "-move", moveAt(2, 2, 2)}, twoMoves, want{code: 1,
					stderr: "rulebook: FailedPrecondition NOT_YOUR_TURN: it is player 1's turn, not player 2's {player=2 toMove=1}\n"}},
				{"validate off the board", []string{"validate", "exploze", "-move", moveAt(1, 3, 0)}, twoMoves, want{code: 1,
					stderr: "rulebook: InvalidArgument CELL_OFF_BOARD: cell (3,0) is off the 3 x 3 board {col=0 cols=3 row=3 rows=3}\n" +
						"  field move.exploze.row: cell (3,0) is off the 3 x 3 board\n"}},

				{"apply", []string{"apply", "exploze", "-move", moveAt(1, 2, 2)}, twoMoves, want{golden: "apply-" + srv.name + ".json"}},
				{"apply with events", []string{"apply", "exploze", "-events", "-move", moveAt(1, 2, 2)}, twoMoves, want{
					golden: "apply-" + srv.name + ".json",
					stderr: `{"exploze":{"placed":{"player":1,"cell":{"row":2,"col":2},"stones":1}}}` + "\n"}},
				{"apply illegal", []string{"apply", "exploze", "-events", "-move", moveAt(1, 1, 1)}, twoMoves, want{code: 1, stderr: ownedBy2}},

				{"score", []string{"score", "exploze"}, twoMoves, want{golden: "score-two-moves.json"}},
				{"score of another game", []string{"score", "chess"}, twoMoves, want{code: 1,
					stderr: "rulebook: NotFound UNKNOWN_GAME: unknown game \"chess\"; ListGames lists the hosted games {game=chess}\n"}},

				{"view spectator", []string{"view", "exploze"}, twoMoves, want{golden: "two-moves.json"}},
				{"view player", []string{"view", "exploze", "-viewer", "2"}, start, want{golden: "start.json"}},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					tt.want.check(t, srv.run(t, tt.stdin, tt.args...))
				})
			}
		})
	}
}

// TestTokenCommands checks what is particular to a server that accepts only tokens: new's answer, the seat passes
// each command acts with (-pass, the input's seatPass, or the pass of the seat acted for among its seatPasses),
// spectators, and the refusals of plain states, seeds and passes. Exploze hides nothing, so every view is the
// state.
func TestTokenCommands(t *testing.T) {
	srv := tokenServer(t)
	twoStates := readTestdata(t, "two-moves.json")
	_, twoMoves := newGames(t, srv)
	game := parse(t, twoMoves)
	pass1, pass2 := game.passFor(1), game.passFor(2)
	spectator := fmt.Sprintf(`{"token":%q}`, game.token)
	seat1 := fmt.Sprintf(`{"token":%q,"seatPass":%q}`, game.token, pass1)
	seat2 := fmt.Sprintf(`{"token":%q,"seatPass":%q}`, game.token, pass2)
	forged := "1." + strings.Repeat("A", 22)
	const (
		refusedFor2 = "rulebook: PermissionDenied NOT_YOUR_SEAT: the seat pass is for seat 2: move.player must be 2 {asked=1 field=move.player seat=2}\n"
		refusedFor0 = "rulebook: PermissionDenied NOT_YOUR_SEAT: without a seat pass the caller is a spectator, who may not move {asked=1 field=move.player seat=0}\n"
	)
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  want
	}{
		{"new", []string{"new", "exploze", "-options", small}, "", want{golden: "new-3x3-token.json"}},
		{"new with seat 2's view", []string{"new", "exploze", "-seat", "2", "-options", small}, "", want{golden: "new-3x3-token.json"}},
		{"new with the view of no seat", []string{"new", "exploze", "-seat", "3", "-options", small}, "", want{code: 1,
			stderr: "rulebook: InvalidArgument NO_SUCH_SEAT: seat 3 is not a seat of this game (1 to 2, or 0) {field=seat seat=3 seats=2}\n" +
				"  field seat: seat 3 is not a seat of this game (1 to 2, or 0)\n"}},
		{"new with a seed", []string{"new", "exploze", "-seed", "9"}, "", want{code: 1,
			stderr: "rulebook: PermissionDenied SEED_REFUSED: this server draws every seed itself: leave the seed unset\n"}},
		{"plain state", []string{"legal", "exploze"}, twoStates, want{code: 1,
			stderr: "rulebook: PermissionDenied PLAIN_STATE_REFUSED: this server accepts only tokens: start the game with NewGame and send its token\n"}},

		{"-pass wins over seatPasses", []string{"legal", "exploze", "-pass", pass2}, twoMoves, want{}},
		{"-pass of another seat", []string{"apply", "exploze", "-pass", pass2, "-move", moveAt(1, 2, 2)}, twoMoves, want{code: 1, stderr: refusedFor2}},
		{"forged pass", []string{"validate", "exploze", "-pass", forged, "-move", moveAt(1, 2, 2)}, twoMoves, want{code: 1,
			stderr: "rulebook: PermissionDenied SEAT_PASS_INVALID: seat pass is not valid\n"}},
		{"malformed pass", []string{"score", "exploze", "-pass", "1"}, twoMoves, want{code: 1,
			stderr: "rulebook: InvalidArgument SEAT_PASS_MALFORMED: malformed seat pass {field=seatPass}\n  field seatPass: malformed seat pass\n"}},

		{"spectator's legal moves", []string{"legal", "exploze"}, spectator, want{}},
		{"spectator's move", []string{"apply", "exploze", "-move", moveAt(1, 2, 2)}, spectator, want{code: 1, stderr: refusedFor0}},
		{"spectator's score", []string{"score", "exploze"}, spectator, want{golden: "score-two-moves.json"}},
		{"spectator's view", []string{"view", "exploze"}, spectator, want{golden: "two-moves.json"}},
		{"-pass of a spectator", []string{"validate", "exploze", "-pass", pass1, "-move", moveAt(1, 2, 2)}, spectator, want{stdout: "legal\n"}},

		{"seat 1 moves, keeping its pass", []string{"apply", "exploze", "-move", moveAt(1, 2, 2)}, seat1, want{golden: "apply-token-seat1.json"}},
		{"seat 2's legal moves", []string{"legal", "exploze"}, seat2, want{}},
		{"seat 2 lists seat 1's moves", []string{"legal", "exploze", "-player", "1"}, seat2, want{code: 1,
			stderr: "rulebook: PermissionDenied NOT_YOUR_SEAT: the seat pass is for seat 2: player must be 2 or 0 {asked=1 field=player seat=2}\n"}},
		{"seat 2 moves for seat 1", []string{"validate", "exploze", "-move", moveAt(1, 2, 2)}, seat2, want{code: 1, stderr: refusedFor2}},
		{"seat 2 moves out of turn", []string{"validate", "exploze", "-move", moveAt(2, 2, 2)}, seat2, want{code: 1,
			stderr: "rulebook: FailedPrecondition NOT_YOUR_TURN: it is player 1's turn, not player 2's {player=2 toMove=1}\n"}},
		{"seat 2's view", []string{"view", "exploze"}, seat2, want{golden: "two-moves.json"}},

		{"state and token", []string{"score", "exploze"}, fmt.Sprintf(`{"token":%q,"state":%s}`, game.token, twoStates), want{code: 1,
			stderr: "rulebook: the game on standard input must hold either a state or a token\n"}},
		{"neither state nor token", []string{"score", "exploze"}, fmt.Sprintf(`{"seatPass":%q}`, pass1), want{code: 1,
			stderr: "rulebook: the game on standard input must hold either a state or a token\n"}},
		{"unknown field", []string{"score", "exploze"}, fmt.Sprintf(`{"token":%q,"pass":%q}`, game.token, pass1), want{code: 1,
			stderr: "rulebook: the game on standard input is not a game in JSON: json: unknown field \"pass\"\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, srv.run(t, tt.stdin, tt.args...))
		})
	}
}

// TestPlainCommands checks what is particular to a server that accepts plain states: new's answer, seeds, sealed
// games on request, and bare GameStates on standard input, as rulebook read them before tokens. start.json is a new
// 3 x 3 game, two-moves.json the same after player 1 played (0,0) and player 2 played (1,1).
func TestPlainCommands(t *testing.T) {
	srv := plainServer(t)
	start, twoMoves := readTestdata(t, "start.json"), readTestdata(t, "two-moves.json")
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  want
	}{
		{"new", []string{"new", "exploze", "-options", small}, "", want{golden: "new-3x3-plain.json"}},
		{"new with a seed, flags before GAME", []string{"new", "-seed", "9", "-options", small, "exploze"}, "", want{golden: "new-3x3-plain.json"}},
		{"new default options", []string{"new", "exploze"}, "", want{golden: "new-default.json"}},
		{"new sealed", []string{"new", "exploze", "-seal", "-options", small}, "", want{golden: "new-3x3-token.json"}},

		{"legal of a bare state", []string{"legal", "exploze", "-player", "2"}, twoMoves, want{}},
		{"apply to a bare state", []string{"apply", "exploze", "-move", moveAt(1, 2, 2)}, twoMoves, want{golden: "apply-plain.json"}},
		{"view of a bare state", []string{"view", "exploze", "-viewer", "2"}, start, want{golden: "start.json"}},
		{"bare state of no game", []string{"legal", "exploze"}, "{}", want{code: 1,
			stderr: "rulebook: InvalidArgument GAME_MISMATCH: the state holds no Exploze message {envelope=state game=exploze}\n" +
				"  field state: the state holds no Exploze message\n"}},
		{"state of an unknown game", []string{"legal", "exploze"}, `{"state":{"chess":{}}}`, want{code: 1,
			stderrPrefix: "rulebook: the state of the game on standard input is not a GameState in JSON: "}},
		{"pass with a plain state", []string{"score", "exploze", "-pass", "1." + strings.Repeat("A", 22)}, twoMoves, want{code: 1,
			stderr: "rulebook: InvalidArgument SEAT_PASS_WITHOUT_TOKEN: a seat pass goes with a token, not with a plain state {field=seatPass}\n" +
				"  field seatPass: a seat pass goes with a token, not with a plain state\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, srv.run(t, tt.stdin, tt.args...))
		})
	}
}
