package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// listGames is `rulebook games`: a table of the hosted games, with a line per option.
func listGames(*flag.FlagSet) action {
	return func(ctx context.Context, e *env) error {
		resp, err := e.client.ListGames(ctx, &rulebookv1.ListGamesRequest{})
		if err != nil {
			return err
		}
		return writeGames(e.stdout, resp.GetGames())
	}
}

// writeGames writes the table of games: id, name and players on the game's first line, then its options with
// their defaults and ranges, one per line.
func writeGames(w io.Writer, games []*rulebookv1.GameInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tNAME\tPLAYERS\tOPTION\tDEFAULT\tRANGE")
	for _, g := range games {
		players := fmt.Sprintf("%d-%d (default %d)", g.GetMinPlayers(), g.GetMaxPlayers(), g.GetDefaultPlayers())
		first := fmt.Sprintf("%s\t%s\t%s", g.GetId(), g.GetName(), players)
		if len(g.GetOptions()) == 0 {
			fmt.Fprintf(tw, "%s\t-\t\t\n", first)
		}
		for i, o := range g.GetOptions() {
			if i > 0 {
				first = "\t\t"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", first, o.GetName(), o.GetDefaultValue(), optionRange(o))
		}
	}
	return tw.Flush()
}

// optionRange describes the values an option accepts.
func optionRange(o *rulebookv1.OptionInfo) string {
	switch o.GetType() {
	case rulebookv1.OptionType_OPTION_TYPE_INTEGER:
		return strconv.FormatInt(o.GetMin(), 10) + ".." + strconv.FormatInt(o.GetMax(), 10)
	case rulebookv1.OptionType_OPTION_TYPE_BOOLEAN:
		return "true|false"
	case rulebookv1.OptionType_OPTION_TYPE_ENUM:
		return strings.Join(o.GetValues(), "|")
	}
	return "?"
}

// newGame is `rulebook new GAME [-options JSON] [-seal] [-seat N] [-seed N]`: the game NewGame answers, as a
// document.
func newGame(fs *flag.FlagSet) action {
	setup := setupFlags(fs, "seed")
	seat := fs.Int("seat", 0, "seat (from 1) whose view a token answer carries; 0 means a spectator's")
	return func(ctx context.Context, e *env) error {
		req, err := setup(e.game)
		if err != nil {
			return err
		}
		req.Seat = int32(*seat)
		resp, err := e.client.NewGame(ctx, req)
		if err != nil {
			return err
		}
		return writeDocument(e.stdout, newGameDocument(resp))
	}
}

// legalMoves is `rulebook legal GAME [-player N] [-pass PASS] < STATE`: the legal moves, one JSON Move per line.
func legalMoves(fs *flag.FlagSet) action {
	player := fs.Int("player", 0, "player (from 1) whose moves to list; 0 means every player who may move now")
	input := gameInput(fs)
	return func(ctx context.Context, e *env) error {
		g, err := input(e.stdin)
		if err != nil {
			return err
		}
		moves, err := legalOf(ctx, e, g, int32(*player))
		if err != nil {
			return err
		}
		for _, m := range moves {
			if err := writeJSONLine(e.stdout, m); err != nil {
				return err
			}
		}
		return nil
	}
}

// legalOf lists the legal moves of player in g; player 0 means every player who may move now. For the host of a
// token game, who holds every seat's pass, that is each seat's moves in seat order, as for a plain state.
func legalOf(ctx context.Context, e *env, g *document, player int32) ([]*rulebookv1.Move, error) {
	if player != 0 || !g.hostsTable() {
		return legalWith(ctx, e, g, g.passFor(player), player)
	}
	var all []*rulebookv1.Move
	for _, pass := range g.seatPasses {
		moves, err := legalWith(ctx, e, g, pass, 0) // 0: the seat of the pass
		if err != nil {
			return nil, err
		}
		all = append(all, moves...)
	}
	return all, nil
}

// legalWith asks the server for the legal moves of player in g, with the seat pass pass.
func legalWith(ctx context.Context, e *env, g *document, pass string, player int32) ([]*rulebookv1.Move, error) {
	resp, err := e.client.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{
		Game: e.game, State: g.state, Token: g.token, SeatPass: pass, Player: player})
	return resp.GetMoves(), err
}

// validateMove is `rulebook validate GAME -move JSON [-pass PASS] < STATE`: "legal", or the error ApplyMove would
// give.
func validateMove(fs *flag.FlagSet) action {
	move := moveFlag(fs)
	input := gameInput(fs)
	return func(ctx context.Context, e *env) error {
		m, err := move()
		if err != nil {
			return err
		}
		g, err := input(e.stdin)
		if err != nil {
			return err
		}
		if _, err := e.client.ValidateMove(ctx, &rulebookv1.ValidateMoveRequest{
			Game: e.game, State: g.state, Token: g.token, SeatPass: g.passFor(m.GetPlayer()), Move: m}); err != nil {
			return err
		}
		_, err = fmt.Fprintln(e.stdout, "legal")
		return err
	}
}

// applyMove is `rulebook apply GAME -move JSON [-events] [-pass PASS] < STATE`: the game after the move, as a
// document with the seat passes of the input, and with -events what happened, one JSON Event per line on standard
// error.
func applyMove(fs *flag.FlagSet) action {
	move := moveFlag(fs)
	events := fs.Bool("events", false, "also print the events of the move to standard error, one per line")
	input := gameInput(fs)
	return func(ctx context.Context, e *env) error {
		m, err := move()
		if err != nil {
			return err
		}
		g, err := input(e.stdin)
		if err != nil {
			return err
		}
		resp, err := apply(ctx, e, g, m)
		if err != nil {
			return err
		}
		if *events {
			for _, ev := range resp.GetEvents() {
				if err := writeJSONLine(e.stderr, ev); err != nil {
					return err
				}
			}
		}
		return writeDocument(e.stdout, g.after(resp))
	}
}

// apply plays move in g, for the move's player.
func apply(ctx context.Context, e *env, g *document, move *rulebookv1.Move) (*rulebookv1.ApplyMoveResponse, error) {
	return e.client.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{
		Game: e.game, State: g.state, Token: g.token, SeatPass: g.passFor(move.GetPlayer()), Move: move})
}

// score is `rulebook score GAME [-pass PASS] < STATE`: the live or final standings.
func score(fs *flag.FlagSet) action {
	input := gameInput(fs)
	return func(ctx context.Context, e *env) error {
		g, err := input(e.stdin)
		if err != nil {
			return err
		}
		standings, err := scoreOf(ctx, e, g)
		if err != nil {
			return err
		}
		return writeJSON(e.stdout, standings)
	}
}

// scoreOf asks the server for the standings of g.
func scoreOf(ctx context.Context, e *env, g *document) (*rulebookv1.Score, error) {
	resp, err := e.client.Score(ctx, &rulebookv1.ScoreRequest{Game: e.game, State: g.state, Token: g.token, SeatPass: g.passFor(0)})
	return resp.GetScore(), err
}

// view is `rulebook view GAME [-viewer N] [-pass PASS] < STATE`: what a player, or a spectator, may see.
func view(fs *flag.FlagSet) action {
	viewer := fs.Int("viewer", 0, "player (from 1) whose view to show; 0 means a spectator, or the seat of your own pass")
	input := gameInput(fs)
	return func(ctx context.Context, e *env) error {
		g, err := input(e.stdin)
		if err != nil {
			return err
		}
		resp, err := e.client.GetView(ctx, &rulebookv1.GetViewRequest{
			Game: e.game, State: g.state, Token: g.token, SeatPass: g.passFor(int32(*viewer)), Viewer: int32(*viewer)})
		if err != nil {
			return err
		}
		return writeJSON(e.stdout, resp.GetView())
	}
}

// setupFlags defines the flags that set up a game on fs: -options, -seal and the game's seed, called seedName, and
// returns a function making the NewGameRequest for a game from them.
func setupFlags(fs *flag.FlagSet, seedName string) func(game string) (*rulebookv1.NewGameRequest, error) {
	options := optionsFlag(fs)
	seal := fs.Bool("seal", false, "ask for a token and seat passes even from a server that accepts plain states")
	seed := fs.Uint64(seedName, 0, "seed of the game's random generator, for games with chance, if the server accepts "+
		"plain states (default: the server draws one)")
	return func(game string) (*rulebookv1.NewGameRequest, error) {
		opts, err := options()
		if err != nil {
			return nil, err
		}
		req := &rulebookv1.NewGameRequest{Game: game, Options: opts, Seal: *seal}
		if isSet(fs, seedName) {
			req.Seed = seed
		}
		return req, nil
	}
}

// isSet reports whether the flag called name was set on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// optionsFlag defines -options on fs and returns a function giving its value as GameOptions: nil when the flag
// is not set (every default), and a usage error when it is not a GameOptions in protobuf JSON.
func optionsFlag(fs *flag.FlagSet) func() (*rulebookv1.GameOptions, error) {
	text := fs.String("options", "", "game options as a GameOptions in `JSON`, such as {\"exploze\":{\"rows\":3}}; unset ones take their defaults")
	return func() (*rulebookv1.GameOptions, error) {
		if *text == "" {
			return nil, nil
		}
		opts := &rulebookv1.GameOptions{}
		return opts, parseFlagJSON("options", *text, opts)
	}
}

// moveFlag defines the required -move on fs and returns a function giving its value, or a usage error when it is
// missing or not a Move in protobuf JSON.
func moveFlag(fs *flag.FlagSet) func() (*rulebookv1.Move, error) {
	text := fs.String("move", "", "the move as a Move in `JSON`, such as {\"player\":1,\"exploze\":{\"row\":0,\"col\":0}} (required)")
	return func() (*rulebookv1.Move, error) {
		if *text == "" {
			return nil, usagef("-move is required")
		}
		m := &rulebookv1.Move{}
		return m, parseFlagJSON("move", *text, m)
	}
}
