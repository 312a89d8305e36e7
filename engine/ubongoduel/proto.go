package ubongoduel

import (
	"math"
	"slices"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// This file is the one place where the engine's types meet the protobuf messages of rulebook.v1.

// Proto returns the options as their protobuf message.
func (o Options) Proto() *rulebookv1.UbongoDuelOptions {
	return &rulebookv1.UbongoDuelOptions{Side: rulebookv1.UbongoDuelSide(o.Side), TieWindowMs: uint32(o.TieWindowMS),
		CatchUp: o.CatchUp}
}

// OptionsFromProto returns the options of m (nil means every default), with their defaults filled in. An option out
// of range is an Invalid OPTION_OUT_OF_RANGE error whose field is the option's name in UbongoDuelOptions.
func OptionsFromProto(m *rulebookv1.UbongoDuelOptions) (Options, error) {
	o := optionsFromProto(m).withDefaults()
	if err := o.check(""); err != nil {
		return Options{}, err
	}
	return o, nil
}

// optionsFromProto converts m as it is, without defaults or checks.
func optionsFromProto(m *rulebookv1.UbongoDuelOptions) Options {
	return Options{Side: SideChoice(m.GetSide()), TieWindowMS: intFromProto(m.GetTieWindowMs()), CatchUp: m.GetCatchUp()}
}

// intFromProto converts a count to an int, saturating where int has 32 bits.
func intFromProto(n uint32) int { return int(min(uint64(n), math.MaxInt)) }

// cellsProto converts cells.
func cellsProto(c polyomino.Cells) []*rulebookv1.UbongoDuelCell {
	out := make([]*rulebookv1.UbongoDuelCell, len(c))
	for i, x := range c {
		out[i] = &rulebookv1.UbongoDuelCell{X: int32(x.X), Y: int32(x.Y)}
	}
	return out
}

// cellsFromProto converts cells.
func cellsFromProto(c []*rulebookv1.UbongoDuelCell) polyomino.Cells {
	out := make(polyomino.Cells, len(c))
	for i, x := range c {
		out[i] = polyomino.Cell{X: int(x.GetX()), Y: int(x.GetY())}
	}
	return out
}

// proto returns the task as its protobuf message.
func (t TaskInfo) proto() *rulebookv1.UbongoDuelTask {
	return &rulebookv1.UbongoDuelTask{Face: uint32(t.Face), SideName: t.SideName, Pieces: append([]string(nil), t.Pieces...),
		Shape: cellsProto(t.Shape)}
}

// tasksProto converts tasks.
func tasksProto(ts []TaskInfo) []*rulebookv1.UbongoDuelTask {
	out := make([]*rulebookv1.UbongoDuelTask, len(ts))
	for i, t := range ts {
		out[i] = t.proto()
	}
	return out
}

// facesProto converts faces.
func facesProto(fs []int) []uint32 {
	out := make([]uint32, len(fs))
	for i, f := range fs {
		out[i] = uint32(f)
	}
	return out
}

// Proto returns the state (or view) as its protobuf message, with the current rules version, every option and the
// tasks of the faces filled in.
func (s *State) Proto() *rulebookv1.UbongoDuelState {
	m := &rulebookv1.UbongoDuelState{
		RulesVersion:      RulesVersion,
		Options:           s.opts.Proto(),
		DeckVersion:       s.deck.Version,
		Sheet:             uint32(s.sheet),
		Faces:             facesProto(s.faces),
		Tasks:             tasksProto(s.Tasks()),
		Players:           make([]*rulebookv1.UbongoDuelPlayer, Players),
		Leader:            int32(s.leader),
		PendingWinner:     int32(s.pending),
		PendingReceivedAt: s.pendingAt,
		LastReceivedAt:    s.last,
		Winner:            int32(s.winner),
		IsView:            s.view,
		Viewer:            int32(s.viewer),
		Die:               slices.Clone(s.die),
	}
	for i, seat := range s.seats {
		m.Players[i] = &rulebookv1.UbongoDuelPlayer{DuelsWon: uint32(seat.DuelsWon), Solved: uint32(seat.Solved),
			GaveUp: seat.GaveUp}
	}
	return m
}

// FromProto returns the state (or view) m describes on the default deck, after checking it as NewState does; a nil
// m is an empty message. See FromProtoWithDeck.
func FromProto(m *rulebookv1.UbongoDuelState) (*State, error) { return FromProtoWithDeck(m, nil) }

// FromProtoWithDeck is FromProto on deck d (nil: the default deck). Besides NewState's errors: a rules version other
// than 0 and RulesVersion (among them version 1, whose die was a splitmix64 word) is an Invalid
// RULES_VERSION_UNSUPPORTED error ("rulesVersion"); more than two faces is ROLLS_MISMATCH ("faces"), checked before
// anything is allocated for them; and listed tasks that are not exactly the deck's tasks of the faces are
// TASK_MISMATCH ("tasks"; an empty list is filled in).
func FromProtoWithDeck(m *rulebookv1.UbongoDuelState, d *Deck) (*State, error) {
	if v := m.GetRulesVersion(); v != 0 && v != RulesVersion {
		facts := map[string]string{"rulesVersion": strconv.FormatUint(uint64(v), 10),
			"supported": strconv.Itoa(RulesVersion)}
		if v == 1 {
			return nil, engine.Invalidf(ReasonRulesVersionUnsupported, "rulesVersion", facts,
				"rules version 1 is no longer supported: its die was a splitmix64 generator, which rules version %d "+
					"replaced with ChaCha8 so that past rolls do not tell the next ones; a game of version 1 cannot "+
					"go on, start a new game", RulesVersion)
		}
		return nil, engine.Invalidf(ReasonRulesVersionUnsupported, "rulesVersion", facts,
			"rules version %d is not supported; this release plays version %d", v, RulesVersion)
	}
	if n := len(m.GetFaces()); n > 2 {
		return nil, engine.Invalidf(ReasonRollsMismatch, "faces", map[string]string{"faces": strconv.Itoa(n)},
			"the duel has %d faces rolled; a duel rolls at most 2", n)
	}
	if n := len(m.GetPlayers()); n != Players {
		return nil, engine.Invalidf(ReasonPlayersMismatch, "players",
			map[string]string{"entries": strconv.Itoa(n), "players": strconv.Itoa(Players)},
			"the state has %d player entries; Ubongo Duel has %d players", n, Players)
	}
	p := Position{
		Options:           optionsFromProto(m.GetOptions()),
		Deck:              d,
		DeckVersion:       m.GetDeckVersion(),
		Sheet:             intFromProto(m.GetSheet()),
		Leader:            engine.Player(m.GetLeader()),
		PendingWinner:     engine.Player(m.GetPendingWinner()),
		PendingReceivedAt: m.GetPendingReceivedAt(),
		LastReceivedAt:    m.GetLastReceivedAt(),
		Winner:            engine.Player(m.GetWinner()),
		IsView:            m.GetIsView(),
		Viewer:            engine.Player(m.GetViewer()),
		Die:               m.GetDie(),
	}
	for _, f := range m.GetFaces() {
		p.Faces = append(p.Faces, intFromProto(f))
	}
	for _, pl := range m.GetPlayers() {
		p.Seats = append(p.Seats, Seat{DuelsWon: intFromProto(pl.GetDuelsWon()), Solved: intFromProto(pl.GetSolved()),
			GaveUp: pl.GetGaveUp()})
	}
	s, err := NewState(p)
	if err != nil {
		return nil, err
	}
	if len(m.GetTasks()) > 0 {
		want := tasksProto(s.Tasks())
		ok := len(want) == len(m.GetTasks())
		for i := 0; ok && i < len(want); i++ {
			ok = proto.Equal(want[i], m.GetTasks()[i])
		}
		if !ok {
			return nil, engine.Invalidf(ReasonTaskMismatch, "tasks", map[string]string{"deckVersion": s.deck.Version},
				"the listed tasks are not the tasks of faces %v on side %s of deck %s", s.faces, s.side().Name,
				s.deck.Version)
		}
	}
	return s, nil
}

// Proto returns the move as the envelope rulebook.v1.Move, which holds the moving player.
func (m Move) Proto() *rulebookv1.Move {
	mm := &rulebookv1.UbongoDuelMove{ReceivedAt: m.ReceivedAt}
	switch m.Action {
	case Submit:
		sub := &rulebookv1.UbongoDuelSubmit{Placements: make([]*rulebookv1.UbongoDuelPlacement, len(m.Placements))}
		for i, pl := range m.Placements {
			sub.Placements[i] = &rulebookv1.UbongoDuelPlacement{Piece: pl.Piece, Cells: cellsProto(pl.Cells)}
		}
		mm.Action = &rulebookv1.UbongoDuelMove_Submit{Submit: sub}
	case GiveUp:
		mm.Action = &rulebookv1.UbongoDuelMove_GiveUp{GiveUp: &rulebookv1.UbongoDuelGiveUp{}}
	case CloseDuel:
		mm.Action = &rulebookv1.UbongoDuelMove_CloseDuel{CloseDuel: &rulebookv1.UbongoDuelCloseDuel{}}
	}
	return &rulebookv1.Move{Player: int32(m.Player), Game: &rulebookv1.Move_UbongoDuel{UbongoDuel: mm}}
}

// MoveFromProto returns the move in the envelope m. An envelope without an Ubongo Duel move (or a nil one) is an
// Invalid GAME_MISMATCH error; everything else is checked by Validate (a move with no action is MOVE_EMPTY).
func MoveFromProto(m *rulebookv1.Move) (Move, error) {
	mm := m.GetUbongoDuel()
	if mm == nil {
		return Move{}, gameMismatch("move")
	}
	out := Move{Player: engine.Player(m.GetPlayer()), ReceivedAt: mm.GetReceivedAt()}
	switch a := mm.GetAction().(type) {
	case *rulebookv1.UbongoDuelMove_Submit:
		out.Action = Submit
		out.Placements = make([]Placement, len(a.Submit.GetPlacements()))
		for i, pl := range a.Submit.GetPlacements() {
			out.Placements[i] = Placement{Piece: pl.GetPiece(), Cells: cellsFromProto(pl.GetCells())}
		}
	case *rulebookv1.UbongoDuelMove_GiveUp:
		out.Action = GiveUp
	case *rulebookv1.UbongoDuelMove_CloseDuel:
		out.Action = CloseDuel
	}
	return out, nil
}

// gameMismatch returns the GAME_MISMATCH error of an envelope (what: "options", "state" or "move") that does not
// hold an Ubongo Duel message.
func gameMismatch(what string) error {
	return engine.Invalidf(ReasonGameMismatch, "", map[string]string{"game": GameID, "envelope": what},
		"the %s holds no Ubongo Duel message", what)
}

// EventsProto returns events as protobuf Event envelopes, in the same order.
func EventsProto(events []Event) []*rulebookv1.Event {
	out := make([]*rulebookv1.Event, len(events))
	for i, e := range events {
		out[i] = &rulebookv1.Event{Game: &rulebookv1.Event_UbongoDuel{UbongoDuel: e.proto()}}
	}
	return out
}

func (e DuelStarted) proto() *rulebookv1.UbongoDuelEvent {
	return &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_DuelStarted{DuelStarted: &rulebookv1.UbongoDuelDuelStarted{
		Sheet: uint32(e.Sheet), Faces: facesProto(e.Faces), Tasks: tasksProto(e.Tasks), Leader: int32(e.Leader)}}}
}

func (e Solved) proto() *rulebookv1.UbongoDuelEvent {
	return &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_Solved{Solved: &rulebookv1.UbongoDuelSolved{
		Player: int32(e.Player), Roll: uint32(e.Roll), Face: uint32(e.Face), ReceivedAt: e.ReceivedAt,
		Pending: e.Pending}}}
}

func (e GaveUp) proto() *rulebookv1.UbongoDuelEvent {
	return &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_GaveUp{GaveUp: &rulebookv1.UbongoDuelGaveUp{
		Player: int32(e.Player)}}}
}

func (e DuelWon) proto() *rulebookv1.UbongoDuelEvent {
	return &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_DuelWon{DuelWon: &rulebookv1.UbongoDuelDuelWon{
		Player: int32(e.Player), Sheet: uint32(e.Sheet), DuelsWon: []uint32{uint32(e.DuelsWon[0]), uint32(e.DuelsWon[1])}}}}
}

func (e Rerolled) proto() *rulebookv1.UbongoDuelEvent {
	return &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_Rerolled{Rerolled: &rulebookv1.UbongoDuelRerolled{
		Reason: rulebookv1.UbongoDuelRerollReason(e.Reason), Sheet: uint32(e.Sheet)}}}
}

func (e GameOver) proto() *rulebookv1.UbongoDuelEvent {
	return &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_GameOver{GameOver: &rulebookv1.UbongoDuelGameOver{
		Winner: int32(e.Winner)}}}
}

// Proto returns the score as its protobuf message: a standing per player with their duels won as points (equal
// points share a rank), the winner once the game is over, and the Ubongo Duel breakdown.
func (sc Score) Proto() *rulebookv1.Score {
	out := &rulebookv1.Score{GameOver: sc.Over, Standings: make([]*rulebookv1.PlayerStanding, Players),
		Game: &rulebookv1.Score_UbongoDuel{UbongoDuel: &rulebookv1.UbongoDuelScore{
			DuelsWon: []uint32{uint32(sc.DuelsWon[0]), uint32(sc.DuelsWon[1])}, Sheet: uint32(sc.Sheet),
			Leader: int32(sc.Leader)}}}
	if sc.Winner != engine.NoPlayer {
		out.Winners = []int32{int32(sc.Winner)}
	}
	for i, won := range sc.DuelsWon {
		rank := 1
		if sc.DuelsWon[1-i] > won {
			rank = 2
		}
		out.Standings[i] = &rulebookv1.PlayerStanding{Player: int32(i + 1), Points: int32(won), Rank: int32(rank)}
	}
	return out
}
