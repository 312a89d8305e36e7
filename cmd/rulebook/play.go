package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// play is `rulebook play GAME [-seed N] [-options JSON] [-max-moves N]`: a whole game against the server, each move
// chosen uniformly among the legal moves of the player to move by a PCG generator seeded with -seed. It prints a
// line per move, such as `move 12: player 2 {"row":3,"col":4}` (the game's own move), then the final score. The
// same seed, options and server give the same game.
func play(fs *flag.FlagSet) action {
	seed := fs.Uint64("seed", 1, "seed of the game and of the choice of moves")
	options := optionsFlag(fs)
	maxMoves := fs.Int("max-moves", 10000, "moves after which to give up a game that has not ended")
	return func(ctx context.Context, e *env) error {
		if *maxMoves < 1 {
			return usagef("-max-moves must be at least 1")
		}
		opts, err := options()
		if err != nil {
			return err
		}
		created, err := e.client.NewGame(ctx, &rulebookv1.NewGameRequest{Game: e.game, Options: opts, Seed: seed})
		if err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(*seed, 0))
		state, moves := created.GetState(), 0
		for {
			// Player 0 asks for the moves of the player to move, whoever that is.
			legal, err := e.client.ListLegalMoves(ctx, &rulebookv1.ListLegalMovesRequest{Game: e.game, State: state})
			if err != nil {
				return err
			}
			candidates := legal.GetMoves()
			if len(candidates) == 0 || moves == *maxMoves {
				break
			}
			move := candidates[rng.IntN(len(candidates))]
			applied, err := e.client.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: e.game, State: state, Move: move})
			if err != nil {
				return err
			}
			moves++
			if err := writeMove(e, moves, move); err != nil {
				return err
			}
			state = applied.GetState()
		}
		scored, err := e.client.Score(ctx, &rulebookv1.ScoreRequest{Game: e.game, State: state})
		if err != nil {
			return err
		}
		if err := writeJSON(e.stdout, scored.GetScore()); err != nil {
			return err
		}
		switch {
		case scored.GetScore().GetGameOver():
			return nil
		case moves == *maxMoves:
			return fmt.Errorf("gave up after %d moves (-max-moves): the game is not over", moves)
		}
		return errors.New("the server lists no legal move for the player to move (ListLegalMoves, player 0), yet the game is not over")
	}
}

// writeMove prints the line of the n-th move of play, with the game's own move in JSON.
func writeMove(e *env, n int, move *rulebookv1.Move) error {
	text, err := formatJSON(gamePart(move), "")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "move %d: player %d %s\n", n, move.GetPlayer(), text)
	return err
}
