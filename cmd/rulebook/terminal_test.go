package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/rulebook/rulebook/clients/clienttest"
)

// The binary of rulebook that the terminal tests run, built once.
var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
	binaryDir  string
)

// TestMain removes the binary the terminal tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binaryDir != "" {
		os.RemoveAll(binaryDir)
	}
	os.Exit(code)
}

// rulebookBinary builds this command with the go command that runs the test, once, and returns its path. The
// terminal tests start processes, which -short leaves out.
func rulebookBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts processes: not with -short")
	}
	binaryOnce.Do(func() {
		goCmd, err := exec.LookPath("go")
		if err != nil {
			binaryErr = err
			return
		}
		if binaryDir, binaryErr = os.MkdirTemp("", "rulebook-tty"); binaryErr != nil {
			return
		}
		binaryPath = filepath.Join(binaryDir, "rulebook")
		out, err := exec.Command(goCmd, "build", "-o", binaryPath, ".").CombinedOutput()
		if err != nil {
			binaryErr = errors.New(string(out))
		}
	})
	if binaryErr != nil {
		t.Fatalf("building rulebook: %v", binaryErr)
	}
	return binaryPath
}

// screenLimit bounds what a terminal test reads of one program: far more than any game here prints.
const screenLimit = 8 << 20

// hangGuard ends a terminal test whose program stopped printing what the test waits for; a test that passes never
// comes near it, so it does not time anything.
const hangGuard = 2 * time.Minute

// terminal is rulebook running in a pseudo-terminal: what it printed, and its keyboard.
type terminal struct {
	t      *testing.T
	cmd    *exec.Cmd
	pty    *os.File
	mu     sync.Mutex
	screen bytes.Buffer // everything printed
	seen   int          // the end of what expect has matched
	more   chan struct{}
	closed bool // the program's side of the terminal is closed: it exited
}

// startTerminal runs the rulebook binary with args in a new pseudo-terminal of 200 columns, with env added to this
// process's environment, and stops it when the test ends.
func startTerminal(t *testing.T, env []string, args ...string) *terminal {
	t.Helper()
	cmd := exec.Command(rulebookBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 60, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	term := &terminal{t: t, cmd: cmd, pty: f, more: make(chan struct{}, 1)}
	go term.read()
	t.Cleanup(func() {
		if term.cmd.ProcessState == nil {
			_ = term.cmd.Process.Kill()
			_ = term.cmd.Wait()
		}
		f.Close()
	})
	return term
}

// read copies what the program prints into the screen until its side of the terminal closes.
func (term *terminal) read() {
	buf := make([]byte, 32<<10)
	for {
		n, err := term.pty.Read(buf)
		term.mu.Lock()
		term.screen.Write(buf[:n])
		if err != nil || term.screen.Len() > screenLimit {
			term.closed = true
		}
		closed := term.closed
		term.mu.Unlock()
		select {
		case term.more <- struct{}{}:
		default:
		}
		if closed {
			return
		}
	}
}

// expect waits until the program prints text after what the last expect matched, and returns what it printed up to
// the end of text.
func (term *terminal) expect(text string) string {
	term.t.Helper()
	guard := time.NewTimer(hangGuard)
	defer guard.Stop()
	for {
		term.mu.Lock()
		rest := term.screen.String()[term.seen:]
		closed := term.closed
		term.mu.Unlock()
		if i := strings.Index(rest, text); i >= 0 {
			term.seen += i + len(text)
			return rest[:i+len(text)]
		}
		if closed {
			term.t.Fatalf("the program ended without printing %q; it printed:\n%s", text, rest)
		}
		select {
		case <-term.more:
		case <-guard.C:
			term.t.Fatalf("the program stopped short of printing %q; it printed:\n%s", text, rest)
		}
	}
}

// expectPrompt waits for the prompt of player (as "player 2>"), and returns what was printed up to it.
func (term *terminal) expectPrompt(player string) string {
	term.t.Helper()
	return term.expect("player " + player + "> ")
}

// promptLine is the prompt for a move: "player 2> ", or "player 1 (seat N to switch; ...)> " when several seats may
// move.
var promptLine = regexp.MustCompile(`player (\d+)[^>\r\n]*> $`)

// expectAnyPrompt waits for the next prompt for a move, and returns the player it asks and what was printed up to
// it.
func (term *terminal) expectAnyPrompt() (player, screen string) {
	term.t.Helper()
	screen = term.expect("> ")
	m := promptLine.FindStringSubmatch(screen)
	if m == nil {
		term.t.Fatalf("no prompt for a move at the end of:\n%s", screen)
	}
	return m[1], screen
}

// typeLine types line and Enter.
func (term *terminal) typeLine(line string) {
	term.t.Helper()
	if _, err := io.WriteString(term.pty, line+"\n"); err != nil {
		term.t.Fatal(err)
	}
}

// wait waits for the program to exit, and checks its exit status.
func (term *terminal) wait(code int) {
	term.t.Helper()
	err := term.cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil && code == 0:
	case errors.As(err, &exit) && exit.ExitCode() == code:
	default:
		term.t.Fatalf("exit: %v, want status %d", err, code)
	}
}

// legalLine is the line of the moves command.
var legalLine = regexp.MustCompile(`(\d+) legal moves: ([^\r\n]*)`)

// firstMove asks for the legal moves and returns the first.
func (term *terminal) firstMove(player string) string {
	term.t.Helper()
	term.typeLine("moves")
	asked, screen := term.expectAnyPrompt()
	if asked != player {
		term.t.Fatalf("the prompt after moves asks player %s, not %s", asked, player)
	}
	m := legalLine.FindStringSubmatch(screen)
	if m == nil || m[1] == "0" {
		term.t.Fatalf("no legal move listed: %q", m)
	}
	return strings.SplitN(m[2], ", ", 2)[0]
}

// noColor is the environment of a terminal without colour, whose screens the tests read as plain text.
var noColor = []string{"NO_COLOR=1"}

// TestTerminalExploze plays a whole hot-seat game of Exploze on a 3 x 3 board in a terminal, each seat typing its
// first legal move (after a refusal of a square held by the opponent, told in words), to the end, whose move is
// narrated (the explosions that took the last stones of a player, who is out), and its result.
func TestTerminalExploze(t *testing.T) {
	addrs := clienttest.Serve(t, clienttest.Config(false))
	term := startTerminal(t, noColor, "-addr", addrs.GRPC, "play", "exploze", "-options", `{"exploze":{"rows":3,"cols":3}}`)
	screen := term.expectPrompt("1")
	for _, want := range []string{"    a   b   c", "  1 .   .   .", "0 moves played. player 1 to move."} {
		if !strings.Contains(screen, want) {
			t.Errorf("the first board lacks %q:\n%s", want, screen)
		}
	}
	term.typeLine("a1")
	term.expect("player 1 played a1")
	term.expect("  1 A1  .   .")
	term.expectPrompt("2")
	term.typeLine("a1")
	term.expect("Refused: a1 holds player 1's stones: you may only add a stone to your own cells or an empty one.")
	term.expectPrompt("2")
	term.typeLine("zz")
	term.expect(`"zz" is not a square`)
	term.expectPrompt("2")
	player := "2"
	for moves := 0; ; moves++ {
		if moves == 100 { // a 3 x 3 game is far shorter
			t.Fatal("the game did not end in 100 moves")
		}
		term.typeLine(term.firstMove(player))
		term.expect("player " + player + " played ")
		screen := term.expect(".\r\n") // the rest of the move's line, the board, and the line of who is to move or the end
		if strings.Contains(screen, "The game is over") {
			if !strings.Contains(screen, " taken from player ") || !strings.Contains(screen, " is out\r\n") {
				t.Errorf("the last move, which took the last stones of a player, is not narrated:\n%s", screen)
			}
			break
		}
		player = map[string]string{"1": "2", "2": "1"}[player]
		term.expectPrompt(player)
	}
	term.expect(" wins.")
	term.expect("  player 2: ")
	term.wait(0)
}

// TestTerminalGames plays a few moves of each other game hot-seat in a terminal, each seat typing its first legal
// move, and checks a board of each, a refusal in words, undo and quit.
func TestTerminalGames(t *testing.T) {
	addrs := clienttest.Serve(t, clienttest.Config(false))
	tests := []struct {
		game    string
		board   []string // lines of the first board
		refused string   // a move the rules refuse at the start, and the sentence that tells why
		reason  string
		moves   int // fewer than can end the game whatever the deal (a token server deals at random)
	}{
		{"kipicot", []string{"    a    b    c    d    e", "Supply: 20 red, 20 yellow.",
			"player 1 to move: step 1, an optional token move (or skip)."},
			"pawn c3", "A pawn step does not belong here: the turn is at step 1, the optional token move.", 12},
		{"micropul", []string{"  0       W W", "Core: 35 tiles.", "player 1: 6 in hand, 0 in supply, 3 of 3 stones left"},
			"take", "Your hand holds 6 tiles already: take no more.", 5}, // a seat's sixth placement may end it
		{"ubongo-duel", []string{"cover the shape with pieces", "player 2: 0 of 5 duels won"},
			"close", "Nobody has solved this duel yet: there is no duel to close.", 2},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			term := startTerminal(t, noColor, "-addr", addrs.GRPC, "play", tt.game)
			_, screen := term.expectAnyPrompt()
			for _, want := range tt.board {
				if !strings.Contains(screen, want) {
					t.Errorf("the first board lacks %q:\n%s", want, screen)
				}
			}
			term.typeLine(tt.refused)
			term.expect("Refused: " + tt.reason)
			term.typeLine("undo")
			term.expect("There is no move of yours to undo.")
			term.expectAnyPrompt()
			for range tt.moves {
				term.typeLine("board")
				player, _ := term.expectAnyPrompt()
				term.typeLine(term.firstMove(player))
				term.expect("player " + player + " played ")
				term.expectAnyPrompt()
			}
			term.typeLine("undo")
			term.expect("Your last move is taken back.")
			term.expectAnyPrompt()
			term.typeLine("quit")
			term.expect("The game is left unfinished.")
			term.expect("Seat 2's pass: 2.")
			term.wait(0)
		})
	}
}

// TestTerminalJoined joins a game set up elsewhere with its token and seat 2's pass: the terminal knows its seat
// from the pass, waits for the token after player 1's move, plays seat 2's move and prints the token to send back.
func TestTerminalJoined(t *testing.T) {
	addrs := clienttest.Serve(t, clienttest.Config(false))
	srv := server{name: "token", addr: addrs.GRPC}
	created := must(t, srv.run(t, "", "new", "exploze", "-options", `{"exploze":{"rows":3,"cols":3}}`))
	game := parse(t, created)
	term := startTerminal(t, noColor, "-addr", addrs.GRPC, "play", "exploze", "-token", game.token,
		"-pass", game.seatPasses[1])
	term.expect("You play seat 2 (your pass names it).")
	term.expect("token> ")
	term.typeLine("v1.not-a-token")
	term.expect("That token does not open: ")
	term.expect("token> ")
	moved := parse(t, must(t, srv.run(t, created, "apply", "exploze", "-move", moveAt(1, 0, 0))))
	term.typeLine(moved.token)
	screen := term.expectPrompt("2")
	if !strings.Contains(screen, "  1 A1  .   .") {
		t.Errorf("the board after player 1's move lacks their stone:\n%s", screen)
	}
	term.typeLine("undo")
	term.expect("Undo is not possible in a joined game")
	term.typeLine("b2")
	term.expect("player 2 played b2")
	sent := regexp.MustCompile(`Send the other players this token: (\S+)`).FindStringSubmatch(term.expect("token> "))
	if sent == nil {
		t.Fatal("no token to send")
	}
	if got := must(t, srv.run(t, `{"token":"`+sent[1]+`"}`, "legal", "exploze", "-pass", game.seatPasses[0])); !strings.Contains(got, `"player":1`) {
		t.Errorf("the token sent is not player 1's turn: legal moves %q", got)
	}
	term.typeLine("quit")
	term.expect("Your pass: 2.")
	term.wait(0)
}

// TestTerminalColor checks that a board in a terminal is in colour, unless NO_COLOR is set, and that one written
// elsewhere is not.
func TestTerminalColor(t *testing.T) {
	addrs := clienttest.Serve(t, clienttest.Config(false))
	term := startTerminal(t, []string{"NO_COLOR="}, "-addr", addrs.GRPC, "play", "exploze")
	if screen := term.expectPrompt("1"); !strings.Contains(screen, "\x1b[") {
		t.Errorf("no colour in a terminal:\n%q", screen)
	}
	term.typeLine("quit")
	term.wait(0)

	t.Setenv("NO_COLOR", "")
	r := rulebook(t, "quit\n", "-addr", addrs.GRPC, "play", "exploze")
	if r.code != exitOK || strings.Contains(r.stdout, "\x1b[") || !strings.Contains(r.stdout, "player 1> ") {
		t.Errorf("written to a file: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
