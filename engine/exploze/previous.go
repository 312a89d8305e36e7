package exploze

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/rulebook/rulebook/engine"
)

// packVersion is the format version of the private form in which the tokens of an earlier release held Exploze's
// states, the byte after engine.PrivateForm.
const packVersion = 1

// cellBase is the number of owners a cell's varint in that form tells apart (engine.NoPlayer and the players 1 to
// MaxPlayers): a cell was written as Stones*cellBase + Owner.
const cellBase = MaxPlayers + 1

// errPacked is the error of bytes that are no state in the previous private form.
var errPacked = errors.New("exploze: not a packed state")

// ReadPreviousForm returns the state in b, the bytes after engine.PrivateForm in a token of an earlier release, checked
// as NewState checks it (see engine.PreviousForm). That form was: the version, then as unsigned varints the rows, the
// columns, the players, the moves played and the player to move, then each cell, row by row, as
// Stones*cellBase+Owner. Bytes of another version, cut short, with bytes left over or with a field out of range are an
// error.
func (definition) ReadPreviousForm(b []byte) (*State, error) {
	if len(b) == 0 || b[0] != packVersion {
		return nil, fmt.Errorf("%w: format version missing or not %d", errPacked, packVersion)
	}
	b = b[1:]
	var header [5]int
	for i, limit := range [...]int{MaxSize, MaxSize, MaxPlayers, math.MaxInt32, MaxPlayers} {
		n, ok := 0, false
		if n, b, ok = uvarint(b, limit); !ok {
			return nil, fmt.Errorf("%w: header", errPacked)
		}
		header[i] = n
	}
	opts := Options{Rows: header[0], Cols: header[1], Players: header[2]}
	if opts.Rows == 0 || opts.Cols == 0 || opts.Players == 0 {
		return nil, fmt.Errorf("%w: options", errPacked)
	}
	cells := make([]Cell, opts.Rows*opts.Cols)
	for i := range cells {
		v, ok := 0, false
		if v, b, ok = uvarint(b, math.MaxInt32); !ok {
			return nil, fmt.Errorf("%w: cell %d", errPacked, i)
		}
		cells[i] = Cell{Owner: engine.Player(v % cellBase), Stones: v / cellBase}
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the cells", errPacked, len(b))
	}
	return newState(opts, header[3], engine.Player(header[4]), cells)
}

// uvarint reads the unsigned varint at the start of b, which must be at most limit, and returns it with the bytes
// after it; ok is false if there is none or it is above limit.
func uvarint(b []byte, limit int) (n int, rest []byte, ok bool) {
	if len(b) > 0 && b[0] < 0x80 { // the one-byte varint of most cells
		n = int(b[0])
		return n, b[1:], n <= limit
	}
	v, size := binary.Uvarint(b)
	if size <= 0 || v > uint64(limit) {
		return 0, nil, false
	}
	return int(v), b[size:], true
}

var _ engine.PreviousForm[*State] = definition{}
