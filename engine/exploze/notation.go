package exploze

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rulebook/rulebook/engine"
)

// playerName returns the letter of player p in the notation: A for player 1 up to H for player 8, "." for nobody.
// Other values, which no valid state holds, are written as "P" and their number.
func playerName(p engine.Player) string {
	switch {
	case p == engine.NoPlayer:
		return "."
	case p >= 1 && p <= MaxPlayers:
		return string(rune('A' + p - 1))
	}
	return "P" + strconv.Itoa(int(p))
}

// NotationHelp describes the move notation of ParseMove for people, in lines that each end in a newline.
const NotationHelp = `A move is the square that gets your stone: its column letter and row number, such as c3 (column c, row 3;
a1 is the top-left square).
`

// ParseMove reads text, a move of player p in the notation of docs/notation.md: the square that gets the stone,
// such as "c3" (column c, row 3, counted from a1 at the top-left). It checks the notation and that the square is on
// the largest board; Validate checks the move.
func ParseMove(p engine.Player, text string) (Move, error) {
	text, err := engine.MoveText(text)
	if err != nil {
		return Move{}, err
	}
	col, row, err := engine.ParseSquare(text, MaxSize)
	return Move{Player: p, Row: row, Col: col}, err
}

// Notation returns m in the notation of ParseMove, without its player: its square, such as "c3".
func (m Move) Notation() string {
	return engine.Square(m.Col, m.Row)
}

// ParseBoard reads a board in the notation of the rules' worked examples and returns its cells row by row and its
// size. Each cell is a player letter (A to H for players 1 to 8) and a stone count of at least 1, or ".0" for an empty
// cell; cells are separated by white space, and rows by "|" or line breaks (blank rows are skipped). Every row must
// have the same number of cells. ParseBoard checks only the notation: NewState checks the position.
func ParseBoard(text string) (cells []Cell, rows, cols int, err error) {
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '|' || r == '\n' }) {
		tokens := strings.Fields(line)
		if len(tokens) == 0 {
			continue
		}
		if rows > 0 && len(tokens) != cols {
			return nil, 0, 0, fmt.Errorf("exploze: row %d has %d cells, row 0 has %d", rows, len(tokens), cols)
		}
		cols = len(tokens)
		for col, token := range tokens {
			cell, err := parseCell(token)
			if err != nil {
				return nil, 0, 0, fmt.Errorf("exploze: cell (%d,%d): %w", rows, col, err)
			}
			cells = append(cells, cell)
		}
		rows++
	}
	if rows == 0 {
		return nil, 0, 0, fmt.Errorf("exploze: no cells in %q", text)
	}
	return cells, rows, cols, nil
}

// parseCell reads one cell of the notation.
func parseCell(token string) (Cell, error) {
	if token == ".0" {
		return Cell{}, nil
	}
	letter, count := token[0], token[1:]
	if letter < 'A' || letter >= 'A'+MaxPlayers {
		return Cell{}, fmt.Errorf("%q is neither .0 nor a player letter A to H and a count", token)
	}
	stones, err := strconv.Atoi(count)
	if err != nil || stones < 1 || count[0] == '+' {
		return Cell{}, fmt.Errorf("%q needs a count of at least 1 after its letter", token)
	}
	return Cell{Owner: engine.Player(letter-'A') + 1, Stones: stones}, nil
}

// Board returns the board in the notation of ParseBoard, on one line with rows separated by " | ", such as
// "B1 A1 B1 | A1 .0 A1 | B1 A1 .0".
func (s *State) Board() string {
	return s.board(" | ")
}

// String returns the state on several lines: the options, the moves played and who is to move (or who won), then the
// board, one row a line, in the notation of ParseBoard. It is the form of the golden playthrough files.
func (s *State) String() string {
	status := playerName(s.toMove) + " to move"
	if w := s.Winner(); w != engine.NoPlayer {
		status = "game over, " + playerName(w) + " won"
	}
	return fmt.Sprintf("%dx%d, %d players, %d moves played, %s\n%s\n", s.opts.Rows, s.opts.Cols, s.opts.Players,
		s.moves, status, s.board("\n"))
}

// board writes the cells row by row, with sep between rows.
func (s *State) board(sep string) string {
	var b strings.Builder
	for i, c := range s.cells {
		switch {
		case i == 0:
		case i%s.opts.Cols == 0:
			b.WriteString(sep)
		default:
			b.WriteByte(' ')
		}
		b.WriteString(playerName(c.Owner) + strconv.Itoa(c.Stones))
	}
	return b.String()
}
