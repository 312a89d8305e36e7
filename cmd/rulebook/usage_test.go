package main

import "testing"

// TestUsage checks help and the usage errors, which rulebook reports before calling the server (an address that
// nothing serves would fail the call otherwise) with exit status 2, or 0 for help.
func TestUsage(t *testing.T) {
	t.Setenv("RULEBOOK_ADDR", "") // the usage shows the default address
	const addr = "127.0.0.1:1"
	helpNew := `usage: rulebook [global flags] new GAME [-options JSON] [-seal] [-seat N] [-seed N]

Print a new game: its state, or its token, a view and every seat's pass.

Flags:
  -options JSON
    	game options as a GameOptions in JSON, such as {"exploze":{"rows":3}}; unset ones take their defaults
  -seal
    	ask for a token and seat passes even from a server that accepts plain states
  -seat int
    	seat (from 1) whose view a token answer carries; 0 means a spectator's
  -seed uint
    	seed of the game's random generator, for games with chance, if the server accepts plain states (default: the server draws one)
`
	tests := []struct {
		name string
		args []string
		want want
	}{
		{"help", []string{"-h"}, want{golden: "usage.txt"}},
		{"help command", []string{"help"}, want{golden: "usage.txt"}},
		{"help of a command", []string{"new", "-h"}, want{stdout: helpNew}},
		{"help of a command by help", []string{"help", "new"}, want{stdout: helpNew}},
		{"help of play, with the notation", []string{"play", "-h"}, want{golden: "play-help.txt"}},
		{"help of an unknown command", []string{"help", "list"}, want{code: 2,
			stderr: "rulebook: unknown command \"list\"\nRun 'rulebook -h' for usage.\n"}},
		{"help of a command after GAME", []string{"new", "exploze", "-help"}, want{stdout: helpNew}},
		{"no command", nil, want{code: 2, stderrPrefix: "usage: rulebook [-addr HOST:PORT]"}},
		{"unknown command", []string{"list"}, want{code: 2,
			stderr: "rulebook: unknown command \"list\"\nRun 'rulebook -h' for usage.\n"}},
		{"unknown global flag", []string{"-port", "1", "games"}, want{code: 2,
			stderr: "rulebook: flag provided but not defined: -port\nRun 'rulebook -h' for usage.\n"}},
		{"bad timeout", []string{"-timeout", "soon", "games"}, want{code: 2,
			stderrPrefix: "rulebook: invalid value \"soon\" for flag -timeout: "}},
		{"timeout not positive", []string{"-timeout", "0s", "games"}, want{code: 2,
			stderr: "rulebook: -timeout must be positive\nRun 'rulebook -h' for usage.\n"}},
		{"missing GAME", []string{"legal"}, want{code: 2,
			stderr: "rulebook legal: missing GAME; 'rulebook games' lists them\n" +
				"usage: rulebook [global flags] legal GAME [-player N] [-pass PASS] < STATE\nRun 'rulebook legal -h' for its flags.\n"}},
		{"extra argument", []string{"score", "exploze", "state.json"}, want{code: 2,
			stderr: "rulebook score: unexpected arguments: [\"state.json\"]\n" +
				"usage: rulebook [global flags] score GAME [-pass PASS] < STATE\nRun 'rulebook score -h' for its flags.\n"}},
		{"games takes no GAME", []string{"games", "exploze"}, want{code: 2,
			stderrPrefix: "rulebook games: unexpected arguments: [\"exploze\"]\n"}},
		{"unknown flag", []string{"view", "exploze", "-player", "1"}, want{code: 2,
			stderr: "rulebook view: flag provided but not defined: -player\n" +
				"usage: rulebook [global flags] view GAME [-viewer N] [-pass PASS] < STATE\nRun 'rulebook view -h' for its flags.\n"}},
		{"bad number", []string{"legal", "exploze", "-player", "two"}, want{code: 2,
			stderrPrefix: "rulebook legal: invalid value \"two\" for flag -player: "}},
		{"missing -move", []string{"apply", "exploze"}, want{code: 2,
			stderr: "rulebook apply: -move is required\n" +
				"usage: rulebook [global flags] apply GAME -move JSON [-events] [-pass PASS] < STATE\nRun 'rulebook apply -h' for its flags.\n"}},
		{"-move not JSON", []string{"validate", "exploze", "-move", "1,1"}, want{code: 2,
			stderrPrefix: "rulebook validate: -move is not a Move in JSON: "}},
		{"-move of unknown field", []string{"validate", "exploze", "-move", `{"row":1}`}, want{code: 2,
			stderrPrefix: "rulebook validate: -move is not a Move in JSON: "}},
		{"-options not JSON", []string{"new", "exploze", "-options", "rows=3"}, want{code: 2,
			stderrPrefix: "rulebook new: -options is not a GameOptions in JSON: "}},
		{"-max-moves not positive", []string{"selfplay", "exploze", "-max-moves", "0"}, want{code: 2,
			stderrPrefix: "rulebook selfplay: -max-moves must be at least 1\n"}},
		{"-token without -pass", []string{"play", "exploze", "-token", "v1.x"}, want{code: 2,
			stderrPrefix: "rulebook play: -token and -pass go together: the game and your seat in it\n"}},
		{"-pass without -token", []string{"play", "exploze", "-pass", "1.x"}, want{code: 2,
			stderrPrefix: "rulebook play: -token and -pass go together: the game and your seat in it\n"}},
		{"-pass of no seat", []string{"play", "exploze", "-token", "v1.x", "-pass", "01.x"}, want{code: 2,
			stderrPrefix: "rulebook play: -pass \"01.x\" is not a seat pass: a pass is its seat's number, a dot and a code\n"}},
		{"-token with -options", []string{"play", "exploze", "-token", "v1.x", "-pass", "1.x", "-options", "{}"}, want{code: 2,
			stderrPrefix: "rulebook play: -options and -seat set up a new game: a game joined with -token has its own\n"}},
		{"-level unknown", []string{"play", "exploze", "-seat", "1", "-level", "expert"}, want{code: 2,
			stderrPrefix: "rulebook play: -level \"expert\": easy, medium or hard\n"}},
		{"-think too long", []string{"play", "exploze", "-seat", "1", "-think", "11s"}, want{code: 2,
			stderrPrefix: "rulebook play: -think 11s: from 1ms to 10s\n"}},
		{"-think beyond -timeout", []string{"-timeout", "2s", "play", "exploze", "-seat", "1", "-think", "3s"}, want{code: 2,
			stderrPrefix: "rulebook play: -think 3s: less than -timeout (2s), which bounds each call\n"}},
		{"-seat negative", []string{"play", "exploze", "-seat", "-1"}, want{code: 2,
			stderrPrefix: "rulebook play: -seat must be a seat from 1\n"}},
		{"everything after -- is positional", []string{"score", "--", "exploze", "-h"}, want{code: 2,
			stderrPrefix: "rulebook score: unexpected arguments: [\"-h\"]\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, rulebook(t, "", append([]string{"-addr", addr}, tt.args...)...))
		})
	}
}
