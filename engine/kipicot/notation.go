package kipicot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rulebook/rulebook/engine"
)

// playerName returns the letter of player p in the notation: A for player 1, B for player 2, "." for nobody. Other
// values, which no valid state holds, are written as "P" and their number.
func playerName(p engine.Player) string {
	switch p {
	case engine.NoPlayer:
		return "."
	case 1, 2:
		return string(rune('A' + p - 1))
	}
	return "P" + strconv.Itoa(int(p))
}

// NotationHelp describes the move notation of ParseMove for people, in lines that each end in a newline.
const NotationHelp = `A move is one step of the turn, or several separated by ";" (a whole turn, such as "skip; r c3; pawn c3"):
  skip          pass up the optional token move of step 1
  b2-b3         move the token (or a stack's top) on b2 to the empty square b3
  r c3, y c3    place a red (r, red) or yellow (y, yellow) token from the supply on c3
  pawn c3       put your pawn on the tokens of c3
  fish b2       take the fishing square whose top-left square is b2
A turn of one step ends in ";" ("skip;"). Squares are a1 (top-left) to e5.
`

// ParseMove reads text, a move of player p in the notation of docs/notation.md: one step ("skip", "b2-b3", "r c3",
// "y c3", "pawn c3", "fish b2"), or a turn of steps separated by ";" (a turn of one step ends in it: "skip;").
// Squares are named from a1 at the top-left. It checks the notation; Validate checks the move.
func ParseMove(p engine.Player, text string) (Move, error) {
	text, err := engine.MoveText(text)
	if err != nil {
		return Move{}, err
	}
	if !strings.Contains(text, ";") {
		step, err := parseStep(text)
		return Move{Player: p, Step: step}, err
	}
	parts := strings.Split(text, ";")
	if strings.TrimSpace(parts[len(parts)-1]) == "" { // "skip;": the ";" after the last step
		parts = parts[:len(parts)-1]
	}
	if len(parts) > MaxTurnSteps {
		return Move{}, fmt.Errorf("a turn has at most %d steps", MaxTurnSteps)
	}
	m := Move{Player: p, Turn: make([]Step, len(parts))}
	for i, part := range parts {
		if m.Turn[i], err = parseStep(part); err != nil {
			return Move{}, fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	return m, nil
}

// parseStep reads one step of the notation.
func parseStep(text string) (Step, error) {
	words := strings.Fields(text)
	if len(words) == 0 {
		return Step{}, errors.New("an empty step")
	}
	square := func(kind StepKind) (Step, error) {
		if len(words) != 2 {
			return Step{}, fmt.Errorf("%q takes one square, such as %s c3", words[0], words[0])
		}
		col, row, err := engine.ParseSquare(words[1], Size)
		return Step{Kind: kind, To: Coord{Row: row, Col: col}}, err
	}
	switch words[0] {
	case "skip":
		if len(words) != 1 {
			return Step{}, errors.New(`"skip" takes nothing after it`)
		}
		return Step{Kind: StepSkip}, nil
	case "r", "red", "y", "yellow":
		st, err := square(StepPlace)
		st.Color = Red
		if words[0][0] == 'y' {
			st.Color = Yellow
		}
		return st, err
	case "pawn", "p":
		return square(StepPawn)
	case "fish", "f":
		return square(StepFish)
	}
	joined := strings.Join(words, "")
	from, to, ok := strings.Cut(joined, "-")
	if !ok {
		return Step{}, fmt.Errorf("%q is not a step: skip, b2-b3, r c3, y c3, pawn c3 or fish b2", joined)
	}
	fc, fr, err := engine.ParseSquare(from, Size)
	if err != nil {
		return Step{}, err
	}
	tc, tr, err := engine.ParseSquare(to, Size)
	return Step{Kind: StepMoveToken, From: Coord{Row: fr, Col: fc}, To: Coord{Row: tr, Col: tc}}, err
}

// Notation returns m in the notation of ParseMove, without its player: its step, or the steps of its turn separated
// by "; " (a turn of one step ending in ";").
func (m Move) Notation() string {
	if m.Turn == nil {
		return m.Step.String()
	}
	texts := make([]string, len(m.Turn))
	for i, st := range m.Turn {
		texts[i] = st.String()
	}
	if len(texts) == 1 {
		return texts[0] + ";"
	}
	return strings.Join(texts, "; ")
}

// square returns the name of the square c in the notation, such as "c3".
func (c Coord) square() string {
	return engine.Square(c.Col, c.Row)
}

// ParseBoard reads a 5 x 5 board in the notation of the rules document: each square is "." when empty, else its
// tokens bottom first as letters ("r" red, "y" yellow: "r", "y", "ry", "yr"), followed by "1" or "2" when that
// player's pawn stands on it ("ry2"). Squares are separated by white space, and rows by "|" or line breaks (blank
// rows are skipped). ParseBoard checks only the notation: NewState checks the position (a same-coloured stack such
// as "rr" is read, and refused there).
func ParseBoard(text string) ([Squares]Square, error) {
	var board [Squares]Square
	rows := 0
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '|' || r == '\n' }) {
		tokens := strings.Fields(line)
		if len(tokens) == 0 {
			continue
		}
		if rows == Size || len(tokens) != Size {
			return board, fmt.Errorf("kipicot: row %d has %d squares; the board is %d x %d", rows, len(tokens), Size, Size)
		}
		for col, token := range tokens {
			q, err := parseSquare(token)
			if err != nil {
				return board, fmt.Errorf("kipicot: square (%d,%d): %w", rows, col, err)
			}
			board[rows*Size+col] = q
		}
		rows++
	}
	if rows != Size {
		return board, fmt.Errorf("kipicot: %d rows in %q; the board has %d", rows, text, Size)
	}
	return board, nil
}

// parseSquare reads one square of the notation.
func parseSquare(token string) (Square, error) {
	var q Square
	body := token
	if n := len(body); n > 1 && (body[n-1] == '1' || body[n-1] == '2') {
		q.Pawn, body = engine.Player(body[n-1]-'0'), body[:n-1]
	}
	if body == "." {
		return q, nil
	}
	if len(body) == 0 || len(body) > 2 {
		return Square{}, fmt.Errorf("%q is neither \".\" nor one or two tokens r/y with an optional pawn 1/2", token)
	}
	for i := range len(body) {
		var c Color
		switch body[i] {
		case 'r':
			c = Red
		case 'y':
			c = Yellow
		default:
			return Square{}, fmt.Errorf("%q has %q, not a token r or y", token, body[i])
		}
		if i == 0 {
			q.Bottom = c
		} else {
			q.Top = c
		}
	}
	return q, nil
}

// squareText writes a square in the notation of ParseBoard.
func squareText(q Square) string {
	letter := map[Color]string{NoColor: "", Red: "r", Yellow: "y"}
	s := letter[q.Bottom] + letter[q.Top]
	if s == "" {
		s = "."
	}
	if q.Pawn != engine.NoPlayer {
		s += strconv.Itoa(int(q.Pawn))
	}
	return s
}

// Board returns the board in the notation of ParseBoard, on one line with rows separated by " | ".
func (s *State) Board() string {
	return s.boardText(" | ")
}

// String returns the state on several lines: who is to move and in which phase (or the outcome), the supply, the
// catches and the anti-stall count, then the board, one row a line, in the notation of ParseBoard with each square
// padded to three characters. It is the form of the golden playthrough file.
func (s *State) String() string {
	status := playerName(s.toMove) + " to move, " + s.phase.String()
	if s.Over() {
		switch sc := s.Score(); {
		case sc.Draw:
			status = "game over, draw"
		default:
			status = "game over, " + playerName(sc.Winner) + " won"
		}
	}
	a, b := s.Caught(1), s.Caught(2)
	return fmt.Sprintf("%s; supply %dr %dy; caught A %dr %dy, B %dr %dy; %d turns without placement\n%s\n", status,
		s.supply[Red], s.supply[Yellow], a.Red, a.Yellow, b.Red, b.Yellow, s.idle, s.boardText("\n"))
}

// boardText writes the squares row by row, with sep between rows; on several lines, squares are padded.
func (s *State) boardText(sep string) string {
	var b strings.Builder
	for i, q := range s.board {
		switch {
		case i == 0:
		case i%Size == 0:
			b.WriteString(sep)
		default:
			b.WriteByte(' ')
		}
		text := squareText(q)
		if sep == "\n" && i%Size != Size-1 {
			text = fmt.Sprintf("%-3s", text)
		}
		b.WriteString(text)
	}
	return b.String()
}
