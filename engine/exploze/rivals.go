package exploze

import (
	"fmt"

	"github.com/rulebook/rulebook/engine"
)

// rivals is Exploze of any number of players as a two-sided search (search.AlphaBeta) plays it for seat: side 1 is
// seat, side 2 the coalition of its opponents, which minimizes seat's value (the paranoid assumption). With
// bestReply set it is best-reply search (Schadd and Winands, 2011): after each move of seat, the coalition plays one
// move, that of whichever opponent still in the game hurts seat the most, and seat moves again; the others pass.
// Without it, the opponents move in turn as in the game. Its states are rivalStates.
type rivals struct {
	seat      engine.Player
	bestReply bool
	w         []float64 // the players' worth, written by Estimate
}

// rivalState is a state of rivals: the game's state, and in best-reply search, which side moves in it.
type rivalState struct {
	s *State
	// coalition is set when seat's opponents move next (in best-reply search).
	coalition bool
}

// The sides of rivals.
const (
	seatSide      engine.Player = 1
	coalitionSide engine.Player = 2
)

// Mover returns the side to move: NoPlayer once the game is over or seat is out of it.
func (r *rivals) Mover(n rivalState) engine.Player {
	switch {
	case n.s.Over() || n.s.Eliminated(r.seat):
		return engine.NoPlayer
	case r.bestReply && n.coalition || !r.bestReply && n.s.toMove != r.seat:
		return coalitionSide
	}
	return seatSide
}

// Moves appends the moves of the side to move: seat's, or in best-reply search every move of each opponent still in
// the game, else the moves of the player to move; moves that set off an explosion first, each group in row-major
// order.
func (r *rivals) Moves(n rivalState, moves []Move) []Move {
	from := len(moves)
	switch {
	case r.Mover(n) == seatSide:
		moves = n.s.placements(r.seat, moves)
	case r.bestReply:
		for p := engine.Player(1); int(p) <= n.s.opts.Players; p++ {
			if p != r.seat && !n.s.Eliminated(p) {
				moves = n.s.placements(p, moves)
			}
		}
	default:
		moves = n.s.placements(n.s.toMove, moves)
	}
	n.s.explosiveFirst(moves[from:])
	return moves
}

// explosiveFirst reorders moves so that those which set off an explosion (on a loaded cell) come first, keeping the
// order within each group.
func (s *State) explosiveFirst(moves []Move) {
	explosive := 0
	for i, m := range moves {
		at := m.Row*s.opts.Cols + m.Col
		if s.cells[at].Stones == s.critical(at)-1 {
			copy(moves[explosive+1:i+1], moves[explosive:i])
			moves[explosive] = m
			explosive++
		}
	}
}

// Play returns n after m, a move Moves listed: in best-reply search its player moves even out of turn, and the other
// side moves next.
func (r *rivals) Play(n rivalState, m Move) rivalState {
	s := n.s
	if m.Player != s.toMove {
		turned := *s
		turned.toMove = m.Player
		s = &turned
	}
	next, _, err := s.play(m, false)
	if err != nil {
		panic(fmt.Sprintf("exploze: the search's move %v was refused: %v", m, err))
	}
	return rivalState{s: next, coalition: !n.coalition}
}

// Rewards gives seat's side 1 when seat won, else 0, and the coalition the rest.
func (r *rivals) Rewards(n rivalState, out []float64) {
	out[0] = 0
	if n.s.Winner() == r.seat {
		out[0] = 1
	}
	out[1] = 1 - out[0]
}

// Estimate rates seat's side by the margin of its positional worth over the best opponent's (marginOf), and the
// coalition by the rest.
func (r *rivals) Estimate(n rivalState, out []float64) {
	n.s.worth(r.w)
	out[0] = n.s.marginOf(r.seat, r.w)
	out[1] = 1 - out[0]
}
