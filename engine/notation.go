package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxMoveText bounds the text of a move in a game's notation (docs/notation.md) that MoveText reads: the longest move
// of any game (an Ubongo Duel solution of 21 pieces) is far shorter.
const MaxMoveText = 1024

// MoveText returns text, a move typed in a game's notation, trimmed and in lower case, for the game's ParseMove; it
// fails for text that is empty or longer than MaxMoveText.
func MoveText(text string) (string, error) {
	if len(text) > MaxMoveText {
		return "", fmt.Errorf("a move is at most %d characters", MaxMoveText)
	}
	text = strings.ToLower(strings.TrimSpace(text))
	if text == "" {
		return "", errors.New("no move")
	}
	return text, nil
}

// Square returns the name of the square of a grid in column col and row row, both from 0 at the top-left, as the
// games' notations name it: "a1" for (0, 0), "c2" for column 2 of row 1, "aa1" for column 26. Negative values, which
// no grid has, are written in brackets as "[col,row]".
func Square(col, row int) string {
	if col < 0 || row < 0 {
		return fmt.Sprintf("[%d,%d]", col, row)
	}
	return Column(col) + strconv.Itoa(row+1)
}

// Column returns the letters of column col (from 0): a to z, then aa, ab... as spreadsheets count.
func Column(col int) string {
	var b []byte
	for n := col + 1; n > 0; n = (n - 1) / 26 {
		b = append(b, byte('a'+(n-1)%26))
	}
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// ParseSquare reads the name of a square (in lower case, as Square writes it) on a grid of at most limit columns and
// rows, and returns its column and row from 0.
func ParseSquare(text string, limit int) (col, row int, err error) {
	letters := 0
	for letters < len(text) && text[letters] >= 'a' && text[letters] <= 'z' {
		letters++
	}
	digits := text[letters:]
	if letters == 0 || letters > 2 || digits == "" || len(digits) > 3 || digits[0] == '0' ||
		strings.Trim(digits, "0123456789") != "" {
		return 0, 0, fmt.Errorf("%q is not a square: a column letter and a row number, such as c3", text)
	}
	for i := range letters {
		col = col*26 + int(text[i]-'a') + 1
	}
	col--
	row, _ = strconv.Atoi(digits)
	row--
	if col >= limit || row >= limit {
		return 0, 0, fmt.Errorf("square %s is off every board of the game (at most %s%d)", text, Column(limit-1), limit)
	}
	return col, row, nil
}
