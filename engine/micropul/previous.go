package micropul

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/rulebook/rulebook/engine"
)

// packVersion is the format version of the private form in which the tokens of an earlier release held Micropul's
// states, the byte after engine.PrivateForm.
const packVersion = 1

// errPacked is the error of bytes that are no state in the previous private form.
var errPacked = errors.New("micropul: not a packed state")

// ReadPreviousForm returns the state in b, the bytes after engine.PrivateForm in a token of an earlier release, checked
// as NewState checks it (see engine.PreviousForm). That form was: the version, then as unsigned varints (coordinates
// zigzag-encoded) the players, the rule set, the player to move, the extra turn (0 or 1), the extra turns pending,
// the end and the loser; the board (its length, then tile, x, y and rotation of each tile); the stones (its length,
// then player, x, y and quadrant of each); each seat's hand and supply; and the core, each list as its length and
// its tile ids. Bytes of another version, cut short, with bytes left over or with a field out of range are an error;
// no list is allocated longer than the game has tiles or stones.
func (definition) ReadPreviousForm(b []byte) (*State, error) {
	if len(b) == 0 || b[0] != packVersion {
		return nil, fmt.Errorf("%w: format version missing or not %d", errPacked, packVersion)
	}
	r := packReader{b: b[1:]}
	p := Position{Options: Options{Players: r.int(MaxPlayers), Rules: RuleSet(r.int(math.MaxInt8))},
		ToMove: engine.Player(r.int(MaxPlayers)), ExtraTurn: r.int(1) == 1, ExtraTurnsPending: r.int(NumTiles),
		End: End(r.int(math.MaxInt8)), Loser: engine.Player(r.int(MaxPlayers))}
	p.Board = make([]Placed, r.int(NumTiles))
	for i := range p.Board {
		p.Board[i] = Placed{Tile: r.int(math.MaxInt8), At: r.coord(), Rotation: r.int(math.MaxInt8)}
	}
	p.Stones = make([]Stone, r.int(MaxPlayers*StonesPerPlayer))
	for i := range p.Stones {
		p.Stones[i] = Stone{Player: engine.Player(r.int(MaxPlayers)), At: r.coord(), Quadrant: Quadrant(r.int(math.MaxInt8))}
	}
	p.Hands, p.Supplies = make([][]int, p.Options.Players), make([][]int, p.Options.Players)
	for i := range p.Options.Players {
		p.Hands[i], p.Supplies[i] = r.list(), r.list()
	}
	p.Core = r.list()
	if r.err != nil || len(r.b) != 0 {
		return nil, fmt.Errorf("%w: cut short, out of range or with bytes left over", errPacked)
	}
	return newState(p)
}

// packReader reads the varints of the previous private form, remembering the first failure; after it, every read is 0.
type packReader struct {
	b   []byte
	err error
	// ids holds the lists read so far, one after the other, in an array of NumTiles ids (a new one when the next
	// list does not fit): the hands, supplies and core of a state that passes its checks hold fewer in all.
	ids []int
}

// int reads an unsigned varint, which must be at most limit.
func (r *packReader) int(limit int) int {
	v, n := binary.Uvarint(r.b)
	if r.err != nil || n <= 0 || v > uint64(limit) {
		r.err = errPacked
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// coord reads a coordinate's x and y, zigzag varints within the range of int32 (the protobuf messages' coordinates).
func (r *packReader) coord() Coord {
	var c [2]int
	for i := range c {
		v, n := binary.Varint(r.b)
		if r.err != nil || n <= 0 || v < math.MinInt32 || v > math.MaxInt32 {
			r.err = errPacked
			return Coord{}
		}
		r.b, c[i] = r.b[n:], int(v)
	}
	return Coord{X: c[0], Y: c[1]}
}

// list reads a list of tile ids: its length, at most NumTiles, then each id.
func (r *packReader) list() []int {
	n := r.int(NumTiles)
	if r.ids == nil || len(r.ids)+n > cap(r.ids) {
		r.ids = make([]int, 0, NumTiles)
	}
	start := len(r.ids)
	for range n {
		r.ids = append(r.ids, r.int(math.MaxInt8))
	}
	return r.ids[start:len(r.ids):len(r.ids)]
}

var _ engine.PreviousForm[*State] = definition{}
