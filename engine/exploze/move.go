package exploze

import (
	"slices"
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// Move puts one stone of Player on the cell (Row, Col).
type Move struct {
	Player   engine.Player
	Row, Col int
}

// String returns the move in the notation of ParseMove after its player's letter, such as "A: c3".
func (m Move) String() string {
	return playerName(m.Player) + ": " + m.Notation()
}

// Legal returns every legal move of p, in row-major order: each empty cell and each cell of p's own. It returns none
// when p is not the player to move (including once the game is over).
func (s *State) Legal(p engine.Player) []Move {
	if p == engine.NoPlayer || p != s.toMove {
		return nil
	}
	return s.placements(p, make([]Move, 0, s.owned[engine.NoPlayer]+s.owned[p]))
}

// placements appends to moves a move of p on each empty cell and each cell of p's own, in row-major order, whoever
// is to move, and returns the extended slice.
func (s *State) placements(p engine.Player, moves []Move) []Move {
	for i, c := range s.cells {
		if c.Owner == engine.NoPlayer || c.Owner == p {
			at := s.coord(i)
			moves = append(moves, Move{Player: p, Row: at.Row, Col: at.Col})
		}
	}
	return moves
}

// Validate returns the error Apply would return for m, or nil. The checks, in order:
//
//   - PLAYER_OUT_OF_RANGE (Invalid, field "player"): m.Player is not a player of the game;
//   - CELL_OFF_BOARD (Invalid, field "exploze.row" or "exploze.col"): the cell is not on the board;
//   - GAME_OVER (Illegal): the game is over;
//   - NOT_YOUR_TURN (Illegal): m.Player is not the player to move;
//   - CELL_OWNED_BY_OPPONENT (Illegal): the cell holds another player's stones.
func (s *State) Validate(m Move) error {
	players, rows, cols := s.opts.Players, s.opts.Rows, s.opts.Cols
	switch {
	case !s.isPlayer(m.Player):
		return engine.Invalidf(ReasonPlayerOutOfRange, "player",
			map[string]string{"player": strconv.Itoa(int(m.Player)), "players": strconv.Itoa(players)},
			"player %d is not a player of this %d-player game", m.Player, players)
	case m.Row < 0 || m.Row >= rows:
		return s.offBoard(m, "row")
	case m.Col < 0 || m.Col >= cols:
		return s.offBoard(m, "col")
	case s.Over():
		return engine.Illegalf(ReasonGameOver, map[string]string{"winner": strconv.Itoa(int(s.Winner()))},
			"the game is over: player %d won", s.Winner())
	case m.Player != s.toMove:
		return engine.Illegalf(ReasonNotYourTurn,
			map[string]string{"player": strconv.Itoa(int(m.Player)), "toMove": strconv.Itoa(int(s.toMove))},
			"it is player %d's turn, not player %d's", s.toMove, m.Player)
	}
	if owner := s.cells[m.Row*cols+m.Col].Owner; owner != engine.NoPlayer && owner != m.Player {
		return engine.Illegalf(ReasonCellOwnedByOpponent,
			map[string]string{"row": strconv.Itoa(m.Row), "col": strconv.Itoa(m.Col), "owner": strconv.Itoa(int(owner))},
			"cell (%d,%d) holds player %d's stones", m.Row, m.Col, owner)
	}
	return nil
}

// offBoard returns the CELL_OFF_BOARD error of m, about its field "row" or "col" (inside the envelope's "exploze").
func (s *State) offBoard(m Move, field string) error {
	return engine.Invalidf(ReasonCellOffBoard, "exploze."+field,
		map[string]string{"row": strconv.Itoa(m.Row), "col": strconv.Itoa(m.Col),
			"rows": strconv.Itoa(s.opts.Rows), "cols": strconv.Itoa(s.opts.Cols)},
		"cell (%d,%d) is off the %d x %d board", m.Row, m.Col, s.opts.Rows, s.opts.Cols)
}

// Apply plays m and returns the new state and the events of the move, in order: StonePlaced, then for each wave of
// the chain reaction a Wave, followed by an Eliminated for each player it left without stones and, if the move ended
// the game, GameOver. s is not changed. The error is Validate's, or an Internal EXPLOSION_CAP_EXCEEDED error.
//
// The chain reaction runs in waves. A wave takes every cell at or above its critical number, as counted at the start
// of the wave; each of them loses its critical number of stones and keeps the surplus; then every neighbour gains one
// stone per exploding neighbour and becomes the mover's (a cell that is left with no stone becomes empty). After each
// wave, opponents left without stones are eliminated; when none is left the chain stops and the board stays as it is,
// possibly with unstable cells. Otherwise the chain goes on until every cell is stable.
func (s *State) Apply(m Move) (*State, []Event, error) {
	if err := s.Validate(m); err != nil {
		return nil, nil, err
	}
	return s.play(m, true)
}

// play is Apply of m, a move Validate accepts; with record unset it returns no events, for the bot's search, which
// reads none.
func (s *State) play(m Move, record bool) (*State, []Event, error) {
	next := s.clone()
	next.moves++
	i := m.Row*s.opts.Cols + m.Col
	if next.cells[i].Owner == engine.NoPlayer {
		next.setOwner(i, m.Player)
	}
	next.cells[i].Stones++
	var events []Event
	if record {
		events = []Event{StonePlaced{Player: m.Player, Cell: next.coord(i), Stones: next.cells[i].Stones}}
	}
	events, err := next.react(i, m.Player, explosionCap(next.opts, next.moves), events, record)
	if err != nil {
		return nil, nil, err
	}
	next.toMove = next.after(m.Player)
	return next, events, nil
}

// clone returns a copy of s that shares no memory with it.
func (s *State) clone() *State {
	c := *s
	c.cells = slices.Clone(s.cells)
	return &c
}

// after returns the player to move after mover: the next player in seat order who is still in the game, or
// engine.NoPlayer once the game is over.
func (s *State) after(mover engine.Player) engine.Player {
	if s.Over() {
		return engine.NoPlayer
	}
	p := mover
	for {
		p = p%engine.Player(s.opts.Players) + 1
		if s.live(p) {
			return p
		}
	}
}

// react runs the chain reaction that the mover's stone on cell start may set off, changing s, and returns events with
// the events of the chain appended (none unless record is set), or an Internal EXPLOSION_CAP_EXCEEDED error when the
// chain would pass limit explosions. Each wave costs in proportion to the cells it changes: only the cells that
// exploded or gained a stone in a wave can be unstable in the next.
func (s *State) react(start int, mover engine.Player, limit int, events []Event, record bool) ([]Event, error) {
	if s.cells[start].Stones < s.critical(start) {
		return events, nil
	}
	var alive [MaxPlayers + 1]bool
	for p := range engine.Player(s.opts.Players + 1) {
		alive[p] = p != engine.NoPlayer && p != mover && s.owned[p] > 0
	}
	unstable, touched, explosions := []int{start}, []int(nil), 0
	// checked[i] is the last wave after which cell i was checked, so that each cell is checked once a wave.
	checked := make([]int, len(s.cells))
	var buf [4]int
	for wave := 1; len(unstable) > 0; wave++ {
		explosions += len(unstable)
		if explosions > limit {
			return nil, &engine.Error{Kind: engine.Internal, Reason: ReasonExplosionCapExceeded,
				Facts: map[string]string{"explosions": strconv.Itoa(explosions), "cap": strconv.Itoa(limit),
					"wave": strconv.Itoa(wave)},
				Message: "chain reaction passed the cap of " + strconv.Itoa(limit) + " explosions in wave " +
					strconv.Itoa(wave) + "; this is a bug of the engine"}
		}
		var w Wave
		if record {
			w = Wave{Index: wave, Exploded: make([]Coord, len(unstable))}
			for k, i := range unstable {
				w.Exploded[k] = s.coord(i)
			}
		}
		for _, i := range unstable {
			s.cells[i].Stones -= s.critical(i)
		}
		touched = append(touched[:0], unstable...)
		for _, i := range unstable {
			for _, j := range s.neighbours(i, &buf) {
				if owner := s.cells[j].Owner; owner != mover {
					if owner != engine.NoPlayer && record {
						w.Captured = append(w.Captured, Capture{Cell: s.coord(j), FromPlayer: owner, Stones: s.cells[j].Stones})
					}
					s.setOwner(j, mover)
				}
				s.cells[j].Stones++
				touched = append(touched, j)
			}
		}
		for _, i := range unstable {
			if s.cells[i].Stones == 0 {
				s.setOwner(i, engine.NoPlayer)
			}
		}
		if record {
			slices.SortFunc(w.Captured, func(a, b Capture) int { return compareCoords(a.Cell, b.Cell) })
			events = append(events, w)
		}

		opponents := 0
		for p := range alive {
			if alive[p] && s.owned[p] == 0 {
				alive[p] = false
				if record {
					events = append(events, Eliminated{Player: engine.Player(p), Wave: wave})
				}
			}
			if alive[p] {
				opponents++
			}
		}
		if opponents == 0 {
			if record {
				events = append(events, GameOver{Winner: mover})
			}
			return events, nil
		}

		unstable = unstable[:0]
		for _, i := range touched {
			if checked[i] != wave && s.cells[i].Stones >= s.critical(i) {
				unstable = append(unstable, i)
			}
			checked[i] = wave
		}
		slices.Sort(unstable)
	}
	return events, nil
}

// compareCoords orders coordinates row by row.
func compareCoords(a, b Coord) int {
	if a.Row != b.Row {
		return a.Row - b.Row
	}
	return a.Col - b.Col
}

// explosionCap returns the cap on the explosions of one move on a board of opts that holds stones stones once the
// mover's stone is placed. No chain reaction can reach it; see the proof below. The cap only stops a bug from running
// forever.
//
// The cap is stones x Σ_u dist(u, corner) + cells, where dist is the distance in steps between cells and corner is a
// corner of the board: stones x cells x (rows + cols - 2) / 2 + cells. On the largest board, 32 x 32, with the most
// stones a move can find (2945), it is 93,487,104 explosions. The longest chains known stay hundreds of times below:
// 100,076 explosions (in 1,532 waves) and 13,823 waves (17,520 explosions) for positions found by search, against
// caps of 68 and 63 million for their stone counts (TestChainFarBelowCap). A chain costs about 80 ns an explosion
// (BenchmarkApply), so the cap also bounds a runaway bug to seconds, not forever. A smaller, unproven cap could turn a
// valid move into an error; a proven one cannot.
//
// Proof. A chain is a chip-firing game on the board's grid graph: an explosion of cell u (a firing) moves one stone
// to each of its deg(u) neighbours, deg(u) being its critical number, and a wave fires cells that each hold at least
// deg(u) stones, so a wave is a sequence of legal firings. Let the chain run W waves. Only the mover's cells explode,
// and a cell that gains a stone becomes the mover's for good, so an opponent's cell v that is still there after wave
// W-1 has neither fired nor gained a stone in waves 1..W-1 (such a v exists, else the chain would have stopped).
// Let f(u) be the firings of u in those waves, c0 the board after the mover's stone, c1 the board after wave W-1, L
// the graph Laplacian. Then c1 = c0 - L f with f(v) = 0, so f restricted to the other cells is G (c0 - c1), where
// G, the inverse of L with the row and column of v removed, is the Green function of the grid grounded at v. G has no
// negative entry, and G(u, x) <= G(u, u) = R(u, v), the effective resistance between u and v, which is at most
// dist(u, v) (Rayleigh's monotonicity law: a shortest path alone has resistance dist(u, v)). As c1 >= 0,
//
//	f(u) <= Σ_x G(u, x) c0(x) <= dist(u, v) x stones,
//
// so waves 1..W-1 hold at most stones x Σ_u dist(u, v) explosions, and Σ_u dist(u, v) is largest at a corner
// (|row - r| summed over the rows is a convex function of r, largest at an end; likewise for columns). Wave W
// explodes at most every cell.
func explosionCap(opts Options, stones int) int {
	cells := opts.Rows * opts.Cols
	return stones*cells*(opts.Rows+opts.Cols-2)/2 + cells
}
