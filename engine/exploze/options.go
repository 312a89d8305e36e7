package exploze

import (
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// RulesVersion is the version of the rules this package implements. States record it; a later release that changes
// the rules raises it and refuses (or converts) states made under a version it does not know.
const RulesVersion = 1

// Limits and defaults of Options.
const (
	// MinSize and MaxSize bound the rows and the columns: a board one cell wide would have end cells that explode
	// with a single stone, and 32 x 32 keeps every chain reaction cheap.
	MinSize = 2
	MaxSize = 32
	// MinPlayers and MaxPlayers bound the number of players.
	MinPlayers = 2
	MaxPlayers = 8
	// DefaultSize is the rows and the columns of a board when the options do not say.
	DefaultSize = 6
	// DefaultPlayers is the number of players when the options do not say.
	DefaultPlayers = 2
)

// Options sets up a game. A zero field takes its default (DefaultOptions).
type Options struct {
	// Rows and Cols are the size of the board, each from MinSize to MaxSize.
	Rows, Cols int
	// Players is the number of players, from MinPlayers to MaxPlayers and at most Rows x Cols, so that every player
	// finds an empty cell for their first stone.
	Players int
}

// DefaultOptions returns the standard game: a 6 x 6 board and two players.
func DefaultOptions() Options {
	return Options{Rows: DefaultSize, Cols: DefaultSize, Players: DefaultPlayers}
}

// withDefaults returns o with each zero field set to its default.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Rows == 0 {
		o.Rows = d.Rows
	}
	if o.Cols == 0 {
		o.Cols = d.Cols
	}
	if o.Players == 0 {
		o.Players = d.Players
	}
	return o
}

// check returns an OPTION_OUT_OF_RANGE error for the first option of o out of range, naming its field with prefix
// (the path of the options message inside the message checked), or nil.
func (o Options) check(prefix string) error {
	outOfRange := func(field string, value, lo, hi int) error {
		return engine.Invalidf(ReasonOptionOutOfRange, prefix+field,
			map[string]string{"option": field, "value": strconv.Itoa(value), "min": strconv.Itoa(lo), "max": strconv.Itoa(hi)},
			"option %s is %d; it must be from %d to %d", field, value, lo, hi)
	}
	switch {
	case o.Rows < MinSize || o.Rows > MaxSize:
		return outOfRange("rows", o.Rows, MinSize, MaxSize)
	case o.Cols < MinSize || o.Cols > MaxSize:
		return outOfRange("cols", o.Cols, MinSize, MaxSize)
	case o.Players < MinPlayers || o.Players > min(MaxPlayers, o.Rows*o.Cols):
		return outOfRange("players", o.Players, MinPlayers, min(MaxPlayers, o.Rows*o.Cols))
	}
	return nil
}

// maxStable returns the most stones a board of o can hold with every cell below its critical number: the sum of
// (critical number - 1) over the cells, which is 2 x edges - cells.
func (o Options) maxStable() int {
	edges := o.Rows*(o.Cols-1) + o.Cols*(o.Rows-1)
	return 2*edges - o.Rows*o.Cols
}

// maxMoves returns the most moves a game with options o can last. Every move adds one stone and no stone ever leaves
// the board, and a game that is not over has a stable board, so it has had at most maxStable moves; one more move
// may end it.
func (o Options) maxMoves() int {
	return o.maxStable() + 1
}
