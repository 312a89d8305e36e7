package exploze

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/rulebook/rulebook/engine"
)

// packVersion is the format version of the private form of a state, the first byte PackState writes.
const packVersion = 1

// cellBase is the number of owners a cell's packed varint tells apart (engine.NoPlayer and the players 1 to
// MaxPlayers): a cell is packed as Stones*cellBase + Owner, one byte while it holds at most 13 stones.
const cellBase = MaxPlayers + 1

// PackState appends the private form of s to b: the version, then as unsigned varints the rows, the columns, the
// players, the moves played and the player to move, then each cell, row by row, as Stones*cellBase+Owner.
func (definition) PackState(b []byte, s *State) []byte {
	b = append(b, packVersion)
	for _, n := range [...]int{s.opts.Rows, s.opts.Cols, s.opts.Players, s.moves, int(s.toMove)} {
		b = binary.AppendUvarint(b, uint64(n))
	}
	for _, c := range s.cells {
		b = binary.AppendUvarint(b, uint64(c.Stones)*cellBase+uint64(c.Owner))
	}
	return b
}

// errPacked is the error of bytes that are no private form PackState made.
var errPacked = errors.New("exploze: not a packed state")

// UnpackState returns the state in b, a private form PackState made, checked as NewState checks it. Bytes of another
// version, cut short, with bytes left over or with a field out of range are an error.
func (definition) UnpackState(b []byte) (*State, error) {
	if len(b) == 0 || b[0] != packVersion {
		return nil, fmt.Errorf("%w: format version missing or not %d", errPacked, packVersion)
	}
	r := packReader{b: b[1:]}
	opts := Options{Rows: r.int(MaxSize), Cols: r.int(MaxSize), Players: r.int(MaxPlayers)}
	moves, toMove := r.int(math.MaxInt32), r.int(MaxPlayers)
	if r.err != nil || opts.Rows == 0 || opts.Cols == 0 || opts.Players == 0 {
		return nil, fmt.Errorf("%w: header", errPacked)
	}
	cells := make([]Cell, opts.Rows*opts.Cols)
	for i := range cells {
		v := uint64(r.int(math.MaxInt32))
		cells[i] = Cell{Owner: engine.Player(v % cellBase), Stones: int(v / cellBase)}
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, fmt.Errorf("%w: cells", errPacked)
	}
	return NewState(opts, moves, engine.Player(toMove), cells)
}

// packReader reads the unsigned varints of a private form, remembering the first failure.
type packReader struct {
	b   []byte
	err error
}

// int reads the next varint, which must be at most limit; after a failure it reads 0.
func (r *packReader) int(limit int) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(limit) {
		r.err = errPacked
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

var _ engine.Packer[*State] = definition{}
