package exploze

import (
	"math"
	"strconv"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// This file is the one place where the engine's types meet the protobuf messages of rulebook.v1.

// Proto returns the options as their protobuf message.
func (o Options) Proto() *rulebookv1.ExplozeOptions {
	return &rulebookv1.ExplozeOptions{Rows: int32(o.Rows), Cols: int32(o.Cols), Players: int32(o.Players)}
}

// OptionsFromProto returns the options of m (nil means every default), with their defaults filled in. An option out of
// range is an Invalid OPTION_OUT_OF_RANGE error whose field is the option's name in ExplozeOptions.
func OptionsFromProto(m *rulebookv1.ExplozeOptions) (Options, error) {
	o := optionsFromProto(m).withDefaults()
	if err := o.check(""); err != nil {
		return Options{}, err
	}
	return o, nil
}

// optionsFromProto converts m as it is, without defaults or checks.
func optionsFromProto(m *rulebookv1.ExplozeOptions) Options {
	return Options{Rows: int(m.GetRows()), Cols: int(m.GetCols()), Players: int(m.GetPlayers())}
}

// Proto returns the state as its protobuf message, with the current rules version and every option filled in.
func (s *State) Proto() *rulebookv1.ExplozeState {
	owners, stones := make([]int32, len(s.cells)), make([]uint32, len(s.cells))
	for i, c := range s.cells {
		owners[i], stones[i] = int32(c.Owner), uint32(c.Stones)
	}
	return &rulebookv1.ExplozeState{
		RulesVersion: RulesVersion,
		Options:      s.opts.Proto(),
		MovesPlayed:  uint32(s.moves),
		ToMove:       int32(s.toMove),
		Owners:       owners,
		Stones:       stones,
	}
}

// FromProto returns the state m describes after checking it as NewState does; a nil m is an empty message. Besides
// NewState's errors, a rules version other than 0 (the current one) and RulesVersion is an Invalid
// RULES_VERSION_UNSUPPORTED error (field "rulesVersion"), and owners and stones must each have Rows x Cols entries
// (BOARD_SIZE_MISMATCH, field "owners" or "stones"). The options and the lengths of the lists are checked before the
// board is allocated.
func FromProto(m *rulebookv1.ExplozeState) (*State, error) {
	if v := m.GetRulesVersion(); v != 0 && v != RulesVersion {
		return nil, engine.Invalidf(ReasonRulesVersionUnsupported, "rulesVersion",
			map[string]string{"rulesVersion": strconv.FormatUint(uint64(v), 10), "supported": strconv.Itoa(RulesVersion)},
			"rules version %d is not supported; this release plays version %d", v, RulesVersion)
	}
	opts := optionsFromProto(m.GetOptions()).withDefaults()
	if err := opts.check("options."); err != nil {
		return nil, err
	}
	owners, stones := m.GetOwners(), m.GetStones()
	if err := checkBoardSize(opts, len(owners), len(stones)); err != nil {
		return nil, err
	}
	cells := make([]Cell, len(owners))
	for i, owner := range owners {
		cells[i] = Cell{Owner: engine.Player(owner), Stones: intFromProto(stones[i])}
	}
	return newState(opts, intFromProto(m.GetMovesPlayed()), engine.Player(m.GetToMove()), cells)
}

// intFromProto converts a count of the protobuf messages to an int. Where int has 32 bits it saturates, which leaves
// it out of range all the same.
func intFromProto(n uint32) int {
	return int(min(uint64(n), math.MaxInt))
}

// Proto returns the move as the envelope rulebook.v1.Move, which holds the moving player.
func (m Move) Proto() *rulebookv1.Move {
	return &rulebookv1.Move{
		Player: int32(m.Player),
		Game:   &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: int32(m.Row), Col: int32(m.Col)}},
	}
}

// MoveFromProto returns the move in the envelope m. An envelope without an Exploze move (or a nil one) is an Invalid
// GAME_MISMATCH error; the player and the cell are checked by Validate.
func MoveFromProto(m *rulebookv1.Move) (Move, error) {
	em := m.GetExploze()
	if em == nil {
		return Move{}, gameMismatch("move")
	}
	return Move{Player: engine.Player(m.GetPlayer()), Row: int(em.GetRow()), Col: int(em.GetCol())}, nil
}

// gameMismatch returns the GAME_MISMATCH error of an envelope (what: "options", "state" or "move") that does not hold
// an Exploze message.
func gameMismatch(what string) error {
	return engine.Invalidf(ReasonGameMismatch, "", map[string]string{"game": GameID, "envelope": what},
		"the %s holds no Exploze message", what)
}

// EventsProto returns events as protobuf Event envelopes, in the same order.
func EventsProto(events []Event) []*rulebookv1.Event {
	out := make([]*rulebookv1.Event, len(events))
	for i, e := range events {
		out[i] = &rulebookv1.Event{Game: &rulebookv1.Event_Exploze{Exploze: e.proto()}}
	}
	return out
}

// proto returns the coordinate as its protobuf message.
func (c Coord) proto() *rulebookv1.ExplozeCoord {
	return &rulebookv1.ExplozeCoord{Row: int32(c.Row), Col: int32(c.Col)}
}

// proto returns the event as its protobuf message.
func (e StonePlaced) proto() *rulebookv1.ExplozeEvent {
	return &rulebookv1.ExplozeEvent{Kind: &rulebookv1.ExplozeEvent_Placed{Placed: &rulebookv1.ExplozeStonePlaced{
		Player: int32(e.Player), Cell: e.Cell.proto(), Stones: uint32(e.Stones)}}}
}

// proto returns the event as its protobuf message.
func (e Wave) proto() *rulebookv1.ExplozeEvent {
	w := &rulebookv1.ExplozeWave{
		Index:    uint32(e.Index),
		Exploded: make([]*rulebookv1.ExplozeCoord, len(e.Exploded)),
		Captured: make([]*rulebookv1.ExplozeCapture, len(e.Captured)),
	}
	for i, c := range e.Exploded {
		w.Exploded[i] = c.proto()
	}
	for i, c := range e.Captured {
		w.Captured[i] = &rulebookv1.ExplozeCapture{
			Cell: c.Cell.proto(), FromPlayer: int32(c.FromPlayer), Stones: uint32(c.Stones)}
	}
	return &rulebookv1.ExplozeEvent{Kind: &rulebookv1.ExplozeEvent_Wave{Wave: w}}
}

// proto returns the event as its protobuf message.
func (e Eliminated) proto() *rulebookv1.ExplozeEvent {
	return &rulebookv1.ExplozeEvent{Kind: &rulebookv1.ExplozeEvent_Eliminated{
		Eliminated: &rulebookv1.ExplozePlayerEliminated{Player: int32(e.Player), Wave: uint32(e.Wave)}}}
}

// proto returns the event as its protobuf message.
func (e GameOver) proto() *rulebookv1.ExplozeEvent {
	return &rulebookv1.ExplozeEvent{Kind: &rulebookv1.ExplozeEvent_GameOver{GameOver: &rulebookv1.ExplozeGameOver{
		Winner: int32(e.Winner)}}}
}

// Proto returns the score as its protobuf message: a standing per player with their stones as points, ranked by
// stones (equal stones share a rank); the winner once the game is over; and the Exploze breakdown.
func (sc Score) Proto() *rulebookv1.Score {
	out := &rulebookv1.Score{GameOver: sc.Over, Standings: make([]*rulebookv1.PlayerStanding, len(sc.Players))}
	if sc.Over {
		out.Winners = []int32{int32(sc.Winner)}
	}
	breakdown := &rulebookv1.ExplozeScore{
		Players:   make([]*rulebookv1.ExplozePlayerScore, len(sc.Players)),
		FinalMove: uint32(sc.FinalMove),
	}
	for i, p := range sc.Players {
		rank := 1
		for _, q := range sc.Players {
			if q.Stones > p.Stones {
				rank++
			}
		}
		out.Standings[i] = &rulebookv1.PlayerStanding{Player: int32(p.Player), Points: int32(p.Stones), Rank: int32(rank),
			Eliminated: p.Eliminated}
		breakdown.Players[i] = &rulebookv1.ExplozePlayerScore{Player: int32(p.Player), Stones: uint32(p.Stones),
			Cells: uint32(p.Cells), Eliminated: p.Eliminated}
	}
	out.Game = &rulebookv1.Score_Exploze{Exploze: breakdown}
	return out
}
