package micropul

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/rulebook/rulebook/engine"
)

// packVersion is the format version of the private form of a state, the first byte PackState writes.
const packVersion = 1

// PackState appends the private form of s, a full state, to b: the version, then as unsigned varints (coordinates
// zigzag-encoded) the players, the rule set, the player to move, the extra turn (0 or 1), the extra turns pending,
// the end and the loser; the board (its length, then tile, x, y and rotation of each tile); the stones (its length,
// then player, x, y and quadrant of each); each seat's hand and supply; and the core, each list as its length and
// its tile ids.
func (definition) PackState(b []byte, s *State) []byte {
	w := packWriter{b: append(b, packVersion)}
	w.ints(s.opts.Players, int(s.opts.Rules), int(s.toMove), boolInt(s.extraTurn), s.pending, int(s.end), int(s.loser))
	w.ints(len(s.board))
	for _, p := range s.board {
		w.ints(p.Tile)
		w.coord(p.At)
		w.ints(p.Rotation)
	}
	w.ints(len(s.stones))
	for _, st := range s.stones {
		w.ints(int(st.Player))
		w.coord(st.At)
		w.ints(int(st.Quadrant))
	}
	for _, seat := range s.seats {
		w.list(seat.Hand)
		w.list(seat.Supply)
	}
	w.list(s.core)
	return w.b
}

// boolInt returns 1 for true and 0 for false.
func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

// packWriter appends the varints of a private form.
type packWriter struct{ b []byte }

// ints appends each of ns, none negative, as an unsigned varint.
func (w *packWriter) ints(ns ...int) {
	for _, n := range ns {
		w.b = binary.AppendUvarint(w.b, uint64(n))
	}
}

// coord appends c's x and y as zigzag varints.
func (w *packWriter) coord(c Coord) {
	w.b = binary.AppendVarint(w.b, int64(c.X))
	w.b = binary.AppendVarint(w.b, int64(c.Y))
}

// list appends the length of ids, then each id.
func (w *packWriter) list(ids []int) {
	w.ints(len(ids))
	w.ints(ids...)
}

// errPacked is the error of bytes that are no private form PackState made.
var errPacked = errors.New("micropul: not a packed state")

// UnpackState returns the state in b, a private form PackState made, checked as NewState checks it. Bytes of another
// version, cut short, with bytes left over or with a field out of range are an error; no list is allocated longer
// than the game has tiles or stones.
func (definition) UnpackState(b []byte) (*State, error) {
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

// packReader reads the varints of a private form, remembering the first failure; after it, every read is 0.
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

var _ engine.Packer[*State] = definition{}
