package exploze

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// Cell is one square of the board: its owner and its stones. An empty cell has Owner engine.NoPlayer and no stones.
type Cell struct {
	Owner  engine.Player
	Stones int
}

// Coord names a cell by its row and column, from 0 at the top-left.
type Coord struct {
	Row, Col int
}

// String returns the coordinate as "(row,col)".
func (c Coord) String() string {
	return "(" + strconv.Itoa(c.Row) + "," + strconv.Itoa(c.Col) + ")"
}

// State is an Exploze position. It is immutable: no method changes it, and Apply returns a new State.
//
// A State always satisfies the invariants of the rules (see NewState). The player to move and the eliminations follow
// from the board and the number of moves played:
//
//   - Round one is the first Players moves. In it, player k makes move k (so the player to move is MovesPlayed+1), and
//     nobody can be eliminated: a player who has not placed yet simply has no stone.
//   - No explosion can happen in round one. Before its move k, the only stones on the board are the single stones of
//     players 1..k-1, one per cell (by induction). Player k owns no cell, so must place on an empty cell (there is
//     one, as Players <= Rows x Cols), which then holds 1 stone; every critical number is at least 2 (a corner's;
//     boards are at least 2 x 2), so every cell stays stable and the induction goes on. Hence, right after round one,
//     every player holds exactly one cell with one stone.
//   - After round one, a player with no stone is eliminated for good (only the mover's cells explode, so stones never
//     come back to an eliminated player), and the game is over when exactly one player has stones.
type State struct {
	opts   Options
	moves  int
	toMove engine.Player
	// cells is the board, row by row: cell (r, c) is cells[r*opts.Cols+c].
	cells []Cell
	// owned counts the cells of each player; owned[engine.NoPlayer] counts the empty cells.
	owned [MaxPlayers + 1]int
}

// New returns the start of a game: an empty board with player 1 to move. Zero fields of opts take their defaults; an
// option out of range is an Invalid OPTION_OUT_OF_RANGE error whose field is the option's name in ExplozeOptions.
func New(opts Options) (*State, error) {
	opts = opts.withDefaults()
	if err := opts.check(""); err != nil {
		return nil, err
	}
	s := &State{opts: opts, toMove: 1, cells: make([]Cell, opts.Rows*opts.Cols)}
	s.owned[engine.NoPlayer] = len(s.cells)
	return s, nil
}

// NewState builds a state from its parts and checks that it meets the conditions every position reached by play
// meets; cells is the board row by row and is copied. Zero fields of opts take their defaults. The checks, in order,
// each an Invalid error whose field is a path in ExplozeState:
//
//   - OPTION_OUT_OF_RANGE ("options.rows", "options.cols", "options.players"): opts out of range;
//   - BOARD_SIZE_MISMATCH ("owners"): len(cells) is not Rows x Cols;
//   - MOVES_OUT_OF_RANGE ("movesPlayed"): movesPlayed is negative or above the longest possible game (see maxMoves);
//   - for each cell in order, STONES_OUT_OF_RANGE ("stones[i]"): a negative count or one above that bound;
//     OWNER_OUT_OF_RANGE ("owners[i]"): an owner outside 0..Players; CELL_OWNER_MISMATCH ("owners[i]"): an owner on an
//     empty cell, or none on a cell with stones;
//   - STONE_COUNT_MISMATCH ("movesPlayed"): the stones do not add up to movesPlayed;
//   - FIRST_ROUND_MISMATCH ("stones[i]" or "owners[i]"): while movesPlayed <= Players, a board other than one single
//     stone for each of players 1..movesPlayed;
//   - UNSTABLE_CELL ("stones[i]"): a cell at or above its critical number while the game is not over;
//   - TO_MOVE_INVALID ("toMove"): once the game is over anyone but engine.NoPlayer; while nobody is out (so in round
//     one, and in any two-player game not over) a player other than movesPlayed mod Players + 1, as turns have gone
//     round in seat order; right after the first move past round one (movesPlayed = Players + 1), made by player 1,
//     anyone but the next player still in the game after player 1; later one who is not a player still in the game;
//   - LAST_MOVER_STONES ("stones"): after round one, the player who moved last (the winner, or the player still in the
//     game before the player to move) holds fewer than 2 stones;
//   - WINNER_MISMATCH ("movesPlayed"): a finished game whose winner did not make the last move, where that move's
//     player is known: in a two-player game (player 1 makes the odd moves), or when the game ended on the first move
//     past round one (player 1's);
//   - FINAL_WAVE_MISSING ("stones", or "stones[i]"): a finished game's board without the mark of the wave that ended
//     it: no cell has stones on every neighbour, or a cell at or above its critical number is neither such a cell nor
//     next to one.
//
// These are necessary conditions of reachability, each linear in the cells; some positions that no game reaches
// pass them all (docs/rules/exploze.md gives counts on small boards).
func NewState(opts Options, movesPlayed int, toMove engine.Player, cells []Cell) (*State, error) {
	return newState(opts, movesPlayed, toMove, slices.Clone(cells))
}

// newState is NewState taking cells as the board of the new state, without a copy: for decoders, whose cells are
// their own.
func newState(opts Options, movesPlayed int, toMove engine.Player, cells []Cell) (*State, error) {
	opts = opts.withDefaults()
	if err := opts.check("options."); err != nil {
		return nil, err
	}
	if err := checkBoardSize(opts, len(cells), len(cells)); err != nil {
		return nil, err
	}
	if limit := opts.maxMoves(); movesPlayed < 0 || movesPlayed > limit {
		return nil, engine.Invalidf(ReasonMovesOutOfRange, "movesPlayed",
			map[string]string{"movesPlayed": strconv.Itoa(movesPlayed), "max": strconv.Itoa(limit)},
			"%d moves played; a game on this board lasts 0 to %d moves", movesPlayed, limit)
	}
	s := &State{opts: opts, moves: movesPlayed, toMove: toMove, cells: cells}
	if err := s.countCells(); err != nil {
		return nil, err
	}
	if err := s.checkFirstRound(); err != nil {
		return nil, err
	}
	if err := s.checkStable(); err != nil {
		return nil, err
	}
	if err := s.checkToMove(); err != nil {
		return nil, err
	}
	if err := s.checkLastMove(); err != nil {
		return nil, err
	}
	return s, nil
}

// checkBoardSize returns a BOARD_SIZE_MISMATCH error unless the lists of owners and stones of a board of opts (the
// lengths of ExplozeState's owners and stones) each have Rows x Cols entries; its field is the first list that does not.
func checkBoardSize(opts Options, owners, stones int) error {
	want := opts.Rows * opts.Cols
	field, n := "owners", owners
	if owners == want {
		field, n = "stones", stones
	}
	if n != want {
		return engine.Invalidf(ReasonBoardSizeMismatch, field,
			map[string]string{"owners": strconv.Itoa(owners), "stones": strconv.Itoa(stones),
				"rows": strconv.Itoa(opts.Rows), "cols": strconv.Itoa(opts.Cols)},
			"the board has %d owners and %d stone counts; %d x %d needs %d of each", owners, stones, opts.Rows, opts.Cols,
			want)
	}
	return nil
}

// cellError returns an Invalid error about cell i in the list named list ("owners" or "stones"), with the cell's
// coordinates among its facts.
func (s *State) cellError(reason string, i int, list string, facts map[string]string, format string,
	args ...any) error {
	at := s.coord(i)
	facts["row"], facts["col"] = strconv.Itoa(at.Row), strconv.Itoa(at.Col)
	return engine.Invalidf(reason, fmt.Sprintf("%s[%d]", list, i), facts, "cell %v: "+format,
		append([]any{at}, args...)...)
}

// countCells checks each cell's count and owner, fills s.owned and checks that the stones add up to the moves.
func (s *State) countCells() error {
	limit, players, total := s.opts.maxMoves(), engine.Player(s.opts.Players), 0
	for i, c := range s.cells {
		switch {
		case c.Stones < 0 || c.Stones > limit:
			return s.cellError(ReasonStonesOutOfRange, i, "stones",
				map[string]string{"stones": strconv.Itoa(c.Stones), "max": strconv.Itoa(limit)},
				"%d stones; a cell of this board holds 0 to %d", c.Stones, limit)
		case c.Owner < engine.NoPlayer || c.Owner > players:
			return s.cellError(ReasonOwnerOutOfRange, i, "owners",
				map[string]string{"owner": strconv.Itoa(int(c.Owner)), "players": strconv.Itoa(int(players))},
				"owner %d is not a player of a %d-player game", c.Owner, players)
		case (c.Owner == engine.NoPlayer) != (c.Stones == 0):
			return s.cellError(ReasonCellOwnerMismatch, i, "owners",
				map[string]string{"owner": strconv.Itoa(int(c.Owner)), "stones": strconv.Itoa(c.Stones)},
				"owner %d with %d stones; a cell has an owner exactly when it holds stones", c.Owner, c.Stones)
		}
		s.owned[c.Owner]++
		total += c.Stones
	}
	if total != s.moves {
		return engine.Invalidf(ReasonStoneCountMismatch, "movesPlayed",
			map[string]string{"stones": strconv.Itoa(total), "movesPlayed": strconv.Itoa(s.moves)},
			"the board holds %d stones after %d moves; each move adds exactly one", total, s.moves)
	}
	return nil
}

// checkFirstRound checks the board up to the end of round one: one single stone for each player who has placed (see
// State). Together with the stone count, it leaves no other board.
func (s *State) checkFirstRound() error {
	if s.moves > s.opts.Players {
		return nil
	}
	var placed [MaxPlayers + 1]bool
	for i, c := range s.cells {
		facts := func() map[string]string { // only for an error: most boards have none
			return map[string]string{"owner": strconv.Itoa(int(c.Owner)), "stones": strconv.Itoa(c.Stones),
				"movesPlayed": strconv.Itoa(s.moves)}
		}
		switch {
		case c.Owner == engine.NoPlayer:
			continue
		case c.Stones != 1:
			return s.cellError(ReasonFirstRoundMismatch, i, "stones", facts(),
				"%d stones after %d moves; until round one is over every stone is alone on its cell", c.Stones, s.moves)
		case int(c.Owner) > s.moves:
			return s.cellError(ReasonFirstRoundMismatch, i, "owners", facts(),
				"player %d owns a cell after %d moves; in round one player k makes move k", c.Owner, s.moves)
		case placed[c.Owner]:
			return s.cellError(ReasonFirstRoundMismatch, i, "owners", facts(),
				"player %d owns a second cell after %d moves; each player places once in round one", c.Owner, s.moves)
		}
		placed[c.Owner] = true
	}
	return nil
}

// checkStable checks that no cell has reached its critical number, unless the game is over.
func (s *State) checkStable() error {
	if s.Over() {
		return nil
	}
	for i, c := range s.cells {
		if c.Stones < minCritical { // most cells: no need to work out their critical number
			continue
		}
		if k := s.critical(i); c.Stones >= k {
			return s.cellError(ReasonUnstableCell, i, "stones",
				map[string]string{"stones": strconv.Itoa(c.Stones), "critical": strconv.Itoa(k)},
				"%d stones, at or above the critical number %d, in a game that is not over", c.Stones, k)
		}
	}
	return nil
}

// checkToMove checks that the player to move follows from the position.
func (s *State) checkToMove() error {
	var want string
	switch {
	case s.Over():
		if s.toMove == engine.NoPlayer {
			return nil
		}
		want = "nobody (0): the game is over"
	case !s.anyEliminated():
		// Nobody is out, so nobody ever was (a player out stays out): every turn so far went round in seat order.
		next := engine.Player(s.moves%s.opts.Players + 1)
		if s.toMove == next {
			return nil
		}
		want = fmt.Sprintf("player %d: until a player is out, turns go round in seat order", next)
	case s.moves == s.opts.Players+1:
		// Nobody was out before this move, the first after round one, so player 1 made it.
		if next := s.after(1); s.toMove != next {
			want = fmt.Sprintf("player %d, the next still in the game after player 1, who made move %d", next, s.moves)
			break
		}
		return nil
	default:
		if s.live(s.toMove) {
			return nil
		}
		want = "a player still in the game"
	}
	return engine.Invalidf(ReasonToMoveInvalid, "toMove",
		map[string]string{"toMove": strconv.Itoa(int(s.toMove)), "movesPlayed": strconv.Itoa(s.moves)},
		"player to move is %d after %d moves; it must be %s", s.toMove, s.moves, want)
}

// checkLastMove checks that the board fits a last move after round one: the player who made it holds at least 2
// stones (they held one before, and a mover's stones never decrease during their move); the winner made the last
// move, which in a two-player game (turns alternate until the game ends) and on the first move past round one
// (nobody can be out before it) is the seat-order turn's; and a finished game's board shows its last wave (see
// checkFinalWave).
func (s *State) checkLastMove() error {
	if s.moves <= s.opts.Players {
		return nil
	}
	moves := strconv.Itoa(s.moves)
	if mover := s.lastMover(); s.stones(mover) < 2 {
		stones := s.stones(mover)
		return engine.Invalidf(ReasonLastMoverStones, "stones",
			map[string]string{"player": strconv.Itoa(int(mover)), "stones": strconv.Itoa(stones), "movesPlayed": moves},
			"player %d, who made the last move, holds %d stones; after round one a move leaves its player 2 or more",
			mover, stones)
	}
	if !s.Over() {
		return nil
	}
	// Nobody was out before the last move in a two-player game (the first player out ends it), nor when it was the
	// first move after round one: then turns went round in seat order up to it.
	turn := engine.Player((s.moves-1)%s.opts.Players + 1)
	if (s.opts.Players == 2 || s.moves == s.opts.Players+1) && s.Winner() != turn {
		return engine.Invalidf(ReasonWinnerMismatch, "movesPlayed",
			map[string]string{"winner": strconv.Itoa(int(s.Winner())), "movesPlayed": moves},
			"player %d holds every stone after %d moves, but move %d was player %d's", s.Winner(), s.moves, s.moves, turn)
	}
	return s.checkFinalWave()
}

// checkFinalWave checks that a finished game's board shows the wave that ended it. The chain stopped right after
// that wave, so every neighbour of a cell that exploded in it holds stones: call such a cell full. A cell at or above
// its critical number either exploded in that wave (it would have, had it been unstable before) and is full, or
// received a stone from one that did and is next to a full cell.
func (s *State) checkFinalWave() error {
	full := make([]bool, len(s.cells))
	anyFull := false
	for i := range s.cells {
		full[i] = s.neighboursHoldStones(i)
		anyFull = anyFull || full[i]
	}
	if !anyFull {
		return engine.Invalidf(ReasonFinalWaveMissing, "stones", map[string]string{"movesPlayed": strconv.Itoa(s.moves)},
			"the game is over, but no cell has stones on all its neighbours, as the wave that ended it leaves")
	}
	var buf [4]int
	for i, c := range s.cells {
		if c.Stones < s.critical(i) || full[i] || slices.ContainsFunc(s.neighbours(i, &buf), func(j int) bool {
			return full[j]
		}) {
			continue
		}
		return s.cellError(ReasonFinalWaveMissing, i, "stones",
			map[string]string{"stones": strconv.Itoa(c.Stones), "critical": strconv.Itoa(s.critical(i))},
			"%d stones, at or above the critical number %d, far from any cell the wave that ended the game can "+
				"have exploded", c.Stones, s.critical(i))
	}
	return nil
}

// lastMover returns the player who made the last move, after round one: the winner once the game is over, else the
// player still in the game before the player to move in seat order.
func (s *State) lastMover() engine.Player {
	if s.Over() {
		return s.Winner()
	}
	p, players := s.toMove, engine.Player(s.opts.Players)
	for {
		p = (p+players-2)%players + 1
		if s.live(p) {
			return p
		}
	}
}

// stones returns the stones of player p on the board.
func (s *State) stones(p engine.Player) int {
	n := 0
	for _, c := range s.cells {
		if c.Owner == p {
			n += c.Stones
		}
	}
	return n
}

// neighboursHoldStones reports whether every neighbour of cell i holds stones.
func (s *State) neighboursHoldStones(i int) bool {
	var buf [4]int
	for _, j := range s.neighbours(i, &buf) {
		if s.cells[j].Stones == 0 {
			return false
		}
	}
	return true
}

// Options returns the options of the game, with every default filled in.
func (s *State) Options() Options { return s.opts }

// MovesPlayed returns the number of moves played so far, which is also the number of stones on the board.
func (s *State) MovesPlayed() int { return s.moves }

// ToMove returns the player to move, or engine.NoPlayer once the game is over.
func (s *State) ToMove() engine.Player { return s.toMove }

// Cell returns the cell at (row, col); a coordinate off the board gives an empty Cell.
func (s *State) Cell(row, col int) Cell {
	if !s.onBoard(row, col) {
		return Cell{}
	}
	return s.cells[row*s.opts.Cols+col]
}

// Critical returns the critical number of the cell at (row, col), its number of orthogonal neighbours: 2 in a
// corner, 3 on an edge, 4 inside; 0 off the board.
func (s *State) Critical(row, col int) int {
	if !s.onBoard(row, col) {
		return 0
	}
	return s.critical(row*s.opts.Cols + col)
}

// Eliminated reports whether player p is out of the game: every player has placed once and p has no stone left.
func (s *State) Eliminated(p engine.Player) bool {
	return s.isPlayer(p) && s.moves >= s.opts.Players && s.owned[p] == 0
}

// anyEliminated reports whether some player is out of the game.
func (s *State) anyEliminated() bool {
	for p := engine.Player(1); p <= engine.Player(s.opts.Players); p++ {
		if s.Eliminated(p) {
			return true
		}
	}
	return false
}

// Over reports whether the game has ended: every player has placed once and only one has stones left.
func (s *State) Over() bool {
	return s.Winner() != engine.NoPlayer
}

// Winner returns the last player with stones once the game is over, and engine.NoPlayer before.
func (s *State) Winner() engine.Player {
	if s.moves < s.opts.Players {
		return engine.NoPlayer
	}
	winner := engine.NoPlayer
	for p := engine.Player(1); p <= engine.Player(s.opts.Players); p++ {
		if s.owned[p] > 0 {
			if winner != engine.NoPlayer {
				return engine.NoPlayer
			}
			winner = p
		}
	}
	return winner
}

// View returns what viewer may see of the state: everything, as Exploze has no hidden information. It is s itself.
func (s *State) View(viewer engine.Player) *State { return s }

// isPlayer reports whether p is a player of the game.
func (s *State) isPlayer(p engine.Player) bool {
	return p >= 1 && p <= engine.Player(s.opts.Players)
}

// live reports whether p is a player who is still in the game.
func (s *State) live(p engine.Player) bool {
	return s.isPlayer(p) && !s.Eliminated(p)
}

// onBoard reports whether (row, col) is a cell of the board.
func (s *State) onBoard(row, col int) bool {
	return row >= 0 && row < s.opts.Rows && col >= 0 && col < s.opts.Cols
}

// coord returns the coordinates of the cell with index i.
func (s *State) coord(i int) Coord {
	return Coord{Row: i / s.opts.Cols, Col: i % s.opts.Cols}
}

// minCritical is the smallest critical number of a cell: a corner's (every board has at least MinSize rows and
// columns).
const minCritical = 2

// critical returns the critical number of the cell with index i: its number of orthogonal neighbours.
func (s *State) critical(i int) int {
	r, c := i/s.opts.Cols, i%s.opts.Cols
	k := 4
	if r == 0 || r == s.opts.Rows-1 {
		k--
	}
	if c == 0 || c == s.opts.Cols-1 {
		k--
	}
	return k
}

// neighbours stores the indices of the orthogonal neighbours of cell i in buf and returns them.
func (s *State) neighbours(i int, buf *[4]int) []int {
	r, c, cols := i/s.opts.Cols, i%s.opts.Cols, s.opts.Cols
	n := buf[:0]
	if r > 0 {
		n = append(n, i-cols)
	}
	if c > 0 {
		n = append(n, i-1)
	}
	if c < cols-1 {
		n = append(n, i+1)
	}
	if r < s.opts.Rows-1 {
		n = append(n, i+cols)
	}
	return n
}

// setOwner makes p the owner of cell i, keeping the counts of owned cells.
func (s *State) setOwner(i int, p engine.Player) {
	s.owned[s.cells[i].Owner]--
	s.owned[p]++
	s.cells[i].Owner = p
}
