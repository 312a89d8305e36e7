package micropul

import (
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// RulesVersion is the version of the rules this package implements. States record it; a later release that changes
// the rules raises it and refuses (or converts) states made under a version it does not know.
const RulesVersion = 1

// Limits and defaults of Options and of the game.
const (
	// MinPlayers and MaxPlayers bound the number of players: one (solo) or two.
	MinPlayers = 1
	MaxPlayers = 2
	// DefaultPlayers is the number of players when the options do not say.
	DefaultPlayers = 2
	// HandSize is the hand dealt at the start and the most a hand may hold.
	HandSize = 6
	// StonesPerPlayer is the stones each player has.
	StonesPerPlayer = 3
)

// RuleSet chooses between the two readings of the rules (see docs/rules/micropul.md).
type RuleSet int

const (
	// DefaultRules follow the seed documents: one extra turn per activated plus catalyst, an extra turn may be
	// passed, and stones go only on groups spanning at least two tiles.
	DefaultRules RuleSet = iota + 1
	// Original2004 follows the designer's English text of 2004: one extra turn per placement however many plus
	// catalysts fired, no passing an extra turn, and stones on any group.
	Original2004
)

// String returns the rule set's name as in the options: "DEFAULT" or "ORIGINAL_2004".
func (r RuleSet) String() string {
	switch r {
	case DefaultRules:
		return "DEFAULT"
	case Original2004:
		return "ORIGINAL_2004"
	}
	return "RuleSet(" + strconv.Itoa(int(r)) + ")"
}

// Options sets up a game. A zero field takes its default (DefaultOptions).
type Options struct {
	// Players is 1 (solo) or 2.
	Players int
	// Rules is the rule set.
	Rules RuleSet
}

// DefaultOptions returns the standard game: two players, the default rule set.
func DefaultOptions() Options { return Options{Players: DefaultPlayers, Rules: DefaultRules} }

// withDefaults returns o with each zero field set to its default.
func (o Options) withDefaults() Options {
	if o.Players == 0 {
		o.Players = DefaultPlayers
	}
	if o.Rules == 0 {
		o.Rules = DefaultRules
	}
	return o
}

// check returns an OPTION_OUT_OF_RANGE error for the first option of o out of range, naming its field with prefix.
func (o Options) check(prefix string) error {
	switch {
	case o.Players < MinPlayers || o.Players > MaxPlayers:
		return engine.Invalidf(ReasonOptionOutOfRange, prefix+"players",
			map[string]string{"option": "players", "value": strconv.Itoa(o.Players),
				"min": strconv.Itoa(MinPlayers), "max": strconv.Itoa(MaxPlayers)},
			"option players is %d; it must be from %d to %d", o.Players, MinPlayers, MaxPlayers)
	case o.Rules != DefaultRules && o.Rules != Original2004:
		return engine.Invalidf(ReasonOptionOutOfRange, prefix+"ruleSet",
			map[string]string{"option": "ruleSet", "value": strconv.Itoa(int(o.Rules))},
			"option ruleSet is %d; it must be DEFAULT (1) or ORIGINAL_2004 (2)", int(o.Rules))
	}
	return nil
}

// coreAtStart returns the tiles in the core once the hands are dealt: 35 with two players, 41 solo.
func (o Options) coreAtStart() int { return NumTiles - 1 - o.Players*HandSize }
