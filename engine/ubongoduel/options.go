package ubongoduel

import (
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// RulesVersion is the version of the rules this package implements. States record it; a later release that changes
// the rules raises it and refuses (or converts) states made under a version it does not know.
//
// Version 2 replaced the die's generator (version 1: a splitmix64 word in random_state; version 2: ChaCha8 in die),
// so the same seed rolls other faces; a state of version 1 is refused (RULES_VERSION_UNSUPPORTED).
const RulesVersion = 2

// Limits of the game.
const (
	// Players is the number of players: always two.
	Players = 2
	// Sheets is the number of sheets, played in order 1 to 9.
	Sheets = 9
	// Faces is the number of faces of the die: tasks per sheet side.
	Faces = 20
	// WinningDuels is the duels a player must win to win the game.
	WinningDuels = 5
	// MaxTieWindowMS is the longest tie window, in milliseconds.
	MaxTieWindowMS = 10000
	// MaxPlacements and MaxCells bound a submission: one placement per piece of the set at most, and no more cells
	// than a shape can hold.
	MaxPlacements = 21
	MaxCells      = 64
)

// SideChoice is the side of the sheets both players play.
type SideChoice int

const (
	// SideA: tasks of 4 pieces.
	SideA SideChoice = iota + 1
	// SideB: tasks of 5 pieces.
	SideB
)

// String returns "A" or "B".
func (c SideChoice) String() string {
	switch c {
	case SideA:
		return "A"
	case SideB:
		return "B"
	}
	return "SideChoice(" + strconv.Itoa(int(c)) + ")"
}

// Options sets up a game. A zero field takes its default (DefaultOptions).
type Options struct {
	// Side is the side of the sheets: SideA (default) or SideB.
	Side SideChoice
	// TieWindowMS is the tie window in milliseconds, 0 to MaxTieWindowMS: two valid solutions of the last roll
	// received at most this far apart are simultaneous. 0 (the default) is strict arrival order.
	TieWindowMS int
	// CatchUp plays the catch-up variant: a player on an orange field (3 or 4 duels won) who strictly leads must
	// solve two rolls.
	CatchUp bool
}

// DefaultOptions returns the standard game: side A, strict arrival order, no catch-up.
func DefaultOptions() Options { return Options{Side: SideA} }

// withDefaults returns o with each zero field set to its default.
func (o Options) withDefaults() Options {
	if o.Side == 0 {
		o.Side = SideA
	}
	return o
}

// window returns the tie window in nanoseconds.
func (o Options) window() int64 { return int64(o.TieWindowMS) * 1_000_000 }

// check returns an OPTION_OUT_OF_RANGE error for the first option of o out of range, naming its field with prefix.
func (o Options) check(prefix string) error {
	switch {
	case o.Side != SideA && o.Side != SideB:
		return engine.Invalidf(ReasonOptionOutOfRange, prefix+"side",
			map[string]string{"option": "side", "value": strconv.Itoa(int(o.Side))},
			"option side is %d; it must be A (1) or B (2)", int(o.Side))
	case o.TieWindowMS < 0 || o.TieWindowMS > MaxTieWindowMS:
		return engine.Invalidf(ReasonOptionOutOfRange, prefix+"tieWindowMs",
			map[string]string{"option": "tieWindowMs", "value": strconv.Itoa(o.TieWindowMS), "min": "0",
				"max": strconv.Itoa(MaxTieWindowMS)},
			"option tieWindowMs is %d; it must be from 0 to %d", o.TieWindowMS, MaxTieWindowMS)
	}
	return nil
}
