package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
)

// command is one subcommand of rulebook. Its setup defines the command's flags on a flag set and returns the
// action to run once they are parsed.
type command struct {
	name     string
	synopsis string // the arguments after the name, as the usage shows them
	summary  string
	game     bool          // whether the command takes a GAME argument
	details  func() string // more of the help, after the summary, when there is more to tell
	setup    func(fs *flag.FlagSet) action
}

// action runs a command whose flags are parsed.
type action func(ctx context.Context, e *env) error

// env is what an action works with.
type env struct {
	client  rulebookv1grpc.RulesServiceClient
	timeout time.Duration // -timeout, the longest wait for each call
	game    string        // the GAME argument, for the commands that take one
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
}

// commands lists the subcommands, in the order of the usage text.
var commands = []*command{
	{name: "games", summary: "list the hosted games, their players and options", setup: listGames},
	{name: "new", game: true, setup: newGame,
		synopsis: "GAME [-options JSON] [-seal] [-seat N] [-seed N]",
		summary:  "print a new game: its state, or its token, a view and every seat's pass"},
	{name: "legal", game: true, setup: legalMoves,
		synopsis: "GAME [-player N] [-pass PASS] < STATE", summary: "print the legal moves, one Move per line"},
	{name: "validate", game: true, setup: validateMove,
		synopsis: "GAME -move JSON [-pass PASS] < STATE", summary: `print "legal", or the rule the move breaks`},
	{name: "apply", game: true, setup: applyMove,
		synopsis: "GAME -move JSON [-events] [-pass PASS] < STATE",
		summary:  "print the game after the move, with the move as applied and its events"},
	{name: "score", game: true, setup: score,
		synopsis: "GAME [-pass PASS] < STATE", summary: "print the standings"},
	{name: "view", game: true, setup: view,
		synopsis: "GAME [-viewer N] [-pass PASS] < STATE", summary: "print what a player, or a spectator, may see"},
	{name: "replay", game: true, setup: replay,
		synopsis: "GAME [-seal] [-pass PASS] < RECORD",
		summary:  "print where a record (a game, then the games apply printed) leads, with each move's events"},
	{name: "play", game: true, setup: play,
		synopsis: "GAME [-options JSON] [-seat N [-level L] [-think D]] [-token TOKEN -pass PASS]",
		summary:  "play a game at the terminal, hot-seat or against the bot, with moves in the game's notation",
		details:  playDetails},
	{name: "selfplay", game: true, setup: selfPlay,
		synopsis: "GAME [-seed N] [-options JSON] [-seal] [-game-seed N] [-max-moves N]",
		summary:  "play random legal moves to the end, for every seat, printing each move and the score"},
}

// lookup returns the command called name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// checkArgs checks the positional arguments: a GAME for the commands that take one, nothing else.
func (c *command) checkArgs(args []string) error {
	want := 0
	if c.game {
		want = 1
		if len(args) == 0 {
			return fmt.Errorf("missing GAME; 'rulebook games' lists them")
		}
	}
	if len(args) > want {
		return fmt.Errorf("unexpected arguments: %q", args[want:])
	}
	return nil
}

// usageLine is the one-line usage of the command.
func (c *command) usageLine() string {
	return strings.TrimSpace("usage: rulebook [global flags] " + c.name + " " + c.synopsis)
}

// usageFailed reports a usage error of the command and returns exitUsage.
func (c *command) usageFailed(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "rulebook %s: %v\n%s\nRun 'rulebook %s -h' for its flags.\n", c.name, err, c.usageLine(), c.name)
	return exitUsage
}

// printHelp prints the usage of the command and its flags fs, as asked for with -h.
func (c *command) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "%s\n\n%s.\n", c.usageLine(), upperFirst(c.summary))
	if c.details != nil {
		fmt.Fprintf(w, "\n%s", c.details())
	}
	if hasFlags(fs) {
		fmt.Fprintf(w, "\nFlags:\n")
		printDefaults(w, fs)
	}
}

// usageHead and usageTail are the text of the usage of rulebook before the list of commands and after the flags.
const (
	usageHead = `usage: rulebook [-addr HOST:PORT] [-timeout DURATION] [-tls...] COMMAND [ARGUMENTS]

rulebook asks a rulebookd server the rules of board games. Options, moves, scores and events are rulebook.v1
messages in protobuf JSON. STATE is a game as new, apply and replay print it, read from standard input so that
commands compose in pipelines: a JSON object holding the plain "state" (a GameState), from a server that accepts
plain states, or the "token" of the game, from a server that accepts only tokens (the default), with every seat's
pass in "seatPasses" (as new prints them) or one seat's in "seatPass". A bare GameState is read as a plain state.

With a token, a command acting for a seat sends -pass, else the input's seatPass, else that seat's pass among its
seatPasses: whoever set up the table plays every seat, and hands each player {"token", "seatPass"} with their own
pass only. Without a pass, the caller is a spectator.

rulebook connects over plain TCP, as rulebookd serves by default; with -tls or any -tls-* flag, over TLS, presenting
a client certificate to a server that requires one (mutual TLS) with -tls-cert-file and -tls-key-file. Over TLS, it
sends the API key in the environment variable RULEBOOK_API_KEY, if set, with every call.

Commands:
`
	usageTail = `
Examples:
  rulebook new exploze -options '{"exploze":{"rows":3,"cols":3}}' > start.json
  rulebook legal exploze < start.json
  rulebook apply exploze -move '{"player":1,"exploze":{"row":0,"col":0}}' < start.json > next.json
  cat start.json next.json | rulebook replay exploze
  rulebook selfplay exploze -seed 7
  rulebook play exploze -options '{"exploze":{"rows":4,"cols":4}}'

Run 'rulebook COMMAND -h' for the flags of a command.
Exit status: 0 on success, 1 when a call fails or is refused, 2 for a usage error.
`
)

// printUsage prints the usage of rulebook: its commands and global flags fs.
func printUsage(w io.Writer, fs *flag.FlagSet) {
	io.WriteString(w, usageHead)
	for _, c := range commands {
		fmt.Fprintf(w, "  %s\n    \t%s\n", strings.TrimSpace(c.name+" "+c.synopsis), c.summary)
	}
	fmt.Fprintf(w, "\nGlobal flags:\n")
	printDefaults(w, fs)
	io.WriteString(w, usageTail)
}

// printDefaults prints the flags of fs to w.
func printDefaults(w io.Writer, fs *flag.FlagSet) {
	out := fs.Output()
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(out)
}

// hasFlags reports whether fs defines any flag.
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// upperFirst returns s with its first letter in upper case.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
