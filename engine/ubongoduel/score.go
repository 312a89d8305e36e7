package ubongoduel

import "github.com/rulebook/rulebook/engine"

// Score is the standing of a game, live or final.
type Score struct {
	// DuelsWon holds the duels won by each player, in seat order.
	DuelsWon [Players]int
	// Sheet is the sheet of the current duel (the last one once over); Leader the leader of a catch-up duel in play.
	Sheet  int
	Leader engine.Player
	Over   bool
	// Winner is the first player to win 5 duels, once the game is over.
	Winner engine.Player
}

// Score returns the standings. It works on views too: everything it counts is public.
func (s *State) Score() Score {
	return Score{DuelsWon: [Players]int{s.seats[0].DuelsWon, s.seats[1].DuelsWon}, Sheet: s.sheet,
		Leader: s.leader, Over: s.Over(), Winner: s.winner}
}
