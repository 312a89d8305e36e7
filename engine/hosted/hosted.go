// Package hosted lists the games that rulebook hosts, with what each surface needs of them beyond the engine: those
// of rulebookd and of the WebAssembly module, which import it so that both host the same games without importing
// each other, and the move notation of rulebook play. docs/adding-a-game.md lists what else a new game touches.
package hosted

import (
	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
	"github.com/rulebook/rulebook/engine/ubongoduel"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// games are the hosted games, in the order of their ids, each with its notation.
var games = []struct {
	game     engine.Game
	notation Notation
}{
	{exploze.Game{}, notation(exploze.ParseMove, exploze.MoveFromProto, exploze.NotationHelp)},
	{kipicot.Game{}, notation(kipicot.ParseMove, kipicot.MoveFromProto, kipicot.NotationHelp)},
	{micropul.Game{}, notation(micropul.ParseMove, micropul.MoveFromProto, micropul.NotationHelp)},
	{ubongoduel.Game{}, notation(ubongoduel.ParseMove, ubongoduel.MoveFromProto, ubongoduel.NotationHelp)},
}

// Games returns the hosted games, in the order of their ids.
func Games() []engine.Game {
	out := make([]engine.Game, len(games))
	for i, g := range games {
		out[i] = g.game
	}
	return out
}

// Notation is a hosted game's move notation (docs/notation.md), the engine's, on the envelopes of the API.
type Notation struct {
	// Parse reads text, a move of player in the notation. It checks the notation, not the move.
	Parse func(player int32, text string) (*rulebookv1.Move, error)
	// Format writes move in the notation, without its player; it fails for a move of another game.
	Format func(move *rulebookv1.Move) (string, error)
	// Help describes the notation for people, in lines that each end in a newline.
	Help string
}

// NotationOf returns the notation of the hosted game id; false for a game not hosted.
func NotationOf(id string) (Notation, bool) {
	for _, g := range games {
		if g.game.Info().GetId() == id {
			return g.notation, true
		}
	}
	return Notation{}, false
}

// notation makes a game's Notation from its engine's: parse reads the notation into a typed move, decode reads a
// move's envelope, and the typed move writes itself in the notation and in its envelope.
func notation[M interface {
	Notation() string
	Proto() *rulebookv1.Move
}](parse func(engine.Player, string) (M, error), decode func(*rulebookv1.Move) (M, error), help string) Notation {
	return Notation{
		Parse: func(player int32, text string) (*rulebookv1.Move, error) {
			m, err := parse(engine.Player(player), text)
			if err != nil {
				return nil, err
			}
			return m.Proto(), nil
		},
		Format: func(move *rulebookv1.Move) (string, error) {
			m, err := decode(move)
			if err != nil {
				return "", err
			}
			return m.Notation(), nil
		},
		Help: help,
	}
}
