package micropul

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// build is a compact position for tests: the board as "id@x,y/r" separated by spaces in placement order (the start
// tile first is added when missing), the hands, and stones as "p@x,y:Q". Every tile not on the board or in a hand
// goes to the core in ascending order, except supply tiles given per player. The state must pass NewState.
type build struct {
	opts     Options
	board    string
	hands    [][]int
	supplies [][]int
	stones   string
	toMove   engine.Player
	extra    bool
	pending  int
	coreSize int // tiles in the core (0: as after the deal); the rest go to the last player's supply
}

// parseBoard reads the board notation.
func parseBoard(t testing.TB, text string) []Placed {
	t.Helper()
	board := []Placed{{Tile: StartTile}}
	for f := range strings.FieldsSeq(text) {
		var p Placed
		id, rest, _ := strings.Cut(f, "@")
		xy, r, _ := strings.Cut(rest, "/")
		xs, ys, _ := strings.Cut(xy, ",")
		p.Tile, _ = strconv.Atoi(id)
		p.At.X, _ = strconv.Atoi(xs)
		p.At.Y, _ = strconv.Atoi(ys)
		p.Rotation, _ = strconv.Atoi(r)
		if p.Tile == StartTile && p.At == (Coord{}) {
			continue
		}
		board = append(board, p)
	}
	return board
}

// parseStones reads the stones notation.
func parseStones(text string) []Stone {
	var out []Stone
	names := map[string]Quadrant{"TL": TL, "TR": TR, "BR": BR, "BL": BL}
	for f := range strings.FieldsSeq(text) {
		ps, rest, _ := strings.Cut(f, "@")
		xy, q, _ := strings.Cut(rest, ":")
		xs, ys, _ := strings.Cut(xy, ",")
		p, _ := strconv.Atoi(ps)
		x, _ := strconv.Atoi(xs)
		y, _ := strconv.Atoi(ys)
		out = append(out, Stone{Player: engine.Player(p), At: Coord{x, y}, Quadrant: names[q]})
	}
	return out
}

// position returns the Position of b.
func (b build) position(t testing.TB) Position {
	t.Helper()
	opts := b.opts.withDefaults()
	p := Position{Options: opts, Board: parseBoard(t, b.board), Stones: parseStones(b.stones), ToMove: b.toMove,
		ExtraTurn: b.extra, ExtraTurnsPending: b.pending}
	if p.ToMove == 0 {
		p.ToMove = 1
	}
	used := map[int]bool{}
	for _, pl := range p.Board {
		used[pl.Tile] = true
	}
	p.Hands = make([][]int, opts.Players)
	p.Supplies = make([][]int, opts.Players)
	for i := range opts.Players {
		if i < len(b.hands) {
			p.Hands[i] = slices.Clone(b.hands[i])
		}
		if i < len(b.supplies) {
			p.Supplies[i] = slices.Clone(b.supplies[i])
		}
		for _, id := range append(slices.Clone(p.Hands[i]), p.Supplies[i]...) {
			used[id] = true
		}
	}
	for id := range NumTiles {
		if !used[id] {
			p.Core = append(p.Core, id)
		}
	}
	size := b.coreSize
	if size == 0 {
		size = opts.coreAtStart()
	}
	if size < len(p.Core) {
		last := opts.Players - 1
		p.Supplies[last] = append(p.Supplies[last], p.Core[size:]...)
		p.Core = p.Core[:size]
	}
	return p
}

// state returns the state of b, failing t if NewState refuses it.
func (b build) state(t testing.TB) *State {
	t.Helper()
	s, err := NewState(b.position(t))
	if err != nil {
		t.Fatalf("position %+v: %v", b, err)
	}
	return s
}

// newGame returns a new game, failing t on an error.
func newGame(t testing.TB, opts Options, seed uint64) *State {
	t.Helper()
	s, err := New(opts, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// apply applies m, failing t on a refusal.
func apply(t testing.TB, s *State, m Move) (*State, []Event) {
	t.Helper()
	next, events, err := s.Apply(m)
	if err != nil {
		t.Fatalf("%v: %v", m, err)
	}
	return next, events
}

// proto returns the message of a position that NewState may refuse: what Proto would write for it.
func (p Position) proto(t testing.TB) *rulebookv1.MicropulState {
	t.Helper()
	s := &State{opts: p.Options, board: p.Board, stones: p.Stones, core: p.Core, coreCount: len(p.Core),
		toMove: p.ToMove, seats: make([]Seat, len(p.Hands))}
	for i := range p.Hands {
		s.seats[i] = Seat{Hand: p.Hands[i], HandCount: len(p.Hands[i]), Supply: p.Supplies[i],
			SupplyCount: len(p.Supplies[i])}
	}
	return s.Proto()
}

// maxPlies bounds a test's playout: far beyond any game of Micropul (each placement uses one of 48 tiles).
const maxPlies = 1000
