package exploze

import (
	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/search"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Suggest is Exploze's bot: alpha-beta search (search.AlphaBeta) of seat against the coalition of its opponents
// (rivals), rating the positions at the depth of a round by the players' positional worth (State.worth),
// nodesPerIteration nodes for each opponent and iteration of the budget. Once every player has placed, the coalition
// plays best-reply search: after each move of seat, the one move of any opponent that hurts seat the most (with two
// players, simply the opponent's move). Exploze hides nothing, so the search plays from s itself; it draws nothing at
// random, so the budget's seed does not matter.
func (definition) Suggest(s *State, seat engine.Player, b engine.Budget) (engine.Plan[Move], error) {
	return suggest(s, seat, b, s.moves >= s.opts.Players)
}

// botLevels are Exploze's bot levels, calibrated on its default game (6 x 6, two players) against the positional
// greedy player of rulebook-arena; each iteration searches nodesPerIteration nodes for each opponent (docs/bots.md
// has the measurements, on 8 x 8 with four players too).
func botLevels() []*rulebookv1.BotLevelInfo {
	return engine.BotLevels(
		engine.LevelInfo{Iterations: 15, Description: "Searches 150 positions a move for each opponent: about as " +
			"strong as a player that looks one move ahead and rates corners, edges, threatened cells and chains."},
		engine.LevelInfo{Iterations: 30, Description: "Searches 300 positions a move for each opponent: beats " +
			"that player about three games in four with two players."},
		engine.LevelInfo{Iterations: 12_000, Description: "Searches 120,000 positions a move for each opponent, " +
			"about a tenth of a second on the default board: beats that player nearly always there."})
}

// nodesPerIteration is how many nodes alpha-beta searches for each iteration of a budget and each opponent of the
// seat: a round of the search weighs the replies of every opponent, so that a level looks about as far ahead, and
// plays about as well against the same players, whatever the number of players (docs/bots.md).
const nodesPerIteration = 10

// suggest is Suggest, by best-reply search when bestReply is set, else with the opponents moving in turn.
func suggest(s *State, seat engine.Player, b engine.Budget, bestReply bool) (engine.Plan[Move], error) {
	if s.toMove != seat || s.Over() {
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	b.Iterations *= nodesPerIteration * (s.opts.Players - 1)
	r := search.AlphaBeta[rivalState, Move](&rivals{seat: seat, bestReply: bestReply,
		w: make([]float64, s.opts.Players)}, rivalState{s: s}, seatSide, b)
	if !r.Found {
		return engine.Plan[Move]{}, engine.NoLegalMove(seat)
	}
	plan := engine.Plan[Move]{Move: r.Move, PrincipalVariation: s.playable(r.PrincipalVariation),
		Iterations: int64(r.Iterations)}
	if r.Depth > 0 {
		plan.Evaluation = &rulebookv1.Evaluation{WinProbability: r.Value}
	}
	return plan, nil
}

// playable returns the longest start of line that can be played in turn from s: a best-reply line skips the turns
// of the opponents who pass.
func (s *State) playable(line []Move) []Move {
	for i, m := range line {
		next, _, err := s.Apply(m)
		if err != nil {
			return line[:i]
		}
		s = next
	}
	return line
}
