package micropul

import (
	"math"
	"strconv"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// This file is the one place where the engine's types meet the protobuf messages of rulebook.v1.

// Proto returns the options as their protobuf message.
func (o Options) Proto() *rulebookv1.MicropulOptions {
	return &rulebookv1.MicropulOptions{Players: int32(o.Players), RuleSet: rulebookv1.MicropulRuleSet(o.Rules)}
}

// OptionsFromProto returns the options of m (nil means every default), with their defaults filled in. An option out
// of range is an Invalid OPTION_OUT_OF_RANGE error whose field is the option's name in MicropulOptions.
func OptionsFromProto(m *rulebookv1.MicropulOptions) (Options, error) {
	o := optionsFromProto(m).withDefaults()
	if err := o.check(""); err != nil {
		return Options{}, err
	}
	return o, nil
}

// optionsFromProto converts m as it is, without defaults or checks.
func optionsFromProto(m *rulebookv1.MicropulOptions) Options {
	return Options{Players: int(m.GetPlayers()), Rules: RuleSet(m.GetRuleSet())}
}

// quadrantProto returns q as its protobuf enum.
func quadrantProto(q Quadrant) rulebookv1.MicropulQuadrant { return rulebookv1.MicropulQuadrant(q) + 1 }

// quadrantFromProto returns the quadrant of the enum q; an unknown or unspecified q gives a quadrant above BL.
func quadrantFromProto(q rulebookv1.MicropulQuadrant) Quadrant {
	if q < rulebookv1.MicropulQuadrant_MICROPUL_QUADRANT_TOP_LEFT || q > rulebookv1.MicropulQuadrant_MICROPUL_QUADRANT_BOTTOM_LEFT {
		return BL + 1
	}
	return Quadrant(q - 1)
}

// take converts ids with conv, appending them to *all, and returns them as a slice of *all without spare capacity, so
// that appending to it never overwrites the next list: the id lists of a state share the one allocation of *all when
// it has room for them all.
func take[F, T any](all *[]T, ids []F, conv func(F) T) []T {
	start := len(*all)
	for _, id := range ids {
		*all = append(*all, conv(id))
	}
	return (*all)[start:len(*all):len(*all)]
}

// uint32FromInt converts a tile id or a count to its protobuf form.
func uint32FromInt(n int) uint32 { return uint32(n) }

// intFromProto converts a count or id to an int, saturating where int has 32 bits, which leaves an id out of range
// all the same.
func intFromProto(n uint32) int { return int(min(uint64(n), math.MaxInt)) }

// proto returns the placed tile as its protobuf message.
func (p Placed) proto() *rulebookv1.MicropulPlacedTile {
	return p.protoInto(&rulebookv1.MicropulPlacedTile{})
}

// protoInto sets m, an empty message, to the placed tile and returns it.
func (p Placed) protoInto(m *rulebookv1.MicropulPlacedTile) *rulebookv1.MicropulPlacedTile {
	m.Tile, m.X, m.Y, m.Rotation = uint32(p.Tile), int32(p.At.X), int32(p.At.Y), uint32(p.Rotation)
	return m
}

// proto returns the stone as its protobuf message.
func (st Stone) proto() *rulebookv1.MicropulStone { return st.protoInto(&rulebookv1.MicropulStone{}) }

// protoInto sets m, an empty message, to the stone and returns it.
func (st Stone) protoInto(m *rulebookv1.MicropulStone) *rulebookv1.MicropulStone {
	m.Player, m.X, m.Y, m.Quadrant = int32(st.Player), int32(st.At.X), int32(st.At.Y), quadrantProto(st.Quadrant)
	return m
}

// Proto returns the state (or view) as its protobuf message, with the current rules version and every option
// filled in.
func (s *State) Proto() *rulebookv1.MicropulState {
	n := len(s.core)
	for _, seat := range s.seats {
		n += len(seat.Hand) + len(seat.Supply)
	}
	ids := make([]uint32, 0, n)
	m := &rulebookv1.MicropulState{
		RulesVersion:      RulesVersion,
		Options:           s.opts.Proto(),
		Board:             make([]*rulebookv1.MicropulPlacedTile, len(s.board)),
		Stones:            make([]*rulebookv1.MicropulStone, len(s.stones)),
		Players:           make([]*rulebookv1.MicropulPlayer, len(s.seats)),
		Core:              take(&ids, s.core, uint32FromInt),
		CoreCount:         uint32(s.coreCount),
		ToMove:            int32(s.toMove),
		ExtraTurn:         s.extraTurn,
		ExtraTurnsPending: uint32(s.pending),
		End:               rulebookv1.MicropulEnd(s.end),
		Loser:             int32(s.loser),
		IsView:            s.view,
		Viewer:            int32(s.viewer),
	}
	// One allocation for each list of messages, not one per message, and one for every list of ids.
	board := make([]rulebookv1.MicropulPlacedTile, len(s.board))
	for i, p := range s.board {
		m.Board[i] = p.protoInto(&board[i])
	}
	stones := make([]rulebookv1.MicropulStone, len(s.stones))
	for i, st := range s.stones {
		m.Stones[i] = st.protoInto(&stones[i])
	}
	players := make([]rulebookv1.MicropulPlayer, len(s.seats))
	for i, seat := range s.seats {
		players[i].Hand, players[i].HandCount = take(&ids, seat.Hand, uint32FromInt), uint32(seat.HandCount)
		players[i].Supply, players[i].SupplyCount = take(&ids, seat.Supply, uint32FromInt), uint32(seat.SupplyCount)
		m.Players[i] = &players[i]
	}
	return m
}

// FromProto returns the state (or view) m describes after checking it as NewState does; a nil m is an empty
// message. Besides NewState's errors: a rules version other than 0 and RulesVersion is an Invalid
// RULES_VERSION_UNSUPPORTED error ("rulesVersion"); in a full state, a count that differs from the tiles listed is
// an Invalid COUNT_MISMATCH error ("coreCount", "players[i].handCount", "players[i].supplyCount"), as is, in any
// state, a viewer set in a state that is not a view ("viewer"). The options, the number of player entries and the
// sizes of the lists are checked before anything is allocated for them.
func FromProto(m *rulebookv1.MicropulState) (*State, error) {
	if v := m.GetRulesVersion(); v != 0 && v != RulesVersion {
		return nil, engine.Invalidf(ReasonRulesVersionUnsupported, "rulesVersion",
			map[string]string{"rulesVersion": strconv.FormatUint(uint64(v), 10), "supported": strconv.Itoa(RulesVersion)},
			"rules version %d is not supported; this release plays version %d", v, RulesVersion)
	}
	opts := optionsFromProto(m.GetOptions()).withDefaults()
	if err := opts.check("options."); err != nil {
		return nil, err
	}
	if n := len(m.GetPlayers()); n != opts.Players {
		return nil, engine.Invalidf(ReasonPlayersMismatch, "players",
			map[string]string{"players": strconv.Itoa(opts.Players), "entries": strconv.Itoa(n)},
			"the state has %d player entries for a %d-player game", n, opts.Players)
	}
	listed := len(m.GetBoard()) + len(m.GetCore())
	for _, pl := range m.GetPlayers() {
		listed += len(pl.GetHand()) + len(pl.GetSupply())
	}
	if listed > NumTiles || len(m.GetStones()) > MaxPlayers*StonesPerPlayer {
		field := "core"
		if len(m.GetStones()) > MaxPlayers*StonesPerPlayer {
			field = "stones"
		}
		reason := map[string]string{"core": ReasonTilesMissing, "stones": ReasonStonesExceeded}[field]
		return nil, engine.Invalidf(reason, field,
			map[string]string{"tiles": strconv.Itoa(listed), "stones": strconv.Itoa(len(m.GetStones()))},
			"the state lists %d tiles and %d stones; the game has %d tiles and %d stones", listed,
			len(m.GetStones()), NumTiles, MaxPlayers*StonesPerPlayer)
	}
	count := func(field func() string, got uint32, want int) error {
		if m.GetIsView() || intFromProto(got) == want {
			return nil
		}
		return engine.Invalidf(ReasonCountMismatch, field(),
			map[string]string{"count": strconv.FormatUint(uint64(got), 10), "listed": strconv.Itoa(want)},
			"%s is %d but %d tiles are listed", field(), got, want)
	}
	if !m.GetIsView() && m.GetViewer() != 0 {
		return nil, engine.Invalidf(ReasonCountMismatch, "viewer", map[string]string{"viewer": strconv.Itoa(int(m.GetViewer()))},
			"a full state has no viewer, but viewer is %d", m.GetViewer())
	}
	if err := count(func() string { return "coreCount" }, m.GetCoreCount(), len(m.GetCore())); err != nil {
		return nil, err
	}
	ids := make([]int, 0, listed) // one allocation for every list of ids
	p := Position{
		Options:           opts,
		Board:             make([]Placed, len(m.GetBoard())),
		Stones:            make([]Stone, len(m.GetStones())),
		Hands:             make([][]int, 0, opts.Players),
		Supplies:          make([][]int, 0, opts.Players),
		Core:              take(&ids, m.GetCore(), intFromProto),
		ToMove:            engine.Player(m.GetToMove()),
		ExtraTurn:         m.GetExtraTurn(),
		ExtraTurnsPending: intFromProto(m.GetExtraTurnsPending()),
		End:               End(m.GetEnd()),
		Loser:             engine.Player(m.GetLoser()),
		IsView:            m.GetIsView(),
		Viewer:            engine.Player(m.GetViewer()),
		CoreCount:         intFromProto(m.GetCoreCount()),
	}
	for i, pl := range m.GetPlayers() {
		field := func(count string) func() string {
			return func() string { return "players[" + strconv.Itoa(i) + "]." + count }
		}
		if err := count(field("handCount"), pl.GetHandCount(), len(pl.GetHand())); err != nil {
			return nil, err
		}
		if err := count(field("supplyCount"), pl.GetSupplyCount(), len(pl.GetSupply())); err != nil {
			return nil, err
		}
		p.Hands = append(p.Hands, take(&ids, pl.GetHand(), intFromProto))
		p.Supplies = append(p.Supplies, take(&ids, pl.GetSupply(), intFromProto))
		if p.IsView { // a full state's counts are those of its lists
			p.HandCounts = append(p.HandCounts, intFromProto(pl.GetHandCount()))
			p.SupplyCounts = append(p.SupplyCounts, intFromProto(pl.GetSupplyCount()))
		}
	}
	for i, t := range m.GetBoard() {
		p.Board[i] = Placed{Tile: intFromProto(t.GetTile()), At: Coord{int(t.GetX()), int(t.GetY())},
			Rotation: intFromProto(t.GetRotation())}
	}
	for i, st := range m.GetStones() {
		p.Stones[i] = Stone{Player: engine.Player(st.GetPlayer()), At: Coord{int(st.GetX()), int(st.GetY())},
			Quadrant: quadrantFromProto(st.GetQuadrant())}
	}
	return newState(p)
}

// Proto returns the move as the envelope rulebook.v1.Move, which holds the moving player, in the form the game
// records (Canonical): a placement at its canonical rotation.
func (m Move) Proto() *rulebookv1.Move {
	m = m.Canonical()
	mm := &rulebookv1.MicropulMove{}
	switch m.Action {
	case PlaceTile:
		mm.Action = &rulebookv1.MicropulMove_PlaceTile{PlaceTile: &rulebookv1.MicropulPlaceTile{
			Tile: uint32(m.Tile), X: int32(m.At.X), Y: int32(m.At.Y), Rotation: uint32(m.Rotation)}}
	case TakeTile:
		mm.Action = &rulebookv1.MicropulMove_TakeTile{TakeTile: &rulebookv1.MicropulTakeTile{}}
	case PlaceStone:
		mm.Action = &rulebookv1.MicropulMove_PlaceStone{PlaceStone: &rulebookv1.MicropulPlaceStone{
			X: int32(m.At.X), Y: int32(m.At.Y), Quadrant: quadrantProto(m.Quadrant)}}
	case Pass:
		mm.Action = &rulebookv1.MicropulMove_Pass{Pass: &rulebookv1.MicropulPass{}}
	}
	return &rulebookv1.Move{Player: int32(m.Player), Game: &rulebookv1.Move_Micropul{Micropul: mm}}
}

var _ engine.Receiver[*State] = definition{}

// Receive returns move as the game records it, for the service's answer to ApplyMove (engine.Position's Receive asks
// it): a placement turned to a rotation that gives the tile the same look as a smaller one comes back as a new message
// with the smallest (Move.Canonical); any other move, including one that does not decode or is out of range, is move
// itself. Micropul reads no receive time.
func (definition) Receive(_ *State, move *rulebookv1.Move, _ time.Time) *rulebookv1.Move {
	m, err := MoveFromProto(move)
	if err != nil || m.Canonical() == m {
		return move
	}
	out := proto.CloneOf(move)
	out.GetMicropul().GetPlaceTile().Rotation = uint32(m.Canonical().Rotation)
	return out
}

// MoveFromProto returns the move in the envelope m. An envelope without a Micropul move (or a nil one) is an Invalid
// GAME_MISMATCH error; everything else is checked by Validate (a move with no action is MOVE_EMPTY).
func MoveFromProto(m *rulebookv1.Move) (Move, error) {
	mm := m.GetMicropul()
	if mm == nil {
		return Move{}, gameMismatch("move")
	}
	out := Move{Player: engine.Player(m.GetPlayer())}
	switch a := mm.GetAction().(type) {
	case *rulebookv1.MicropulMove_PlaceTile:
		t := a.PlaceTile
		out.Action, out.Tile, out.At = PlaceTile, intFromProto(t.GetTile()), Coord{int(t.GetX()), int(t.GetY())}
		out.Rotation = intFromProto(t.GetRotation())
	case *rulebookv1.MicropulMove_TakeTile:
		out.Action = TakeTile
	case *rulebookv1.MicropulMove_PlaceStone:
		st := a.PlaceStone
		out.Action, out.At = PlaceStone, Coord{int(st.GetX()), int(st.GetY())}
		out.Quadrant = quadrantFromProto(st.GetQuadrant())
	case *rulebookv1.MicropulMove_Pass:
		out.Action = Pass
	}
	return out, nil
}

// gameMismatch returns the GAME_MISMATCH error of an envelope (what: "options", "state" or "move") that does not
// hold a Micropul message.
func gameMismatch(what string) error {
	return engine.Invalidf(ReasonGameMismatch, "", map[string]string{"game": GameID, "envelope": what},
		"the %s holds no Micropul message", what)
}

// EventsProto returns events as protobuf Event envelopes, in the same order. Use ViewEvents first for a caller who
// may not see everything.
func EventsProto(events []Event) []*rulebookv1.Event {
	out := make([]*rulebookv1.Event, len(events))
	for i, e := range events {
		out[i] = &rulebookv1.Event{Game: &rulebookv1.Event_Micropul{Micropul: e.proto()}}
	}
	return out
}

// hideableFromProto returns the event of m when it is one that ViewEvents may hide something of: a TilesDrawn, a
// TileTaken or a Passed.
func hideableFromProto(m *rulebookv1.MicropulEvent) (Event, bool) {
	switch k := m.GetKind().(type) {
	case *rulebookv1.MicropulEvent_TilesDrawn:
		d := k.TilesDrawn
		return TilesDrawn{Player: engine.Player(d.GetPlayer()), Count: intFromProto(d.GetCount()),
			Tiles: take(new([]int), d.GetTiles(), intFromProto), Hidden: d.GetHidden(), CoreLeft: intFromProto(d.GetCoreLeft())}, true
	case *rulebookv1.MicropulEvent_TileTaken:
		t := k.TileTaken
		return TileTaken{Player: engine.Player(t.GetPlayer()), Tile: intFromProto(t.GetTile()), Hidden: t.GetHidden()},
			true
	case *rulebookv1.MicropulEvent_Passed:
		return Passed{Player: engine.Player(k.Passed.GetPlayer()), Forced: k.Passed.GetForced()}, true
	}
	return nil, false
}

func (e TilePlaced) proto() *rulebookv1.MicropulEvent {
	return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_TilePlaced{TilePlaced: &rulebookv1.MicropulTilePlaced{
		Player: int32(e.Player), Tile: e.Tile.proto()}}}
}

func (e CatalystActivated) proto() *rulebookv1.MicropulEvent {
	q := quadrantProto(e.Quadrant)
	if e.Centre {
		q = rulebookv1.MicropulQuadrant_MICROPUL_QUADRANT_UNSPECIFIED
	}
	kind := map[Symbol]rulebookv1.MicropulCatalyst{One: rulebookv1.MicropulCatalyst_MICROPUL_CATALYST_ONE,
		Two: rulebookv1.MicropulCatalyst_MICROPUL_CATALYST_TWO, Plus: rulebookv1.MicropulCatalyst_MICROPUL_CATALYST_PLUS}
	return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_CatalystActivated{
		CatalystActivated: &rulebookv1.MicropulCatalystActivated{Player: int32(e.Player), X: int32(e.At.X),
			Y: int32(e.At.Y), Quadrant: q, Catalyst: kind[e.Catalyst], Draw: uint32(e.Draw), ExtraTurn: e.ExtraTurn}}}
}

func (e TilesDrawn) proto() *rulebookv1.MicropulEvent {
	return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_TilesDrawn{TilesDrawn: &rulebookv1.MicropulTilesDrawn{
		Player: int32(e.Player), Count: uint32(e.Count), Tiles: take(new([]uint32), e.Tiles, uint32FromInt), Hidden: e.Hidden,
		CoreLeft: uint32(e.CoreLeft)}}}
}

func (e ExtraTurnGranted) proto() *rulebookv1.MicropulEvent {
	return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_ExtraTurnGranted{
		ExtraTurnGranted: &rulebookv1.MicropulExtraTurnGranted{Player: int32(e.Player), Turns: uint32(e.Turns)}}}
}

func (e TileTaken) proto() *rulebookv1.MicropulEvent {
	return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_TileTaken{TileTaken: &rulebookv1.MicropulTileTaken{
		Player: int32(e.Player), Tile: uint32(e.Tile), Hidden: e.Hidden}}}
}

func (e StonePlaced) proto() *rulebookv1.MicropulEvent {
	return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_StonePlaced{
		StonePlaced: &rulebookv1.MicropulStonePlaced{Stone: e.Stone.proto()}}}
}

func (e Passed) proto() *rulebookv1.MicropulEvent {
	return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_Passed{Passed: &rulebookv1.MicropulPassed{
		Player: int32(e.Player), Forced: e.Forced}}}
}

func (e PlayerOutOfTiles) proto() *rulebookv1.MicropulEvent {
	return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_OutOfTiles{
		OutOfTiles: &rulebookv1.MicropulOutOfTiles{Player: int32(e.Player)}}}
}

func (e GameOver) proto() *rulebookv1.MicropulEvent {
	return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_GameOver{GameOver: &rulebookv1.MicropulGameOver{
		End: rulebookv1.MicropulEnd(e.End), Winners: playersProto(e.Winners)}}}
}

// playersProto converts players.
func playersProto(ps []engine.Player) []int32 {
	out := make([]int32, len(ps))
	for i, p := range ps {
		out[i] = int32(p)
	}
	return out
}

// Proto returns the score as its protobuf message: a standing per player with their total as points, ranked by
// total (equal totals share a rank; a player who ran out of tiles is marked eliminated); the winners once the game
// is over; and the Micropul breakdown.
func (sc Score) Proto() *rulebookv1.Score {
	out := &rulebookv1.Score{GameOver: sc.Over, Winners: playersProto(sc.Winners),
		Standings: make([]*rulebookv1.PlayerStanding, len(sc.Players))}
	breakdown := &rulebookv1.MicropulScore{End: rulebookv1.MicropulEnd(sc.End),
		SoloBand: rulebookv1.MicropulSoloBand(sc.Band)}
	for i, p := range sc.Players {
		rank := 1
		for _, q := range sc.Players {
			if q.Total > p.Total {
				rank++
			}
		}
		out.Standings[i] = &rulebookv1.PlayerStanding{Player: int32(p.Player), Points: int32(p.Total),
			Rank: int32(rank), Eliminated: p.Lost}
		breakdown.Players = append(breakdown.Players, &rulebookv1.MicropulPlayerScore{Player: int32(p.Player),
			GroupPoints: uint32(p.Groups), SupplyPoints: uint32(p.Supply), HandPoints: uint32(p.Hand),
			Total: uint32(p.Total), Lost: p.Lost})
	}
	for _, g := range sc.Groups {
		gm := &rulebookv1.MicropulGroupScore{Color: rulebookv1.MicropulColor(g.Color), Micropuls: uint32(g.Micropuls),
			Tiles: uint32(g.Tiles), Closed: g.Closed, Points: uint32(g.Points), X: int32(g.First.At.X),
			Y: int32(g.First.At.Y), Quadrant: quadrantProto(g.First.Quadrant)}
		for _, st := range g.Stones {
			gm.Stones = append(gm.Stones, st.proto())
		}
		breakdown.Groups = append(breakdown.Groups, gm)
	}
	out.Game = &rulebookv1.Score_Micropul{Micropul: breakdown}
	return out
}
