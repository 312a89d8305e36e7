package micropul

import (
	"slices"
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// Action is the kind of a move.
type Action int

// The actions. A Move with no action (0) is refused with MOVE_EMPTY.
const (
	// PlaceTile places Tile from the hand at At, turned Rotation clockwise quarter turns.
	PlaceTile Action = iota + 1
	// TakeTile moves the last tile of the supply into the hand.
	TakeTile
	// PlaceStone puts a stone on the micropul in Quadrant of the tile at At.
	PlaceStone
	// Pass passes the turn.
	Pass
)

// Move is one action of Player. Only the fields of its Action count; the others are zero.
type Move struct {
	Player   engine.Player
	Action   Action
	Tile     int
	At       Coord
	Rotation int
	Quadrant Quadrant
}

// Canonical returns m as the game records it: a placement turned to a rotation that gives the tile the same look as
// a smaller one has the smallest (Tile.Canonical), for the two are one move; any other move, and a placement whose
// tile or rotation is out of range, is m itself.
func (m Move) Canonical() Move {
	if m.Action == PlaceTile && m.Tile >= 0 && m.Tile < NumTiles && m.Rotation >= 0 && m.Rotation <= 3 {
		m.Rotation = canonicalRotation(m.Tile, m.Rotation)
	}
	return m
}

// String returns the move in the notation of ParseMove after its player, such as "P1: t12 0,-1 r1".
func (m Move) String() string {
	return "P" + strconv.Itoa(int(m.Player)) + ": " + m.Notation()
}

// Legal returns every legal move of p, in this order: the placements of each hand tile (ascending id), each of its
// canonical rotations (ascending; a rotation that looks like a smaller one is the same move, listed once), each
// position (row by row: by y, then x); then the stones, by position row by row and quadrant clockwise (every quadrant
// of a big micropul is listed); then taking a tile from the supply; then passing. It returns none when p is not the
// player to move (including once the game is over) and for a view.
func (s *State) Legal(p engine.Player) []Move {
	if s.view || p == engine.NoPlayer || p != s.toMove {
		return nil
	}
	moves := s.placements(p, false)
	moves = append(moves, s.stoneMoves(p, false)...)
	if s.canTake(p) {
		moves = append(moves, Move{Player: p, Action: TakeTile})
	}
	if s.passAllowed(p, len(moves) > 0) {
		moves = append(moves, Move{Player: p, Action: Pass})
	}
	return moves
}

// placements returns the legal placements of p's hand tiles, in Legal's order; with first set, at most one.
func (s *State) placements(p engine.Player, first bool) []Move {
	var moves []Move
	frontier := s.frontier()
	for _, id := range s.seats[p-1].Hand {
		for r := range 4 {
			if !tiles[id].Canonical(r) {
				continue
			}
			quads := orientations[id][r]
			for _, at := range frontier {
				if f := fitAt(quads, at, s.lookup); f.touches && f.match && !f.conflict {
					moves = append(moves, Move{Player: p, Action: PlaceTile, Tile: id, At: at, Rotation: r})
					if first {
						return moves
					}
				}
			}
		}
	}
	return moves
}

// stoneMoves returns p's legal stone placements, in Legal's order; with first set, at most one.
func (s *State) stoneMoves(p engine.Player, first bool) []Move {
	if s.StonesLeft(p) == 0 {
		return nil
	}
	groups, of := s.groups()
	order := make([]int, len(s.board))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareCoords(s.board[a].At, s.board[b].At) })
	var moves []Move
	for _, i := range order {
		for q := range 4 {
			g := of[i*4+q]
			if g < 0 || s.stoneRefusal(groups[g]) != "" {
				continue
			}
			moves = append(moves, Move{Player: p, Action: PlaceStone, At: s.board[i].At, Quadrant: Quadrant(q)})
			if first {
				return moves
			}
		}
	}
	return moves
}

// stoneRefusal returns the reason a stone may not go on group g, or "".
func (s *State) stoneRefusal(g group) string {
	switch {
	case len(g.stones) > 0:
		return ReasonGroupHasStone
	case s.opts.Rules == DefaultRules && g.tiles < 2:
		return ReasonGroupTooSmall
	}
	return ""
}

// canTake reports whether p may move a tile from the supply to the hand.
func (s *State) canTake(p engine.Player) bool {
	seat := s.seats[p-1]
	return seat.HandCount < HandSize && seat.SupplyCount > 0
}

// hasAction reports whether p, were it p's turn, would have an action other than passing.
func (s *State) hasAction(p engine.Player) bool {
	return s.canTake(p) || len(s.placements(p, true)) > 0 || len(s.stoneMoves(p, true)) > 0
}

// passAllowed reports whether p may pass: with no other action, or in an extra turn of the default rule set.
func (s *State) passAllowed(p engine.Player, hasAction bool) bool {
	return !hasAction || s.extraTurn && s.opts.Rules == DefaultRules
}

// Validate returns the error Apply would return for m, or nil. The checks, in order:
//
//   - STATE_IS_VIEW (Invalid, field "isView"): s is a view;
//   - PLAYER_OUT_OF_RANGE (Invalid, field "player"): m.Player is not a player of the game;
//   - MOVE_EMPTY (Invalid, field "micropul"): no action;
//   - placing a tile: TILE_OUT_OF_RANGE ("micropul.placeTile.tile"), ROTATION_OUT_OF_RANGE
//     ("micropul.placeTile.rotation"), POSITION_OUT_OF_RANGE ("micropul.placeTile.x" or ".y"); a stone:
//     POSITION_OUT_OF_RANGE ("micropul.placeStone.x" or ".y"), QUADRANT_OUT_OF_RANGE ("micropul.placeStone.quadrant");
//     all Invalid;
//   - GAME_OVER, then NOT_YOUR_TURN (Illegal);
//   - placing a tile: TILE_NOT_IN_HAND, POSITION_OCCUPIED, NOT_CONNECTED, COLOR_CONFLICT, NO_COLOR_MATCH; taking a
//     tile: HAND_FULL, SUPPLY_EMPTY; a stone: NO_STONES_LEFT, NO_TILE_AT_POSITION, NOT_A_MICROPUL, GROUP_HAS_STONE,
//     GROUP_TOO_SMALL; passing: PASS_NOT_ALLOWED (all Illegal).
//
// Every rotation 0 to 3 is accepted: one that gives the tile the same look as a smaller one is the same move as the
// smaller (Move.Canonical).
func (s *State) Validate(m Move) error {
	if err := s.checkShape(m); err != nil {
		return err
	}
	switch {
	case s.Over():
		return engine.Illegalf(ReasonGameOver, map[string]string{"end": s.end.String()},
			"the game is over (%v)", s.end)
	case m.Player != s.toMove:
		return engine.Illegalf(ReasonNotYourTurn,
			map[string]string{"player": strconv.Itoa(int(m.Player)), "toMove": strconv.Itoa(int(s.toMove))},
			"it is player %d's turn, not player %d's", s.toMove, m.Player)
	}
	switch m.Action {
	case PlaceTile:
		return s.validatePlacement(m)
	case TakeTile:
		seat := s.seats[m.Player-1]
		facts := map[string]string{"hand": strconv.Itoa(seat.HandCount), "supply": strconv.Itoa(seat.SupplyCount)}
		if seat.HandCount >= HandSize {
			return engine.Illegalf(ReasonHandFull, facts, "the hand holds %d tiles already", seat.HandCount)
		}
		if seat.SupplyCount == 0 {
			return engine.Illegalf(ReasonSupplyEmpty, facts, "the supply is empty")
		}
	case PlaceStone:
		return s.validateStone(m)
	case Pass:
		if !s.passAllowed(m.Player, s.hasAction(m.Player)) {
			return engine.Illegalf(ReasonPassNotAllowed,
				map[string]string{"extraTurn": strconv.FormatBool(s.extraTurn), "ruleSet": s.opts.Rules.String()},
				"passing is allowed only with no other action, or in an extra turn under the default rule set")
		}
	}
	return nil
}

// checkShape returns the Invalid error of a move that no state could accept.
func (s *State) checkShape(m Move) error {
	if s.view {
		return engine.Invalidf(ReasonStateIsView, "isView", map[string]string{"viewer": strconv.Itoa(int(s.viewer))},
			"the state is a view for viewer %d; moves need the full state", s.viewer)
	}
	if !s.isPlayer(m.Player) {
		return engine.Invalidf(ReasonPlayerOutOfRange, "player",
			map[string]string{"player": strconv.Itoa(int(m.Player)), "players": strconv.Itoa(s.opts.Players)},
			"player %d is not a player of this %d-player game", m.Player, s.opts.Players)
	}
	facts := func() map[string]string {
		return map[string]string{"tile": strconv.Itoa(m.Tile), "x": strconv.Itoa(m.At.X), "y": strconv.Itoa(m.At.Y),
			"rotation": strconv.Itoa(m.Rotation), "quadrant": strconv.Itoa(int(m.Quadrant))}
	}
	position := func(prefix string) error {
		if m.At.X < -MaxCoord || m.At.X > MaxCoord {
			return engine.Invalidf(ReasonPositionOutOfRange, prefix+".x", facts(),
				"x = %d is farther than %d from the start tile", m.At.X, MaxCoord)
		}
		if m.At.Y < -MaxCoord || m.At.Y > MaxCoord {
			return engine.Invalidf(ReasonPositionOutOfRange, prefix+".y", facts(),
				"y = %d is farther than %d from the start tile", m.At.Y, MaxCoord)
		}
		return nil
	}
	switch m.Action {
	case PlaceTile:
		const f = "micropul.placeTile"
		switch {
		case m.Tile < 0 || m.Tile >= NumTiles:
			return engine.Invalidf(ReasonTileOutOfRange, f+".tile", facts(),
				"tile %d does not exist; tiles are 0 to %d", m.Tile, NumTiles-1)
		case m.Rotation < 0 || m.Rotation > 3:
			return engine.Invalidf(ReasonRotationOutOfRange, f+".rotation", facts(),
				"rotation %d; rotations are 0 to 3", m.Rotation)
		}
		return position(f)
	case PlaceStone:
		const f = "micropul.placeStone"
		if err := position(f); err != nil {
			return err
		}
		if m.Quadrant > BL {
			return engine.Invalidf(ReasonQuadrantOutOfRange, f+".quadrant", facts(),
				"the stone names no quadrant (TL, TR, BR or BL)")
		}
	case TakeTile, Pass:
	default:
		return engine.Invalidf(ReasonMoveEmpty, "micropul", map[string]string{"action": strconv.Itoa(int(m.Action))},
			"the move names no action")
	}
	return nil
}

// validatePlacement checks a tile placement by the player to move.
func (s *State) validatePlacement(m Move) error {
	facts := func() map[string]string {
		return map[string]string{"tile": strconv.Itoa(m.Tile), "x": strconv.Itoa(m.At.X), "y": strconv.Itoa(m.At.Y),
			"rotation": strconv.Itoa(m.Rotation)}
	}
	if _, ok := slices.BinarySearch(s.seats[m.Player-1].Hand, m.Tile); !ok {
		return engine.Illegalf(ReasonTileNotInHand, facts(), "tile %d is not in player %d's hand", m.Tile, m.Player)
	}
	if p, ok := s.lookup(m.At); ok {
		fs := facts()
		fs["occupant"] = strconv.Itoa(p.Tile)
		return engine.Illegalf(ReasonPositionOccupied, fs, "tile %d already lies at %v", p.Tile, m.At)
	}
	f := fitAt(orientations[m.Tile][m.Rotation], m.At, s.lookup)
	switch {
	case !f.touches:
		return engine.Illegalf(ReasonNotConnected, facts(), "%v touches no tile in play", m.At)
	case f.conflict:
		fs := facts()
		fs["neighbourX"], fs["neighbourY"] = strconv.Itoa(f.where.X), strconv.Itoa(f.where.Y)
		fs["quadrant"], fs["neighbourQuadrant"] = f.mine.String(), f.theirs.String()
		return engine.Illegalf(ReasonColorConflict, fs,
			"tile %d at %v: its %v micropul would touch a micropul of the other colour at %v %v", m.Tile, m.At,
			f.mine, f.where, f.theirs)
	case !f.match:
		return engine.Illegalf(ReasonNoColorMatch, facts(),
			"tile %d at %v: no micropul of it would touch a micropul of its colour", m.Tile, m.At)
	}
	return nil
}

// validateStone checks a stone placement by the player to move.
func (s *State) validateStone(m Move) error {
	facts := map[string]string{"x": strconv.Itoa(m.At.X), "y": strconv.Itoa(m.At.Y), "quadrant": m.Quadrant.String()}
	if s.StonesLeft(m.Player) == 0 {
		return engine.Illegalf(ReasonNoStonesLeft, facts, "player %d has put all %d stones down", m.Player,
			StonesPerPlayer)
	}
	i, ok := s.index.at(m.At)
	if !ok {
		return engine.Illegalf(ReasonNoTileAtPosition, facts, "no tile lies at %v", m.At)
	}
	if !s.board[i].Quads()[m.Quadrant].IsMicropul() {
		return engine.Illegalf(ReasonNotAMicropul, facts, "quadrant %v of the tile at %v holds no micropul",
			m.Quadrant, m.At)
	}
	groups, of := s.groups()
	g := groups[of[i*4+int(m.Quadrant)]]
	switch s.stoneRefusal(g) {
	case ReasonGroupHasStone:
		st := s.stones[g.stones[0]]
		facts["owner"] = strconv.Itoa(int(st.Player))
		return engine.Illegalf(ReasonGroupHasStone, facts, "the group of %v %v already carries player %d's stone",
			m.At, m.Quadrant, st.Player)
	case ReasonGroupTooSmall:
		return engine.Illegalf(ReasonGroupTooSmall, facts,
			"the group of %v %v lies within one tile; the default rule set needs two tiles", m.At, m.Quadrant)
	}
	return nil
}

// Apply plays m and returns the new state and the events of the move, in order:
//
//   - placing a tile: TilePlaced; then for each catalyst fired (by position row by row, then quadrant, the centre
//     last) a CatalystActivated, followed for a dot catalyst by TilesDrawn (the tiles from the front of the core into
//     the mover's supply; fewer when the core runs short); when the core runs out, the remaining catalysts are not
//     resolved; then ExtraTurnGranted if plus catalysts fired and the game goes on;
//   - taking a tile: TileTaken (the last tile of the supply goes into the hand);
//   - a stone: StonePlaced; passing: Passed;
//   - then OutOfTiles if the mover has no tile left in hand or supply, and GameOver if the move ended the game.
//
// A placement is recorded (on the board and in TilePlaced) at its canonical rotation (Move.Canonical). s is not
// changed. The error is Validate's.
func (s *State) Apply(m Move) (*State, []Event, error) {
	if err := s.Validate(m); err != nil {
		return nil, nil, err
	}
	m = m.Canonical()
	next := s.clone()
	p := m.Player
	seat := &next.seats[p-1]
	var events []Event
	forced := false
	switch m.Action {
	case PlaceTile:
		k, _ := slices.BinarySearch(seat.Hand, m.Tile)
		hand := make([]int, 0, len(seat.Hand)-1) // a new list: the old one is shared with s
		seat.Hand = append(append(hand, seat.Hand[:k]...), seat.Hand[k+1:]...)
		seat.HandCount--
		placed := Placed{Tile: m.Tile, At: m.At, Rotation: m.Rotation}
		next.board = append(slices.Clip(next.board), placed)
		next.index = indexOf(next.board)
		events = append(events, TilePlaced{Player: p, Tile: placed})
		events = next.resolve(p, placed, events)
	case TakeTile:
		id := seat.Supply[len(seat.Supply)-1]
		seat.Supply = seat.Supply[:len(seat.Supply)-1]
		seat.SupplyCount--
		k, _ := slices.BinarySearch(seat.Hand, id)
		seat.Hand = slices.Insert(slices.Clip(seat.Hand), k, id)
		seat.HandCount++
		events = append(events, TileTaken{Player: p, Tile: id})
	case PlaceStone:
		st := Stone{Player: p, At: m.At, Quadrant: m.Quadrant}
		next.stones = append(slices.Clip(next.stones), st)
		events = append(events, StonePlaced{Stone: st})
	case Pass:
		forced = !s.hasAction(p)
		events = append(events, Passed{Player: p, Forced: forced})
	}
	if next.end == NotOver && seat.HandCount+seat.SupplyCount == 0 {
		next.end, next.loser = OutOfTiles, p
		events = append(events, PlayerOutOfTiles{Player: p})
	}
	if next.end == NotOver {
		next.advance(p)
		if forced && next.blocked() {
			next.end = Blocked
		}
	}
	if next.end != NotOver {
		next.toMove, next.extraTurn, next.pending = engine.NoPlayer, false, 0
		events = append(events, GameOver{End: next.end, Winners: next.Score().Winners})
	}
	return next, events, nil
}

// resolve fires the catalysts of placement placed by p, changing s (a clone: its core and p's supply are replaced,
// not changed in place), and returns events with theirs appended.
func (s *State) resolve(p engine.Player, placed Placed, events []Event) []Event {
	seat := &s.seats[p-1]
	plus := 0
	for _, a := range activations(placed, s.lookup) {
		e := CatalystActivated{Player: p, At: a.At, Quadrant: a.Quadrant, Centre: a.Centre, Catalyst: a.Catalyst}
		switch a.Catalyst {
		case One:
			e.Draw = 1
		case Two:
			e.Draw = 2
		case Plus:
			e.ExtraTurn = true
			plus++
		}
		events = append(events, e)
		if e.Draw > 0 {
			n := min(e.Draw, len(s.core))
			drawn := slices.Clone(s.core[:n])
			s.core = s.core[n:]
			s.coreCount = len(s.core)
			seat.Supply = append(slices.Clip(seat.Supply), drawn...)
			seat.SupplyCount += n
			events = append(events, TilesDrawn{Player: p, Count: n, Tiles: drawn, CoreLeft: s.coreCount})
			if s.coreCount == 0 {
				s.end = CoreEmpty
				return events
			}
		}
	}
	if plus > 0 {
		turns := plus
		if s.opts.Rules == Original2004 {
			turns = 1
		}
		s.pending += turns
		events = append(events, ExtraTurnGranted{Player: p, Turns: turns})
	}
	return events
}

// blocked reports whether no player has an action other than passing: then nothing can change any more. (After a
// forced pass it is not enough to look at the next player to move: with an extra turn pending that is the mover
// again, while the other player may still have an action.)
func (s *State) blocked() bool {
	for p := engine.Player(1); int(p) <= s.opts.Players; p++ {
		if s.hasAction(p) {
			return false
		}
	}
	return true
}

// advance hands the turn on after mover's action: to mover again for a pending extra turn, else to the next player.
func (s *State) advance(mover engine.Player) {
	if s.pending > 0 {
		s.pending--
		s.extraTurn = true
		s.toMove = mover
		return
	}
	s.extraTurn = false
	s.toMove = mover%engine.Player(s.opts.Players) + 1
}
