package exploze

import "github.com/rulebook/rulebook/engine"

// Score is the standing of a game, live or final.
type Score struct {
	// Players holds one entry per player, in seat order (Players[0] is player 1).
	Players []PlayerScore
	// Over tells whether the game has ended, and Winner who won it (engine.NoPlayer while it goes on).
	Over   bool
	Winner engine.Player
	// FinalMove is the number, from 1, of the move that ended the game (the moves played, once it is over); 0 while
	// the game goes on.
	FinalMove int
}

// PlayerScore is what one player holds on the board.
type PlayerScore struct {
	Player engine.Player
	// Stones and Cells are the stones and the cells the player owns.
	Stones, Cells int
	// Eliminated tells whether the player is out of the game.
	Eliminated bool
}

// Score returns the standings: the stones and cells of each player, and the winner once the game is over.
func (s *State) Score() Score {
	sc := Score{Players: make([]PlayerScore, s.opts.Players), Over: s.Over(), Winner: s.Winner()}
	for i := range sc.Players {
		p := engine.Player(i + 1)
		sc.Players[i] = PlayerScore{Player: p, Cells: s.owned[p], Eliminated: s.Eliminated(p)}
	}
	for _, c := range s.cells {
		if c.Owner != engine.NoPlayer {
			sc.Players[c.Owner-1].Stones += c.Stones
		}
	}
	if sc.Over {
		sc.FinalMove = s.moves
	}
	return sc
}
