package kipicot

import (
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// RulesVersion is the version of the rules this package implements. States record it; a later release that changes
// the rules raises it and refuses (or converts) states made under a version it does not know.
const RulesVersion = 1

// The material of the game.
const (
	// Size is the number of rows and of columns of the board.
	Size = 5
	// Squares is the number of squares of the board.
	Squares = Size * Size
	// TokensPerColor is the number of tokens of each colour: 20 red and 20 yellow.
	TokensPerColor = 20
	// Players is the number of players.
	Players = 2
	// minCatch is the fewest tokens a fishing square takes: the opponent's pawn keeps at most one of its four
	// squares.
	minCatch = 3
)

// Limits and defaults of Options.
const (
	// MaxAntiStallRounds bounds Options.AntiStallRounds; 0 turns the rule off.
	MaxAntiStallRounds = 10
	// DefaultAntiStallRounds is the anti-stall rule of the rules file: three full rounds.
	DefaultAntiStallRounds = 3
	// MaxEndThreshold bounds Options.EndThreshold: a threshold of TokensPerColor would end the game before it starts.
	MaxEndThreshold = TokensPerColor - 1
	// DefaultEndThreshold ends the game when a colour's supply is empty.
	DefaultEndThreshold = 0
)

// Options sets up a game. Unlike most options structs, its zero value is not the standard game (0 anti-stall rounds
// turns that rule off): start from DefaultOptions. In the protobuf message, an unset field takes its default.
type Options struct {
	// WholeStackMoves makes a moving stack carry both its tokens; by default only its top token moves.
	WholeStackMoves bool
	// PawnMayStay lets the pawn step leave the pawn on the token it stands on; by default it must change token.
	PawnMayStay bool
	// AntiStallRounds is the number of full rounds (two turns each) without a placement after which the player to
	// move must place in step 2, from 0 (off) to MaxAntiStallRounds.
	AntiStallRounds int
	// EndThreshold ends the game after the turn in which a colour's supply falls to EndThreshold tokens or fewer,
	// from 0 to MaxEndThreshold.
	EndThreshold int
}

// DefaultOptions returns the standard game: top tokens move, the pawn must change token, three rounds of anti-stall,
// and the game ends with an empty supply.
func DefaultOptions() Options {
	return Options{AntiStallRounds: DefaultAntiStallRounds, EndThreshold: DefaultEndThreshold}
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
	case o.AntiStallRounds < 0 || o.AntiStallRounds > MaxAntiStallRounds:
		return outOfRange("antiStallRounds", o.AntiStallRounds, 0, MaxAntiStallRounds)
	case o.EndThreshold < 0 || o.EndThreshold > MaxEndThreshold:
		return outOfRange("endThreshold", o.EndThreshold, 0, MaxEndThreshold)
	}
	return nil
}

// stallLimit returns the number of turns without a placement after which a placement is forced: two turns a round;
// 0 when the rule is off.
func (o Options) stallLimit() int { return 2 * o.AntiStallRounds }
