package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/rulebook/rulebook/cmd/rulebook/internal/board"
	"github.com/rulebook/rulebook/cmd/rulebook/internal/explain"
	"github.com/rulebook/rulebook/cmd/rulebook/internal/narrate"
	"github.com/rulebook/rulebook/engine/hosted"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/colour"
)

// play is `rulebook play GAME [-options JSON] [-seat N [-level L] [-think D]] [-token TOKEN -pass PASS]`: a game for
// people at a terminal. It draws the board as text, reads moves in the game's notation (its engine's, through
// engine/hosted; docs/notation.md) one a line, tells a refused move in words, and tells each move played at this
// terminal with what it did (package narrate). Three ways to play:
//
//   - hot-seat (the default): a new game whose every seat's pass play holds; it asks each seat for its move in turn;
//   - against the bot (-seat N): a new game in which the person plays seat N and the bot, the server's SuggestMove,
//     plays every other seat;
//   - joined (-token and -pass): a game someone else set up, played for the seat of the pass (which names it); after
//     each move play prints the token to send to the other players, and waits for the token they send back.
func play(fs *flag.FlagSet) action {
	options := optionsFlag(fs)
	seat := fs.Int("seat", 0, "play seat `N` against the bot, which plays every other seat "+
		"(default: hot-seat, every seat here)")
	level := fs.String("level", "medium", "how strong the bot plays: easy, medium or hard")
	think := fs.Duration("think", 0, "how long the bot thinks over each move, 1ms to 10s and less than -timeout "+
		"(default: the level's budget)")
	token := fs.String("token", "", "join the game of `TOKEN`, set up by someone else (needs -pass)")
	pass := fs.String("pass", "", "your seat `PASS` in the game of -token: the seat it names is yours")
	return func(ctx context.Context, e *env) error {
		n, ok := hosted.NotationOf(e.game)
		if !ok {
			return usagef("play knows no notation of the game %q", e.game)
		}
		t := &table{e: e, notation: n, style: board.Style{Color: colour.For(e.stdout)}, lines: readLines(e.stdin)}
		switch {
		case *token != "" || *pass != "":
			if *token == "" || *pass == "" {
				return usagef("-token and -pass go together: the game and your seat in it")
			}
			if isSet(fs, "options") || isSet(fs, "seat") {
				return usagef("-options and -seat set up a new game: a game joined with -token has its own")
			}
			s, ok := passSeat(*pass)
			if !ok {
				return usagef("-pass %q is not a seat pass: a pass is its seat's number, a dot and a code", *pass)
			}
			t.seat, t.joined = s, true
			t.g = &document{token: *token, seatPass: *pass}
		default:
			if *seat < 0 {
				return usagef("-seat must be a seat from 1")
			}
			opts, err := options()
			if err != nil {
				return err
			}
			if *seat > 0 {
				if t.bot, err = newBot(e, *level, *think); err != nil {
					return err
				}
			}
			created, err := e.client.NewGame(ctx, &rulebookv1.NewGameRequest{Game: e.game, Options: opts, Seal: true})
			if err != nil {
				return err
			}
			t.g, t.seat = newGameDocument(created), int32(*seat)
			if t.seat > int32(len(t.g.seatPasses)) {
				return usagef("-seat %d: this game has %d seats", t.seat, len(t.g.seatPasses))
			}
		}
		return t.play(ctx)
	}
}

// playDetails is the help of play after its summary: the ways to play, the commands and each game's notation.
func playDetails() string {
	var b strings.Builder
	b.WriteString(`Hot-seat by default: every seat at this keyboard, each asked for its move in turn. -seat N plays seat N
against the bot (the server's SuggestMove). -token and -pass join a game set up elsewhere, for the seat the pass
names: after each move play prints the token to send to the other players, and waits for theirs. Each move is
told with what it did: the explosions of an Exploze chain, a Kipicot catch, Micropul's catalysts and points, the
Ubongo Duel duel won. Boards are in colour on a terminal unless NO_COLOR is set. docs/notation.md tells more.

`)
	b.WriteString(commandsHelp)
	for _, g := range hosted.Games() {
		n, _ := hosted.NotationOf(g.Info().GetId())
		fmt.Fprintf(&b, "\n%s:\n%s", g.Info().GetId(), n.Help)
	}
	return b.String()
}

// commandsHelp lists the commands play reads besides moves.
const commandsHelp = `Commands, besides moves:
  moves         list your legal moves in the game's notation
  board         draw the board again
  undo          take your last move back (and the bot's after it)
  seat N        act for seat N when several may move (hot-seat)
  token         print the game's token and passes, to resume or hand on
  help          the notation and these commands
  quit          leave the game
`

// passSeat returns the seat a seat pass names: its number before the dot ("2.<code>" is seat 2's).
func passSeat(pass string) (int32, bool) {
	number, code, ok := strings.Cut(pass, ".")
	seat, err := strconv.ParseInt(number, 10, 32)
	if !ok || code == "" || err != nil || seat < 1 || number[0] == '0' || number[0] == '+' {
		return 0, false
	}
	return int32(seat), true
}

// readLines reads r line by line on its own goroutine, so that play can wait for a line and for the bot at once. The
// channel is closed at the end of r, or when it fails.
func readLines(r io.Reader) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		scanner := bufio.NewScanner(r)
		for scanner.Scan() {
			lines <- scanner.Text()
		}
	}()
	return lines
}

// table is a game played at a terminal.
type table struct {
	e        *env
	notation hosted.Notation
	style    board.Style
	lines    <-chan string
	g        *document         // the game now
	undo     []*document       // the games before each of the person's moves, for undo
	seat     int32             // the person's seat against the bot, or in a joined game; 0 hot-seat
	joined   bool              // whether the game was joined with -token and -pass
	bot      bot               // plays the seats other than seat, against the bot
	acting   int32             // hot-seat: the seat chosen with "seat N" when several may move
	score    *rulebookv1.Score // the standings of scored, kept for the next question about the same game
	scored   *document
}

// turn is who may move in a game.
type turn struct {
	over   bool
	movers []int32 // the seats that have a legal move (of those whose passes the table holds), in seat order
}

// errQuit ends a game that the person left.
var errQuit = errors.New("quit")

// play plays the game to its end, or until the person quits or the input ends.
func (t *table) play(ctx context.Context) error {
	t.printf("%s: type a move, or help.\n", t.e.game)
	if t.joined {
		if err := t.checkJoined(ctx); err != nil {
			return err
		}
	}
	for {
		now, err := t.turn(ctx)
		if err != nil {
			return err
		}
		if now.over {
			return t.finish(ctx)
		}
		err = t.step(ctx, now)
		switch {
		case errors.Is(err, errQuit):
			t.printf("The game is left unfinished. Each seat may take it up with "+
				"rulebook play %s -token TOKEN -pass PASS:\n", t.e.game)
			t.printResume()
			return nil
		case err != nil:
			return err
		}
	}
}

// checkJoined checks the token and pass of a joined game with the server, which refuses a pass of another game.
func (t *table) checkJoined(ctx context.Context) error {
	_, err := t.view(ctx, t.seat)
	if err != nil {
		return fmt.Errorf("joining the game: %s", explain.Refusal(t.e.game, err))
	}
	t.printf("You play seat %d (your pass names it).\n", t.seat)
	return nil
}

// turn asks the server who may move: the seats with legal moves, among those whose passes the table holds.
func (t *table) turn(ctx context.Context) (turn, error) {
	score, err := t.standings(ctx)
	if err != nil {
		return turn{}, err
	}
	if score.GetGameOver() {
		return turn{over: true}, nil
	}
	var now turn
	for seat := int32(1); seat <= t.seats(); seat++ {
		if t.joined && seat != t.seat {
			continue
		}
		moves, err := legalWith(ctx, t.e, t.g, t.g.passFor(seat), 0)
		if err != nil {
			return turn{}, err
		}
		if len(moves) > 0 {
			now.movers = append(now.movers, seat)
		}
	}
	return now, nil
}

// seats returns the number of seats of the game: those whose passes NewGame gave, or the joined seat's number
// (at least as many).
func (t *table) seats() int32 {
	if t.joined {
		return t.seat
	}
	return int32(len(t.g.seatPasses))
}

// step plays one move: the bot's, when only its seats may move, or the person's, read from the terminal.
func (t *table) step(ctx context.Context, now turn) error {
	person := t.personSeat(now)
	if person == 0 && t.joined {
		return t.awaitToken(ctx)
	}
	if person == 0 { // only the bot's seats may move
		return t.botMoves(ctx, now.movers)
	}
	if err := t.draw(ctx, person); err != nil {
		return err
	}
	var race *botRace
	if t.bot != nil {
		race = t.startRace(ctx, now.movers)
		defer race.stop()
	}
	for {
		t.prompt(person, now)
		line, bot, err := t.read(ctx, race.result())
		switch {
		case err != nil:
			return err
		case bot != nil:
			t.printf("\n") // after the prompt the bot cut short
			return t.botPlayed(ctx, *bot)
		}
		done, err := t.command(ctx, person, now, line)
		if done || err != nil {
			return err
		}
	}
}

// read waits for the next line the person types, or for the bot's move in a race (race may be nil). It returns
// errQuit at the end of the input.
func (t *table) read(ctx context.Context, race <-chan raceResult) (string, *raceResult, error) {
	select {
	case <-ctx.Done():
		return "", nil, ctx.Err()
	case line, ok := <-t.lines:
		if !ok {
			t.printf("\n")
			return "", nil, errQuit
		}
		return line, nil, nil
	case r := <-race:
		return "", &r, nil
	}
}

// personSeat returns the seat the person moves for now, or 0 when no seat of theirs may move.
func (t *table) personSeat(now turn) int32 {
	switch {
	case t.seat != 0 && slices.Contains(now.movers, t.seat):
		return t.seat
	case t.seat != 0:
		return 0
	case slices.Contains(now.movers, t.acting):
		return t.acting
	case len(now.movers) > 0:
		return now.movers[0]
	}
	return 0
}

// command runs one line the person typed for seat: a command, or a move. It reports whether the line ended the
// turn (a move was played, or the game left).
func (t *table) command(ctx context.Context, seat int32, now turn, line string) (bool, error) {
	word := strings.ToLower(strings.TrimSpace(line))
	switch {
	case word == "":
		return false, nil
	case word == "help" || word == "?":
		t.printHelp()
		return false, nil
	case word == "quit" || word == "exit":
		return true, errQuit
	case word == "board":
		return false, t.draw(ctx, seat)
	case word == "moves":
		return false, t.printMoves(ctx, seat)
	case word == "undo":
		return t.takeBack(), nil
	case word == "token":
		t.printResume()
		return false, nil
	case strings.HasPrefix(word, "seat ") || word == "seat":
		return t.chooseSeat(now, strings.TrimSpace(strings.TrimPrefix(word, "seat"))), nil
	}
	move, err := t.notation.Parse(seat, line)
	if err != nil {
		t.printf("%s Type help for the notation, moves for the legal moves.\n", explain.Refusal(t.e.game, err))
		return false, nil
	}
	before := t.g
	applied, err := apply(ctx, t.e, t.g, move)
	if err != nil {
		if !isRefusal(err) {
			return true, err
		}
		t.printf("Refused: %s\n", explain.Refusal(t.e.game, err))
		return false, nil
	}
	t.undo = append(t.undo, before)
	if err := t.played(ctx, applied, ""); err != nil {
		return true, err
	}
	if t.joined {
		t.printf("Send the other players this token: %s\n", t.g.token)
	}
	return true, nil
}

// takeBack undoes the person's last move, with the bot's moves after it, and reports whether it did.
func (t *table) takeBack() bool {
	switch {
	case t.joined:
		t.printf("Undo is not possible in a joined game: the other players hold the game after your move.\n")
		return false
	case len(t.undo) == 0:
		t.printf("There is no move of yours to undo.\n")
		return false
	}
	t.g, t.undo = t.undo[len(t.undo)-1], t.undo[:len(t.undo)-1]
	t.printf("Your last move is taken back.\n")
	return true
}

// chooseSeat makes seat (its number in text) the one the person acts for, when several may move at once in a
// hot-seat game (both players in Ubongo Duel). It reports whether the turn is to be shown again.
func (t *table) chooseSeat(now turn, text string) bool {
	n, err := strconv.ParseInt(text, 10, 32) // a number beyond int32 is no seat, not one wrapped around
	switch {
	case t.seat != 0:
		t.printf("You play seat %d only.\n", t.seat)
		return false
	case err != nil || !slices.Contains(now.movers, int32(n)):
		t.printf("Seat %q cannot move now; seats that may: %s.\n", text, narrate.Seats(now.movers))
		return false
	}
	t.acting = int32(n)
	return true
}

// awaitToken waits, in a joined game, for the token the other players send after their moves.
func (t *table) awaitToken(ctx context.Context) error {
	t.printf("Waiting for the other players: paste the token they send you (or quit).\n")
	for {
		t.printf("token> ")
		line, _, err := t.read(ctx, nil)
		if err != nil {
			return err
		}
		line = strings.TrimSpace(line)
		switch strings.ToLower(line) {
		case "":
			continue
		case "quit", "exit":
			return errQuit
		case "help", "?":
			t.printf("It is the other players' turn: paste the token they send after their moves, or quit.\n")
			continue
		}
		next := &document{token: line, seatPass: t.g.seatPass}
		if _, err := scoreOf(ctx, t.e, next); err != nil {
			if !isRefusal(err) {
				return err
			}
			t.printf("That token does not open: %s\n", explain.Refusal(t.e.game, err))
			continue
		}
		t.g = next
		return nil
	}
}

// finish shows the game at its end and its result.
func (t *table) finish(ctx context.Context) error {
	if err := t.draw(ctx, t.seat); err != nil {
		return err
	}
	score, err := scoreOf(ctx, t.e, t.g)
	if err != nil {
		return err
	}
	switch w := score.GetWinners(); len(w) {
	case 0:
		t.printf("A draw.\n")
	case 1:
		t.printf("Player %d wins.\n", w[0])
	default:
		t.printf("Players %s share the win.\n", narrate.Seats(w))
	}
	for _, s := range score.GetStandings() {
		t.printf("  player %d: %d points, rank %d\n", s.GetPlayer(), s.GetPoints(), s.GetRank())
	}
	return nil
}

// draw shows the game as seat sees it (a spectator's view for seat 0).
func (t *table) draw(ctx context.Context, seat int32) error {
	view, err := t.view(ctx, seat)
	if err != nil {
		return err
	}
	t.printf("\n%s", board.Draw(view, seat, t.style))
	return nil
}

// view asks the server what seat may see of the game (a spectator, seat 0, sees what every seat may).
func (t *table) view(ctx context.Context, seat int32) (*rulebookv1.GameState, error) {
	pass := ""
	if seat != 0 {
		pass = t.g.passFor(seat)
	}
	resp, err := t.e.client.GetView(ctx, &rulebookv1.GetViewRequest{
		Game: t.e.game, Token: t.g.token, State: t.g.state, SeatPass: pass})
	return resp.GetView(), err
}

// prompt asks seat for its move.
func (t *table) prompt(seat int32, now turn) {
	others := ""
	if t.seat == 0 && len(now.movers) > 1 {
		others = " (seat N to switch; " + narrate.Seats(now.movers) + " may move)"
	}
	t.printf("player %d%s> ", seat, others)
}

// printMoves lists the legal moves of seat in the notation.
func (t *table) printMoves(ctx context.Context, seat int32) error {
	moves, err := legalWith(ctx, t.e, t.g, t.g.passFor(seat), 0)
	if err != nil {
		return err
	}
	texts := make([]string, 0, len(moves))
	for _, m := range moves {
		text, err := t.notation.Format(m)
		if err != nil {
			return fmt.Errorf("the server listed a move the notation cannot write: %w", err)
		}
		texts = append(texts, text)
	}
	t.printf("%d legal moves: %s\n", len(texts), strings.Join(texts, ", "))
	return nil
}

// standings returns the score of the game now, asking the server once for each game.
func (t *table) standings(ctx context.Context) (*rulebookv1.Score, error) {
	if t.scored != t.g {
		score, err := scoreOf(ctx, t.e, t.g)
		if err != nil {
			return nil, err
		}
		t.score, t.scored = score, t.g
	}
	return t.score, nil
}

// played makes the game the one after applied, a move of the seat by names (" (bot)", or "" for the person), and
// tells the move in the notation with what it did (package narrate): "player 2 (bot) played c3: 2 explosions, 5
// cells taken from player 1".
func (t *table) played(ctx context.Context, applied *rulebookv1.ApplyMoveResponse, by string) error {
	before, err := t.standings(ctx)
	if err != nil {
		return err
	}
	t.g = t.g.after(applied)
	after, err := t.standings(ctx)
	if err != nil {
		return err
	}
	move := applied.GetMove()
	text, err := t.notation.Format(move)
	if err != nil {
		text = "a move the notation cannot write"
	}
	if what := narrate.Move(applied.GetEvents(), before, after); what != "" {
		text += ": " + what
	}
	t.printf("player %d%s played %s\n", move.GetPlayer(), by, text)
	return nil
}

// printHelp lists the commands and the notation of the game.
func (t *table) printHelp() {
	t.printf("%s%s", t.notation.Help, commandsHelp)
}

// printResume prints how to take the game up again: its token and the passes the table holds.
func (t *table) printResume() {
	t.printf("Token: %s\n", t.g.token)
	if t.g.seatPass != "" {
		t.printf("Your pass: %s\n", t.g.seatPass)
		return
	}
	for i, p := range t.g.seatPasses {
		t.printf("Seat %d's pass: %s\n", i+1, p)
	}
}

// printf writes to the terminal; a write that fails shows again at the next read, so it is not reported.
func (t *table) printf(format string, args ...any) {
	fmt.Fprintf(t.e.stdout, format, args...)
}
