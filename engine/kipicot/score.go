package kipicot

import "github.com/rulebook/rulebook/engine"

// Score is the standing of a game, live or final.
type Score struct {
	// Players holds one entry per player, in seat order (Players[0] is player 1).
	Players [Players]PlayerScore
	// Over tells whether the game has ended. Once it has, Winner is the player who caught the most tokens, or
	// engine.NoPlayer with Draw set when both caught as many.
	Over   bool
	Winner engine.Player
	Draw   bool
	// SupplyRed and SupplyYellow are the tokens left in the supply.
	SupplyRed, SupplyYellow int
}

// PlayerScore is what one player has caught: their points are Caught.Total().
type PlayerScore struct {
	Player engine.Player
	Caught Catch
}

// Score returns the standings: each player's catch, and the outcome once the game is over.
func (s *State) Score() Score {
	sc := Score{Over: s.Over(), SupplyRed: s.supply[Red], SupplyYellow: s.supply[Yellow]}
	for i := range sc.Players {
		p := engine.Player(i + 1)
		sc.Players[i] = PlayerScore{Player: p, Caught: s.Caught(p)}
	}
	if sc.Over {
		a, b := sc.Players[0].Caught.Total(), sc.Players[1].Caught.Total()
		switch {
		case a > b:
			sc.Winner = 1
		case b > a:
			sc.Winner = 2
		default:
			sc.Draw = true
		}
	}
	return sc
}
