package micropul

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/rulebook/rulebook/engine"
)

// End tells how a game ended.
type End int

const (
	// NotOver: the game goes on.
	NotOver End = iota
	// CoreEmpty: the last tile of the core was drawn.
	CoreEmpty
	// OutOfTiles: a player was left with no tile in hand or supply, and lost.
	OutOfTiles
	// Blocked: a player with no legal action passed and no player had an action any more.
	Blocked
)

// String returns the end's name.
func (e End) String() string {
	switch e {
	case NotOver:
		return "not over"
	case CoreEmpty:
		return "core empty"
	case OutOfTiles:
		return "out of tiles"
	case Blocked:
		return "blocked"
	}
	return "End(" + strconv.Itoa(int(e)) + ")"
}

// Seat is what one player holds. In a full state HandCount and SupplyCount are the lengths of Hand and Supply; in a
// view the hidden lists are nil and only counted.
type Seat struct {
	// Hand is the tile ids in hand, ascending.
	Hand      []int
	HandCount int
	// Supply is the tile ids in the supply in the order they were drawn; a tile taken into the hand is the last.
	Supply      []int
	SupplyCount int
}

// State is a Micropul position, or a player's view of one (IsView). It is immutable: no method changes it, and
// Apply returns a new State.
type State struct {
	opts   Options
	board  []Placed
	index  index
	stones []Stone
	seats  []Seat
	// core is in draw order: core[0] is drawn next. coreCount is its length, also in a view where core is nil.
	core      []int
	coreCount int
	toMove    engine.Player
	extraTurn bool
	pending   int
	end       End
	loser     engine.Player
	view      bool
	viewer    engine.Player
}

// Position is a state's parts, for NewState. Counts are taken from the lists unless IsView is set, in which case
// the lists hidden from Viewer are left empty and CoreCount, HandCounts and SupplyCounts give their sizes.
type Position struct {
	Options Options
	// Board holds the tiles in play in the order they were placed, the start tile first.
	Board  []Placed
	Stones []Stone
	// Hands and Supplies hold one list per player, in seat order.
	Hands, Supplies [][]int
	// Core is in draw order.
	Core              []int
	ToMove            engine.Player
	ExtraTurn         bool
	ExtraTurnsPending int
	End               End
	Loser             engine.Player

	IsView                   bool
	Viewer                   engine.Player
	CoreCount                int
	HandCounts, SupplyCounts []int
}

// shuffleStream is the second word of the PCG generator that shuffles the tiles ("micropul").
const shuffleStream = 0x6d6963726f70756c

// New returns the start of a game: tile 40 at (0, 0); the other 47 tiles shuffled by a math/rand/v2 PCG generator
// seeded with (seed, "micropul"); 6 tiles dealt into each hand, player 1's first, from the front of the shuffled
// tiles; the rest forming the core in draw order; player 1 to move. Zero fields of opts take their defaults; an
// option out of range is an Invalid OPTION_OUT_OF_RANGE error whose field is the option's name in MicropulOptions.
func New(opts Options, seed uint64) (*State, error) {
	opts = opts.withDefaults()
	if err := opts.check(""); err != nil {
		return nil, err
	}
	deck := make([]int, 0, NumTiles-1)
	for id := range NumTiles {
		if id != StartTile {
			deck = append(deck, id)
		}
	}
	rng := rand.New(rand.NewPCG(seed, shuffleStream))
	rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	s := &State{
		opts:   opts,
		board:  []Placed{{Tile: StartTile}},
		index:  indexOf([]Placed{{Tile: StartTile}}),
		seats:  make([]Seat, opts.Players),
		toMove: 1,
	}
	for i := range s.seats {
		hand := slices.Clone(deck[i*HandSize : (i+1)*HandSize])
		slices.Sort(hand)
		s.seats[i] = Seat{Hand: hand, HandCount: HandSize}
	}
	s.core = slices.Clone(deck[opts.Players*HandSize:])
	s.coreCount = len(s.core)
	return s, nil
}

// NewState builds a state (or a view) from its parts and checks conditions that every position reached by play
// satisfies (necessary ones: some unreachable states pass); the lists are copied. Zero fields of the options take
// their defaults. Each failed check is an Invalid error whose field is a path in MicropulState; in order:
//
//   - OPTION_OUT_OF_RANGE ("options.players", "options.ruleSet");
//   - PLAYERS_MISMATCH ("players"): not one hand and one supply per player;
//   - PLAYER_OUT_OF_RANGE ("viewer"): a view of someone who is not a player (0, a spectator, is fine);
//   - VIEW_REVEALS_HIDDEN ("core", "players[i].supply", "players[i].hand"): a view listing hidden tiles;
//   - TILE_OUT_OF_RANGE, TILE_DUPLICATE (the tile's field: "board[i].tile", "players[i].hand[j]",
//     "players[i].supply[j]", "core[j]"); HAND_NOT_SORTED, HAND_TOO_LARGE ("players[i].hand"); CORE_TOO_LARGE
//     ("core"); TILES_MISSING ("core"): the tiles (listed or counted) are not the 48;
//   - for each tile of the board in order: START_TILE_MISPLACED ("board[0]..."), ROTATION_OUT_OF_RANGE and
//     ROTATION_NOT_CANONICAL ("board[i].rotation": play records the smallest rotation of a look),
//     POSITION_OUT_OF_RANGE ("board[i].x" or "board[i].y"), POSITION_DUPLICATE, BOARD_DISCONNECTED,
//     BOARD_COLOR_CONFLICT, BOARD_NO_COLOR_MATCH ("board[i]"): each tile must have been a legal placement, as a
//     position, next to the tiles placed before it;
//   - for each stone: PLAYER_OUT_OF_RANGE ("stones[i].player"), QUADRANT_OUT_OF_RANGE ("stones[i].quadrant"),
//     STONE_NOT_ON_MICROPUL, STONE_DUPLICATE ("stones[i]"), STONES_EXCEEDED ("stones"), STONE_ON_SMALL_GROUP
//     ("stones[i]", default rule set);
//   - TO_MOVE_INVALID ("toMove"), EXTRA_TURNS_OUT_OF_RANGE ("extraTurnsPending" or "extraTurn": also more pending
//     than the plus catalysts of the placements won), OUTCOME_MISMATCH ("end" or "loser");
//   - DRAWS_MISMATCH ("core"): more tiles drawn from the core than the dot catalysts of the placements draw, or a
//     game ended with the core empty whose placements before the last drew the whole core.
//
// These are necessary conditions of a position reached by play, not sufficient ones. What cannot be checked without
// history is taken on trust: who placed which tile, the actions between placements, and what the catalysts drew.
func NewState(p Position) (*State, error) {
	p.Board, p.Stones, p.Core = slices.Clone(p.Board), slices.Clone(p.Stones), slices.Clone(p.Core)
	p.Hands, p.Supplies = cloneLists(p.Hands), cloneLists(p.Supplies)
	return newState(p)
}

// cloneLists returns a copy of lists and of each list.
func cloneLists(lists [][]int) [][]int {
	out := make([][]int, len(lists))
	for i, l := range lists {
		out[i] = slices.Clone(l)
	}
	return out
}

// newState is NewState without the copies: the state takes the lists of p (Board, Stones, Core and each hand and
// supply), which the caller must not change afterwards.
func newState(p Position) (*State, error) {
	opts := p.Options.withDefaults()
	if err := opts.check("options."); err != nil {
		return nil, err
	}
	n := opts.Players
	if len(p.Hands) != n || len(p.Supplies) != n || p.IsView && (len(p.HandCounts) != n || len(p.SupplyCounts) != n) {
		return nil, engine.Invalidf(ReasonPlayersMismatch, "players",
			map[string]string{"players": strconv.Itoa(n), "entries": strconv.Itoa(len(p.Hands))},
			"the state has %d player entries for a %d-player game", len(p.Hands), n)
	}
	s := &State{opts: opts, toMove: p.ToMove, extraTurn: p.ExtraTurn, pending: p.ExtraTurnsPending, end: p.End,
		loser: p.Loser, view: p.IsView, viewer: p.Viewer, core: p.Core, coreCount: len(p.Core), board: p.Board,
		stones: p.Stones, seats: make([]Seat, n)}
	for i := range n {
		s.seats[i] = Seat{Hand: p.Hands[i], HandCount: len(p.Hands[i]), Supply: p.Supplies[i],
			SupplyCount: len(p.Supplies[i])}
	}
	if p.IsView {
		if err := s.checkViewParts(p); err != nil {
			return nil, err
		}
	}
	if err := s.checkTiles(); err != nil {
		return nil, err
	}
	t, err := s.checkBoard()
	if err != nil {
		return nil, err
	}
	for _, check := range []func() error{s.checkStones, func() error { return s.checkTurn(t) },
		func() error { return s.checkDraws(t) }} {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkViewParts checks the viewer and that a view lists nothing hidden, and takes its counts.
func (s *State) checkViewParts(p Position) error {
	if err := s.checkSeat(s.viewer, "viewer"); err != nil {
		return err
	}
	reveals := func(field, what string) error {
		return engine.Invalidf(ReasonViewRevealsHidden, field, map[string]string{"viewer": strconv.Itoa(int(s.viewer))},
			"a view for viewer %d lists %s, which the viewer may not see", s.viewer, what)
	}
	if len(p.Core) > 0 {
		return reveals("core", "the core")
	}
	s.coreCount = p.CoreCount
	for i := range s.seats {
		if len(p.Supplies[i]) > 0 {
			return reveals(fmt.Sprintf("players[%d].supply", i), "a supply")
		}
		if len(p.Hands[i]) > 0 && engine.Player(i+1) != s.viewer {
			return reveals(fmt.Sprintf("players[%d].hand", i), "another player's hand")
		}
		s.seats[i].SupplyCount = p.SupplyCounts[i]
		if engine.Player(i+1) != s.viewer {
			s.seats[i].HandCount = p.HandCounts[i]
		} else if p.HandCounts[i] != len(p.Hands[i]) {
			return engine.Invalidf(ReasonCountMismatch, fmt.Sprintf("players[%d].handCount", i),
				map[string]string{"count": strconv.Itoa(p.HandCounts[i]), "listed": strconv.Itoa(len(p.Hands[i]))},
				"the viewer's hand count is %d but it lists %d tiles", p.HandCounts[i], len(p.Hands[i]))
		}
	}
	return nil
}

// tileSpot is where a state lists a tile, formatted as its field path (String) only when an error names it: building
// the path of every tile of every state checked would cost more than the checks.
type tileSpot struct {
	list        tileList
	seat, index int
}

// tileList names a list of a state that holds tiles; unseen is the zero tileSpot's, a tile not seen yet.
type tileList uint8

const (
	unseen tileList = iota
	onBoard
	inHand
	inSupply
	inCore
)

// String returns the spot's field path in MicropulState, such as "board[3].tile" or "players[1].hand[2]".
func (t tileSpot) String() string {
	switch t.list {
	case onBoard:
		return fmt.Sprintf("board[%d].tile", t.index)
	case inHand:
		return fmt.Sprintf("players[%d].hand[%d]", t.seat, t.index)
	case inSupply:
		return fmt.Sprintf("players[%d].supply[%d]", t.seat, t.index)
	}
	return fmt.Sprintf("core[%d]", t.index)
}

// checkTiles checks the tile ids, the hands and the counts.
func (s *State) checkTiles() error {
	var where [NumTiles]tileSpot
	see := func(id int, at tileSpot) error {
		switch {
		case id < 0 || id >= NumTiles:
			return engine.Invalidf(ReasonTileOutOfRange, at.String(), map[string]string{"tile": strconv.Itoa(id)},
				"tile %d does not exist; tiles are 0 to %d", id, NumTiles-1)
		case where[id].list != unseen:
			first, field := where[id].String(), at.String()
			return engine.Invalidf(ReasonTileDuplicate, field,
				map[string]string{"tile": strconv.Itoa(id), "first": first},
				"tile %d is both at %s and at %s", id, first, field)
		}
		where[id] = at
		return nil
	}
	for i, p := range s.board {
		if err := see(p.Tile, tileSpot{list: onBoard, index: i}); err != nil {
			return err
		}
	}
	total := len(s.board) + s.coreCount
	for i, seat := range s.seats {
		for j, id := range seat.Hand {
			if err := see(id, tileSpot{list: inHand, seat: i, index: j}); err != nil {
				return err
			}
		}
		if !slices.IsSorted(seat.Hand) {
			return engine.Invalidf(ReasonHandNotSorted, fmt.Sprintf("players[%d].hand", i),
				map[string]string{"player": strconv.Itoa(i + 1)}, "player %d's hand is not in ascending order of tile id",
				i+1)
		}
		if seat.HandCount > HandSize {
			return engine.Invalidf(ReasonHandTooLarge, fmt.Sprintf("players[%d].hand", i),
				map[string]string{"player": strconv.Itoa(i + 1), "tiles": strconv.Itoa(seat.HandCount),
					"max": strconv.Itoa(HandSize)},
				"player %d holds %d tiles; a hand holds at most %d", i+1, seat.HandCount, HandSize)
		}
		if seat.SupplyCount > NumTiles {
			return engine.Invalidf(ReasonTilesMissing, fmt.Sprintf("players[%d].supply", i),
				map[string]string{"player": strconv.Itoa(i + 1), "tiles": strconv.Itoa(seat.SupplyCount)},
				"player %d's supply holds %d tiles; the game has %d", i+1, seat.SupplyCount, NumTiles)
		}
		for j, id := range seat.Supply {
			if err := see(id, tileSpot{list: inSupply, seat: i, index: j}); err != nil {
				return err
			}
		}
		total += seat.HandCount + seat.SupplyCount
	}
	for j, id := range s.core {
		if err := see(id, tileSpot{list: inCore, index: j}); err != nil {
			return err
		}
	}
	if limit := s.opts.coreAtStart(); s.coreCount > limit {
		return engine.Invalidf(ReasonCoreTooLarge, "core",
			map[string]string{"core": strconv.Itoa(s.coreCount), "max": strconv.Itoa(limit)},
			"the core holds %d tiles; after the deal it holds %d and only shrinks", s.coreCount, limit)
	}
	if total != NumTiles {
		return engine.Invalidf(ReasonTilesMissing, "core", map[string]string{"tiles": strconv.Itoa(total)},
			"board, hands, supplies and core hold %d tiles; the game has %d", total, NumTiles)
	}
	return nil
}

// yield is what a placement of the board did, known from the tiles placed before it: the tiles its dot catalysts
// drew (as many as they name: fewer only when the core ran out, which ended the game) and the extra turns its plus
// catalysts won under the rule set.
type yield struct {
	draw, turns int
}

// tally sums the yields of the placements of the board: the tiles drawn by all and by all but the last, and the
// extra turns won.
type tally struct {
	draw, drawBeforeLast, turns int
}

// add returns t with y, the yield of the board's next placement, added.
func (t tally) add(y yield) tally {
	return tally{draw: t.draw + y.draw, drawBeforeLast: t.draw, turns: t.turns + y.turns}
}

// yieldOf returns the yield of a placement that fired the catalysts acts.
func (s *State) yieldOf(acts []activation) yield {
	var y yield
	plus := 0
	for _, a := range acts {
		switch a.Catalyst {
		case One:
			y.draw++
		case Two:
			y.draw += 2
		case Plus:
			plus++
		}
	}
	y.turns = plus
	if s.opts.Rules == Original2004 {
		y.turns = min(plus, 1)
	}
	return y
}

// checkBoard checks that each tile of the board, in order, was a legal placement next to the tiles before it,
// builds the index of positions, and returns the tally of the yields of the placements after the start tile.
func (s *State) checkBoard() (tally, error) {
	s.index = emptyIndex(s.board)
	if len(s.board) == 0 || s.board[0] != (Placed{Tile: StartTile}) {
		field := "board"
		if len(s.board) > 0 {
			field = "board[0]"
		}
		return tally{}, engine.Invalidf(ReasonStartTileMisplaced, field,
			map[string]string{"tile": strconv.Itoa(StartTile)}, "the board must start with tile %d at (0,0), rotation 0",
			StartTile)
	}
	var t tally
	var acts []activation // the activations of one placement, a buffer reused for each
	for i, p := range s.board {
		field := func(sub string) string { return "board[" + strconv.Itoa(i) + "]" + sub }
		facts := func() map[string]string {
			return map[string]string{"tile": strconv.Itoa(p.Tile), "x": strconv.Itoa(p.At.X), "y": strconv.Itoa(p.At.Y),
				"rotation": strconv.Itoa(p.Rotation)}
		}
		switch {
		case p.Rotation < 0 || p.Rotation > 3:
			return tally{}, engine.Invalidf(ReasonRotationOutOfRange, field(".rotation"), facts(),
				"tile %d has rotation %d; rotations are 0 to 3", p.Tile, p.Rotation)
		case !tiles[p.Tile].Canonical(p.Rotation):
			return tally{}, engine.Invalidf(ReasonRotationNotCanonical, field(".rotation"), facts(),
				"tile %d at rotation %d looks as at a smaller rotation; use the smallest", p.Tile, p.Rotation)
		case p.At.X < -MaxCoord || p.At.X > MaxCoord:
			return tally{}, engine.Invalidf(ReasonPositionOutOfRange, field(".x"), facts(),
				"x = %d is farther than %d from the start tile", p.At.X, MaxCoord)
		case p.At.Y < -MaxCoord || p.At.Y > MaxCoord:
			return tally{}, engine.Invalidf(ReasonPositionOutOfRange, field(".y"), facts(),
				"y = %d is farther than %d from the start tile", p.At.Y, MaxCoord)
		}
		if j, ok := s.index.at(p.At); ok {
			return tally{}, engine.Invalidf(ReasonPositionDuplicate, field(""), facts(),
				"tiles %d and %d both lie at %v", s.board[j].Tile, p.Tile, p.At)
		}
		if i > 0 {
			f := fitAt(p.Quads(), p.At, s.lookup)
			switch {
			case !f.touches:
				return tally{}, engine.Invalidf(ReasonBoardDisconnected, field(""), facts(),
					"tile %d at %v touches no tile placed before it", p.Tile, p.At)
			case f.conflict:
				fs := facts()
				fs["neighbourX"], fs["neighbourY"] = strconv.Itoa(f.where.X), strconv.Itoa(f.where.Y)
				return tally{}, engine.Invalidf(ReasonBoardColorConflict, field(""), fs,
					"tile %d at %v: its %v micropul touches a micropul of the other colour at %v %v", p.Tile, p.At,
					f.mine, f.where, f.theirs)
			case !f.match:
				return tally{}, engine.Invalidf(ReasonBoardNoColorMatch, field(""), facts(),
					"tile %d at %v has no micropul touching one of its colour on a tile placed before it", p.Tile, p.At)
			}
		}
		if i > 0 {
			acts = appendActivations(acts[:0], p, s.lookup)
			t = t.add(s.yieldOf(acts))
		}
		s.index.set(p.At, i)
	}
	return t, nil
}

// checkDraws checks the tiles drawn from the core (its size after the deal less its size now) against the draws of
// the dot catalysts the placements fired: no more than those. And a game that ended with the core empty was ended by
// its last placement: the placements before it drew less than the whole core.
func (s *State) checkDraws(t tally) error {
	start := s.opts.coreAtStart()
	drawn, before, all := start-s.coreCount, t.drawBeforeLast, t.draw
	facts := func() map[string]string {
		return map[string]string{"drawn": strconv.Itoa(drawn), "catalystsDraw": strconv.Itoa(all),
			"core": strconv.Itoa(s.coreCount)}
	}
	switch {
	case drawn > all:
		return engine.Invalidf(ReasonDrawsMismatch, "core", facts(),
			"%d tiles were drawn from the core, but the dot catalysts the placements of the board fired draw %d",
			drawn, all)
	case s.end == CoreEmpty && before >= start:
		return engine.Invalidf(ReasonDrawsMismatch, "core", facts(),
			"the placements before the last drew %d tiles, the whole core of %d: the game ended before the last", before,
			start)
	}
	return nil
}

// checkStones checks the stones: owners, micropuls, no two on one micropul, at most 3 each and, under the default
// rule set, only on groups spanning two tiles or more.
func (s *State) checkStones() error {
	var count [MaxPlayers + 1]int
	var seen [NumTiles * 4]int8 // for each micropul (board index x 4 + quadrant, 0 for a big one), its stone's index + 1
	for i, st := range s.stones {
		field := func(sub string) string { return "stones[" + strconv.Itoa(i) + "]" + sub }
		facts := func() map[string]string {
			return map[string]string{"player": strconv.Itoa(int(st.Player)), "x": strconv.Itoa(st.At.X),
				"y": strconv.Itoa(st.At.Y), "quadrant": st.Quadrant.String()}
		}
		if !s.isPlayer(st.Player) {
			return engine.Invalidf(ReasonPlayerOutOfRange, field(".player"), facts(),
				"stone %d belongs to player %d, not a player of this %d-player game", i, st.Player, s.opts.Players)
		}
		if st.Quadrant > BL {
			return engine.Invalidf(ReasonQuadrantOutOfRange, field(".quadrant"), facts(),
				"stone %d is on no quadrant", i)
		}
		j, ok := s.index.at(st.At)
		if !ok || !s.board[j].Quads()[st.Quadrant].IsMicropul() {
			return engine.Invalidf(ReasonStoneNotOnMicropul, field(""), facts(),
				"stone %d at %v %v is not on a micropul", i, st.At, st.Quadrant)
		}
		key := j*4 + int(st.Quadrant)
		if tiles[s.board[j].Tile].Big {
			key = j * 4 // the four quadrants of a big micropul are one micropul
		}
		if k := seen[key]; k > 0 {
			return engine.Invalidf(ReasonStoneDuplicate, field(""), facts(),
				"stones %d and %d are on the same micropul at %v", k-1, i, st.At)
		}
		seen[key] = int8(i + 1)
		if count[st.Player]++; count[st.Player] > StonesPerPlayer {
			return engine.Invalidf(ReasonStonesExceeded, "stones", facts(),
				"player %d has more than %d stones on the board", st.Player, StonesPerPlayer)
		}
	}
	if s.opts.Rules != DefaultRules || len(s.stones) == 0 {
		return nil
	}
	// A group spans two tiles or more when one of its nodes lies on another tile than its root.
	var f forest
	var spans [4 * NumTiles]bool
	s.connect(&f)
	for node := range len(s.board) * 4 {
		if root := f.find(node); root/4 != node/4 {
			spans[root] = true
		}
	}
	for i, st := range s.stones {
		if !spans[f.find(s.stoneNode(st))] {
			return engine.Invalidf(ReasonStoneOnSmallGroup, fmt.Sprintf("stones[%d]", i),
				map[string]string{"x": strconv.Itoa(st.At.X), "y": strconv.Itoa(st.At.Y), "quadrant": st.Quadrant.String()},
				"stone %d is on a group within one tile; the default rule set needs two tiles", i)
		}
	}
	return nil
}

// checkTurn checks the player to move, the extra turns (against t, the tally of the placements' yields) and the end
// of the game.
func (s *State) checkTurn(t tally) error {
	placements := len(s.board) - 1
	facts := func() map[string]string {
		return map[string]string{"toMove": strconv.Itoa(int(s.toMove)), "end": strconv.Itoa(int(s.end)),
			"loser": strconv.Itoa(int(s.loser)), "extraTurnsPending": strconv.Itoa(s.pending),
			"core": strconv.Itoa(s.coreCount)}
	}
	outcome := func(field, format string, args ...any) error {
		return engine.Invalidf(ReasonOutcomeMismatch, field, facts(), format, args...)
	}
	if s.end < NotOver || s.end > Blocked {
		return outcome("end", "end %d is not a way for the game to end", int(s.end))
	}
	over := s.end != NotOver
	switch {
	case over && s.toMove != engine.NoPlayer, !over && !s.isPlayer(s.toMove):
		return engine.Invalidf(ReasonToMoveInvalid, "toMove", facts(),
			"player to move is %d; it must be a player while the game goes on and 0 once it is over", s.toMove)
	case s.pending < 0 || over && s.pending > 0:
		return engine.Invalidf(ReasonExtraTurnsOutOfRange, "extraTurnsPending", facts(),
			"%d extra turns pending, game over: %v", s.pending, over)
	case s.pending > 0 && !s.extraTurn:
		return engine.Invalidf(ReasonExtraTurnsOutOfRange, "extraTurnsPending", facts(),
			"%d extra turns pending outside an extra turn; the first extra turn won is taken at once", s.pending)
	case s.extraTurn && (placements == 0 || over):
		return engine.Invalidf(ReasonExtraTurnsOutOfRange, "extraTurn", facts(),
			"an extra turn with %d placements made, game over: %v", placements, over)
	case s.pending > t.turns:
		return engine.Invalidf(ReasonExtraTurnsOutOfRange, "extraTurnsPending", facts(),
			"%d extra turns pending, but the plus catalysts of the board's placements won %d in all", s.pending,
			t.turns)
	case s.loser != engine.NoPlayer && s.end != OutOfTiles:
		return outcome("loser", "player %d lost but the game did not end by running out of tiles", s.loser)
	case s.end == OutOfTiles && !s.isPlayer(s.loser):
		return outcome("loser", "the game ended by running out of tiles but the loser is %d, not a player", s.loser)
	case s.end == CoreEmpty && s.coreCount > 0, s.end != CoreEmpty && s.coreCount == 0:
		return outcome("end", "the game ended by %v with %d tiles in the core", s.end, s.coreCount)
	}
	for i, seat := range s.seats {
		p, empty := engine.Player(i+1), seat.HandCount+seat.SupplyCount == 0
		if empty != (p == s.loser) {
			return outcome("loser", "player %d has %d tiles in hand and supply; the loser is %d", p,
				seat.HandCount+seat.SupplyCount, s.loser)
		}
	}
	if s.end == Blocked && !s.view && !s.blocked() {
		return outcome("end", "the game is blocked but a player has a legal action")
	}
	return nil
}

// checkSeat returns the PLAYER_OUT_OF_RANGE error of a player or viewer p (the field) who is neither NoPlayer nor a
// player of the game.
func (s *State) checkSeat(p engine.Player, field string) error {
	if p == engine.NoPlayer || s.isPlayer(p) {
		return nil
	}
	return engine.Invalidf(ReasonPlayerOutOfRange, field,
		map[string]string{"player": strconv.Itoa(int(p)), "players": strconv.Itoa(s.opts.Players)},
		"%s %d is not a player of this %d-player game", field, p, s.opts.Players)
}

// isPlayer reports whether p is a player of the game.
func (s *State) isPlayer(p engine.Player) bool { return p >= 1 && int(p) <= s.opts.Players }

// Options returns the options of the game, with every default filled in.
func (s *State) Options() Options { return s.opts }

// Board returns the tiles in play in the order they were placed.
func (s *State) Board() []Placed { return slices.Clone(s.board) }

// TileAt returns the tile at c, if any.
func (s *State) TileAt(c Coord) (Placed, bool) { return s.lookup(c) }

// Stones returns the stones on the board in the order they were placed.
func (s *State) Stones() []Stone { return slices.Clone(s.stones) }

// StonesLeft returns the stones player p has not put down yet.
func (s *State) StonesLeft(p engine.Player) int {
	n := StonesPerPlayer
	for _, st := range s.stones {
		if st.Player == p {
			n--
		}
	}
	return n
}

// Seat returns what player p holds (the zero Seat for a non-player). In a view, hidden lists are nil.
func (s *State) Seat(p engine.Player) Seat {
	if !s.isPlayer(p) {
		return Seat{}
	}
	seat := s.seats[p-1]
	seat.Hand, seat.Supply = slices.Clone(seat.Hand), slices.Clone(seat.Supply)
	return seat
}

// Core returns the core in draw order (nil in a view), and CoreCount its size.
func (s *State) Core() []int { return slices.Clone(s.core) }

// CoreCount returns the number of tiles in the core.
func (s *State) CoreCount() int { return s.coreCount }

// ToMove returns the player to move, or engine.NoPlayer once the game is over.
func (s *State) ToMove() engine.Player { return s.toMove }

// ExtraTurn reports whether the current turn is an extra turn won with a plus catalyst.
func (s *State) ExtraTurn() bool { return s.extraTurn }

// ExtraTurnsPending returns the extra turns the player to move still has after the current turn.
func (s *State) ExtraTurnsPending() int { return s.pending }

// End returns how the game ended, or NotOver.
func (s *State) End() End { return s.end }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.end != NotOver }

// Loser returns the player who lost by running out of tiles, or engine.NoPlayer.
func (s *State) Loser() engine.Player { return s.loser }

// IsView reports whether s is a view, and Viewer whose.
func (s *State) IsView() bool { return s.view }

// Viewer returns the player whose view s is (engine.NoPlayer for a spectator or a full state).
func (s *State) Viewer() engine.Player { return s.viewer }

// clone returns a copy of s with seats of its own, sharing every list with s: a state never changes a list it holds
// (no element, nor beyond its length, which may be within its capacity), so what changes a copy replaces the list
// with a new one instead.
func (s *State) clone() *State {
	c := *s
	c.seats = slices.Clone(s.seats)
	return &c
}

// View returns what viewer may see of s: the board, the stones, every count, and the viewer's own hand; not the
// core, no supply's contents, no other hand (a spectator, engine.NoPlayer, sees no hand). The view is marked as one
// (IsView) and refused by Validate and Apply. A view of a view is the view itself when viewer is the same; a viewer
// that is not a player, or (from a view) a viewer whose hand the view does not hold, gets the spectator's view.
func (s *State) View(viewer engine.Player) *State {
	if s.view && s.viewer == viewer {
		return s
	}
	if !s.isPlayer(viewer) || s.view && viewer != s.viewer {
		viewer = engine.NoPlayer
	}
	v := s.clone()
	v.view, v.viewer, v.core = true, viewer, nil
	for i := range v.seats {
		v.seats[i].Supply = nil
		if engine.Player(i+1) != viewer {
			v.seats[i].Hand = nil
		}
	}
	return v
}
