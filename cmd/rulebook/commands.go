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

// newGame is `rulebook new GAME [-seed N] [-options JSON]`: the initial state.
func newGame(fs *flag.FlagSet) action {
	seed := fs.Uint64("seed", 0, "seed of the game's random generator, for games with chance (default: the server draws one)")
	options := optionsFlag(fs)
	return func(ctx context.Context, e *env) error {
		opts, err := options()
		if err != nil {
			return err
		}
		req := &rulebookv1.NewGameRequest{Game: e.game, Options: opts}
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "seed" {
				req.Seed = seed
			}
		})
		resp, err := e.client.NewGame(ctx, req)
		if err != nil {
			return err
		}
		return writeJSON(e.stdout, resp.GetState())
	}
}

// legalMoves is `rulebook legal GAME [-player N] < STATE`: the legal moves, one JSON Move per line.
func legalMoves(fs *flag.FlagSet) action {
	player := fs.Int("player", 0, "player (from 1) whose moves to list; 0 means the player to move")
	return func(ctx context.Context, e *env) error {
		state, err := readState(e.stdin)
		if err != nil {
			return err
		}
		resp, err := e.client.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{
			Game: e.game, State: state, Player: int32(*player)})
		if err != nil {
			return err
		}
		for _, m := range resp.GetMoves() {
			if err := writeJSONLine(e.stdout, m); err != nil {
				return err
			}
		}
		return nil
	}
}

// validateMove is `rulebook validate GAME -move JSON < STATE`: "legal", or the error ApplyMove would give.
func validateMove(fs *flag.FlagSet) action {
	move := moveFlag(fs)
	return func(ctx context.Context, e *env) error {
		m, err := move()
		if err != nil {
			return err
		}
		state, err := readState(e.stdin)
		if err != nil {
			return err
		}
		if _, err := e.client.ValidateMove(ctx, &rulebookv1.ValidateMoveRequest{Game: e.game, State: state, Move: m}); err != nil {
			return err
		}
		_, err = fmt.Fprintln(e.stdout, "legal")
		return err
	}
}

// applyMove is `rulebook apply GAME -move JSON [-events] < STATE`: the state after the move, and with -events what
// happened, one JSON Event per line on standard error.
func applyMove(fs *flag.FlagSet) action {
	move := moveFlag(fs)
	events := fs.Bool("events", false, "also print the events of the move to standard error, one per line")
	return func(ctx context.Context, e *env) error {
		m, err := move()
		if err != nil {
			return err
		}
		state, err := readState(e.stdin)
		if err != nil {
			return err
		}
		resp, err := e.client.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: e.game, State: state, Move: m})
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
		return writeJSON(e.stdout, resp.GetState())
	}
}

// score is `rulebook score GAME < STATE`: the live or final standings.
func score(*flag.FlagSet) action {
	return func(ctx context.Context, e *env) error {
		state, err := readState(e.stdin)
		if err != nil {
			return err
		}
		resp, err := e.client.Score(ctx, &rulebookv1.ScoreRequest{Game: e.game, State: state})
		if err != nil {
			return err
		}
		return writeJSON(e.stdout, resp.GetScore())
	}
}

// view is `rulebook view GAME [-viewer N] < STATE`: what a player, or a spectator, may see.
func view(fs *flag.FlagSet) action {
	viewer := fs.Int("viewer", 0, "player (from 1) whose view to show; 0 means a spectator")
	return func(ctx context.Context, e *env) error {
		state, err := readState(e.stdin)
		if err != nil {
			return err
		}
		resp, err := e.client.GetView(ctx, &rulebookv1.GetViewRequest{Game: e.game, State: state, Viewer: int32(*viewer)})
		if err != nil {
			return err
		}
		return writeJSON(e.stdout, resp.GetView())
	}
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
