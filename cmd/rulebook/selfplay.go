package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// selfPlay is `rulebook selfplay GAME [-seed N] [-options JSON] [-seal] [-game-seed N] [-max-moves N]`: a whole game
// against the server at one table, each move chosen uniformly among the legal moves of the players who may move by a
// PCG generator seeded with -seed. A token game is played hot-seat: selfplay holds every seat's pass and moves for the
// seat whose move it chose. It prints a line per move, such as `move 12: player 2 {"row":3,"col":4}` (the game's own
// move), then the final score. The same seed, game and server give the same game, whether it is played with plain
// states or with tokens.
func selfPlay(fs *flag.FlagSet) action {
	seed := fs.Uint64("seed", 1, "seed of the choice of moves")
	setup := setupFlags(fs, "game-seed")
	maxMoves := fs.Int("max-moves", 10000, "moves after which to give up a game that has not ended")
	return func(ctx context.Context, e *env) error {
		if *maxMoves < 1 {
			return usagef("-max-moves must be at least 1")
		}
		req, err := setup(e.game)
		if err != nil {
			return err
		}
		created, err := e.client.NewGame(ctx, req)
		if err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(*seed, 0))
		g, moves := newGameDocument(created), 0
		for {
			candidates, err := legalOf(ctx, e, g, 0)
			if err != nil {
				return err
			}
			if len(candidates) == 0 || moves == *maxMoves {
				break
			}
			move := candidates[rng.IntN(len(candidates))]
			applied, err := apply(ctx, e, g, move)
			if err != nil {
				return err
			}
			moves++
			if err := writeMove(e, moves, move); err != nil {
				return err
			}
			g = g.after(applied)
		}
		standings, err := scoreOf(ctx, e, g)
		if err != nil {
			return err
		}
		if err := writeJSON(e.stdout, standings); err != nil {
			return err
		}
		switch {
		case standings.GetGameOver():
			return nil
		case moves == *maxMoves:
			return fmt.Errorf("gave up after %d moves (-max-moves): the game is not over", moves)
		}
		return errors.New("the server lists no legal move for any player, yet the game is not over")
	}
}

// writeMove prints the line of the n-th move of selfplay, with the game's own move in JSON.
func writeMove(e *env, n int, move *rulebookv1.Move) error {
	text, err := formatJSON(gamePart(move), "")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "move %d: player %d %s\n", n, move.GetPlayer(), text)
	return err
}
