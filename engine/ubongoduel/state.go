package ubongoduel

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/polyomino"
)

// reasonDeckUnavailable is the Internal error of New or FromProto with no deck while the default deck is missing.
const reasonDeckUnavailable = "DECK_UNAVAILABLE"

// Seat is one player's standing: duels won, rolls of the current duel solved, and whether they gave the duel up.
type Seat struct {
	DuelsWon int
	Solved   int
	GaveUp   bool
}

// State is an Ubongo Duel position, or a view of one (IsView). It is immutable: no method changes it, and Apply
// returns a new State.
type State struct {
	opts      Options
	deck      *Deck
	die       []byte // never changed in place: a roll replaces it
	sheet     int
	faces     []int
	seats     [Players]Seat
	leader    engine.Player
	pending   engine.Player
	pendingAt int64
	last      int64
	winner    engine.Player
	view      bool
	viewer    engine.Player
}

// Position is a state's parts, for NewState.
type Position struct {
	Options Options
	// Deck is the deck the faces refer to; nil means the default deck.
	Deck *Deck
	// DeckVersion must be the deck's version ("" means the deck's own).
	DeckVersion string
	// Die is the die's state, a ChaCha8 generator in its MarshalBinary encoding (48 bytes); empty in a view.
	Die   []byte
	Sheet int
	Faces []int
	// Seats holds one entry per player, in seat order.
	Seats                             []Seat
	Leader, PendingWinner             engine.Player
	PendingReceivedAt, LastReceivedAt int64
	Winner                            engine.Player
	IsView                            bool
	Viewer                            engine.Player
}

// New returns the start of a game on the default deck: sheet 1, no duel won, and the first duel rolled with the
// die's generator (ChaCha8 keyed with SHA-256 of "rulebook ubongo-duel die v2" followed by seed as 8 bytes,
// little-endian). Zero fields of opts take their defaults; an option out of range is an Invalid OPTION_OUT_OF_RANGE
// error whose field is the option's name in UbongoDuelOptions.
func New(opts Options, seed uint64) (*State, error) { return NewWithDeck(opts, nil, seed) }

// NewWithDeck is New on deck d (nil: the default deck). d must have 9 sides per letter with 20 tasks each; it is
// kept, not copied, and must not be changed afterwards.
func NewWithDeck(opts Options, d *Deck, seed uint64) (*State, error) {
	opts = opts.withDefaults()
	if err := opts.check(""); err != nil {
		return nil, err
	}
	d, err := resolveDeck(d)
	if err != nil {
		return nil, err
	}
	s := &State{opts: opts, deck: d, die: newDie(seed), sheet: 1}
	s.startDuel()
	return s, nil
}

// resolveDeck returns d, or the default deck for nil, after checking its dimensions.
func resolveDeck(d *Deck) (*Deck, error) {
	if d == nil {
		d = defaultDeck()
	}
	if d == nil {
		return nil, &engine.Error{Kind: engine.Internal, Reason: reasonDeckUnavailable,
			Message: "the default deck of Ubongo Duel is not available in this build"}
	}
	if err := checkDeck(d); err != nil {
		return nil, &engine.Error{Kind: engine.Internal, Reason: reasonDeckUnavailable, Message: err.Error()}
	}
	return d, nil
}

// checkDeck checks the dimensions of a deck: 9 sides per letter, 20 tasks per side, a shape of at most 64 cells.
func checkDeck(d *Deck) error {
	if d.Version == "" {
		return errors.New("the deck has no version")
	}
	for _, sides := range [][]Side{d.A, d.B} {
		if len(sides) != Sheets {
			return fmt.Errorf("the deck has %d sides of a letter, not %d", len(sides), Sheets)
		}
		for _, side := range sides {
			if len(side.Tasks) != Faces || len(side.Shape) == 0 || len(side.Shape) > MaxCells {
				return fmt.Errorf("side %s has %d tasks and %d cells", side.Name, len(side.Tasks), len(side.Shape))
			}
		}
	}
	return nil
}

// leaderFor returns the player who must solve two rolls in a duel starting at these scores: under the catch-up
// variant, a player on an orange field (3 or 4 duels won) who strictly leads; else NoPlayer.
func leaderFor(opts Options, seats [Players]Seat) engine.Player {
	if !opts.CatchUp {
		return engine.NoPlayer
	}
	a, b := seats[0].DuelsWon, seats[1].DuelsWon
	switch {
	case a > b && (a == 3 || a == 4):
		return 1
	case b > a && (b == 3 || b == 4):
		return 2
	}
	return engine.NoPlayer
}

// startDuel clears the duel's marks and rolls the die for a new duel on the current sheet: twice when a leader must
// solve two rolls.
func (s *State) startDuel() {
	s.leader = leaderFor(s.opts, s.seats)
	rolls := 1
	if s.leader != engine.NoPlayer {
		rolls = 2
	}
	s.die, s.faces = rollDie(s.die, rolls)
	for i := range s.seats {
		s.seats[i].Solved, s.seats[i].GaveUp = 0, false
	}
	s.pending, s.pendingAt = engine.NoPlayer, 0
}

// NewState builds a state (or a view) from its parts and checks conditions that every position reached by play
// satisfies (necessary ones: some unreachable states pass); the lists are copied. Each failed check is an Invalid error whose field is a path in UbongoDuelState; in order:
// OPTION_OUT_OF_RANGE ("options.side", "options.tieWindowMs"); DECK_VERSION_UNKNOWN ("deckVersion");
// PLAYERS_MISMATCH ("players"); PLAYER_OUT_OF_RANGE ("viewer"); VIEW_REVEALS_HIDDEN ("die"); DIE_STATE_INVALID
// ("die"); SCORE_OUT_OF_RANGE ("players[i].duelsWon"); SHEET_OUT_OF_RANGE, SHEET_MISMATCH ("sheet"); FACE_OUT_OF_RANGE
// ("faces[i]"); ROLLS_MISMATCH ("faces" or "leader"); SCORE_OUT_OF_RANGE ("players[i].solved"); PHASE_INVALID
// ("players[i].gaveUp", "pendingWinner", "pendingReceivedAt", "lastReceivedAt", "winner").
//
// What cannot be checked without history is taken on trust: which faces were rolled before, and the receive times of
// earlier moves.
func NewState(p Position) (*State, error) {
	opts := p.Options.withDefaults()
	if err := opts.check("options."); err != nil {
		return nil, err
	}
	d, err := resolveDeck(p.Deck)
	if err != nil {
		return nil, err
	}
	if p.DeckVersion != "" && p.DeckVersion != d.Version {
		return nil, engine.Invalidf(ReasonDeckVersionUnknown, "deckVersion",
			map[string]string{"deckVersion": p.DeckVersion, "known": d.Version},
			"deck version %q is unknown; this release has deck %q", p.DeckVersion, d.Version)
	}
	if len(p.Seats) != Players {
		return nil, engine.Invalidf(ReasonPlayersMismatch, "players",
			map[string]string{"entries": strconv.Itoa(len(p.Seats)), "players": strconv.Itoa(Players)},
			"the state has %d player entries; Ubongo Duel has %d players", len(p.Seats), Players)
	}
	s := &State{opts: opts, deck: d, die: slices.Clone(p.Die), sheet: p.Sheet, faces: slices.Clone(p.Faces),
		leader: p.Leader, pending: p.PendingWinner, pendingAt: p.PendingReceivedAt, last: p.LastReceivedAt,
		winner: p.Winner, view: p.IsView, viewer: p.Viewer}
	copy(s.seats[:], p.Seats)
	if err := s.checkViewer(); err != nil {
		return nil, err
	}
	for _, check := range []func() error{s.checkScores, s.checkRolls, s.checkPhase} {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkViewer checks the viewer, that a view holds no die state and that a full state holds one the die can read.
func (s *State) checkViewer() error {
	switch {
	case !s.view && s.viewer != engine.NoPlayer:
		return engine.Invalidf(ReasonPlayerOutOfRange, "viewer", map[string]string{"viewer": strconv.Itoa(int(s.viewer))},
			"a full state has no viewer, but viewer is %d", s.viewer)
	case s.view && s.viewer != engine.NoPlayer && !isPlayer(s.viewer):
		return engine.Invalidf(ReasonPlayerOutOfRange, "viewer", map[string]string{"viewer": strconv.Itoa(int(s.viewer))},
			"viewer %d is not a player of Ubongo Duel (0 is a spectator)", s.viewer)
	case s.view && len(s.die) != 0:
		return engine.Invalidf(ReasonViewRevealsHidden, "die", map[string]string{"viewer": strconv.Itoa(int(s.viewer))},
			"a view for viewer %d holds the die's state", s.viewer)
	case !s.view:
		if err := checkDie(s.die); err != nil {
			return engine.Invalidf(ReasonDieStateInvalid, "die",
				map[string]string{"length": strconv.Itoa(len(s.die)), "expected": strconv.Itoa(dieStateLen)},
				"the die's state (%d bytes) is %v: a full state needs the %d-byte state of a ChaCha8 generator",
				len(s.die), err, dieStateLen)
		}
	}
	return nil
}

// checkScores checks the duels won, the end of the game and the sheet.
func (s *State) checkScores() error {
	total, fives := 0, 0
	for i, seat := range s.seats {
		if seat.DuelsWon < 0 || seat.DuelsWon > WinningDuels {
			return engine.Invalidf(ReasonScoreOutOfRange, fmt.Sprintf("players[%d].duelsWon", i),
				map[string]string{"player": strconv.Itoa(i + 1), "duelsWon": strconv.Itoa(seat.DuelsWon)},
				"player %d has won %d duels; a game ends at %d", i+1, seat.DuelsWon, WinningDuels)
		}
		total += seat.DuelsWon
		if seat.DuelsWon == WinningDuels {
			fives++
		}
	}
	if fives > 1 {
		return engine.Invalidf(ReasonScoreOutOfRange, "players[1].duelsWon", nil,
			"both players have won %d duels; the game ends when the first does", WinningDuels)
	}
	if s.sheet < 1 || s.sheet > Sheets {
		return engine.Invalidf(ReasonSheetOutOfRange, "sheet", map[string]string{"sheet": strconv.Itoa(s.sheet)},
			"sheet %d does not exist; sheets are 1 to %d", s.sheet, Sheets)
	}
	want := total + 1
	if fives == 1 {
		want = total
	}
	if s.sheet != want {
		return engine.Invalidf(ReasonSheetMismatch, "sheet",
			map[string]string{"sheet": strconv.Itoa(s.sheet), "duelsDecided": strconv.Itoa(total)},
			"sheet %d after %d decided duels; each decided duel moves to the next sheet", s.sheet, total)
	}
	var winner engine.Player
	for i, seat := range s.seats {
		if seat.DuelsWon == WinningDuels {
			winner = engine.Player(i + 1)
		}
	}
	if s.winner != winner {
		return engine.Invalidf(ReasonPhaseInvalid, "winner",
			map[string]string{"winner": strconv.Itoa(int(s.winner)), "expected": strconv.Itoa(int(winner))},
			"the winner is %d but the scores make it %d", s.winner, winner)
	}
	return nil
}

// checkRolls checks the faces, the leader and the tasks solved.
func (s *State) checkRolls() error {
	for i, f := range s.faces {
		if f < 1 || f > Faces {
			return engine.Invalidf(ReasonFaceOutOfRange, fmt.Sprintf("faces[%d]", i),
				map[string]string{"face": strconv.Itoa(f)}, "face %d does not exist; the die has faces 1 to %d", f, Faces)
		}
	}
	leader := leaderFor(s.opts, s.seats)
	rolls := 1
	if leader != engine.NoPlayer {
		rolls = 2
	}
	if s.Over() {
		leader, rolls = engine.NoPlayer, 0
	}
	if s.leader != leader {
		return engine.Invalidf(ReasonRollsMismatch, "leader",
			map[string]string{"leader": strconv.Itoa(int(s.leader)), "expected": strconv.Itoa(int(leader))},
			"the leader is %d but the scores and options make it %d", s.leader, leader)
	}
	if len(s.faces) != rolls {
		return engine.Invalidf(ReasonRollsMismatch, "faces",
			map[string]string{"faces": strconv.Itoa(len(s.faces)), "expected": strconv.Itoa(rolls)},
			"the duel has %d faces rolled; it needs %d", len(s.faces), rolls)
	}
	for i, seat := range s.seats {
		if need := s.rollsOf(engine.Player(i + 1)); seat.Solved < 0 || seat.Solved > len(need) {
			return engine.Invalidf(ReasonScoreOutOfRange, fmt.Sprintf("players[%d].solved", i),
				map[string]string{"player": strconv.Itoa(i + 1), "solved": strconv.Itoa(seat.Solved),
					"rolls": strconv.Itoa(len(need))},
				"player %d has solved %d rolls of a duel in which they solve %d", i+1, seat.Solved, len(need))
		}
	}
	return nil
}

// checkPhase checks the gave-up marks, the pending win and the receive times.
func (s *State) checkPhase() error {
	phase := func(field, format string, args ...any) error {
		return engine.Invalidf(ReasonPhaseInvalid, field,
			map[string]string{"pendingWinner": strconv.Itoa(int(s.pending)),
				"pendingReceivedAt": strconv.FormatInt(s.pendingAt, 10),
				"lastReceivedAt":    strconv.FormatInt(s.last, 10)}, format, args...)
	}
	if s.last < 0 {
		return phase("lastReceivedAt", "the last receive time %d is negative", s.last)
	}
	a, b := s.seats[0], s.seats[1]
	if a.GaveUp && b.GaveUp {
		return phase("players[1].gaveUp", "both players gave up, which rolls the duel again at once")
	}
	if s.pending == engine.NoPlayer {
		if s.pendingAt != 0 {
			return phase("pendingReceivedAt", "a pending receive time with no pending win")
		}
		for i, seat := range s.seats {
			if seat.Solved == len(s.rollsOf(engine.Player(i+1))) && !s.Over() {
				return phase(fmt.Sprintf("players[%d].solved", i),
					"player %d solved the duel's last roll but no win is pending", i+1)
			}
		}
	} else {
		p := s.pending
		switch {
		case !isPlayer(p) || s.Over():
			return phase("pendingWinner", "pending winner %d in a game that is over or of no such player", p)
		case s.opts.TieWindowMS == 0:
			return phase("pendingWinner", "a pending win with no tie window: the first solution wins at once")
		case s.seats[p-1].Solved != len(s.rollsOf(p)) || s.seats[p-1].GaveUp:
			return phase("pendingWinner", "pending winner %d has not solved the duel's last roll", p)
		case s.seats[2-p].GaveUp:
			return phase("pendingWinner", "a pending win against a player who gave up, which wins at once")
		case s.seats[2-p].Solved == len(s.rollsOf(3-p)):
			return phase(fmt.Sprintf("players[%d].solved", 2-p),
				"both players solved the duel's last roll, which is a tie or a won duel at once")
		case s.pendingAt < 0 || s.pendingAt > s.last:
			return phase("pendingReceivedAt", "the pending solution was received at %d, not within 0..%d",
				s.pendingAt, s.last)
		case s.pendingAt != s.last && (3-p != s.leader || s.seats[2-p].Solved == 0):
			// After a pending win, the only move accepted without deciding the duel is a leader's roll 1.
			return phase("lastReceivedAt",
				"a move was accepted at %d after the pending win at %d, yet only a leader's roll 1 leaves it pending",
				s.last, s.pendingAt)
		}
	}
	if s.Over() {
		for i, seat := range s.seats {
			if seat.Solved != 0 || seat.GaveUp {
				return phase(fmt.Sprintf("players[%d]", i), "player %d has marks of a duel after the game's end", i+1)
			}
		}
	}
	return nil
}

// isPlayer reports whether p is player 1 or 2.
func isPlayer(p engine.Player) bool { return p == 1 || p == 2 }

// rollsOf returns the indexes in faces of the rolls player p must solve, in order: both for a leader, the second
// for the other player of a two-roll duel, the only one otherwise; none once the game is over.
func (s *State) rollsOf(p engine.Player) []int {
	switch {
	case len(s.faces) == 0:
		return nil
	case len(s.faces) == 1:
		return []int{0}
	case p == s.leader:
		return []int{0, 1}
	}
	return []int{1}
}

// side returns the sheet side of the current duel.
func (s *State) side() Side {
	if s.opts.Side == SideB {
		return s.deck.B[s.sheet-1]
	}
	return s.deck.A[s.sheet-1]
}

// task returns the task of face f on the current sheet side.
func (s *State) task(f int) Task { return s.side().Tasks[f-1] }

// CurrentTask returns the task player p must solve now, the roll it is (1 or 2) and true; false when p has none (the
// game is over, p gave up or has solved every roll of the duel, or p is no player). The task is a copy: changing it
// changes neither the state nor the deck.
func (s *State) CurrentTask(p engine.Player) (Task, int, bool) {
	if !isPlayer(p) || s.Over() || s.seats[p-1].GaveUp {
		return Task{}, 0, false
	}
	rolls := s.rollsOf(p)
	k := s.seats[p-1].Solved
	if k >= len(rolls) {
		return Task{}, 0, false
	}
	return cloneTask(s.task(s.faces[rolls[k]])), rolls[k] + 1, true
}

// cloneTask returns a deep copy of t, so that a caller cannot change the shared deck through it.
func cloneTask(t Task) Task {
	c := t
	c.Pieces = slices.Clone(t.Pieces)
	c.Witness = make([]Placement, len(t.Witness))
	for i, pl := range t.Witness {
		c.Witness[i] = Placement{Piece: pl.Piece, Cells: slices.Clone(pl.Cells)}
	}
	return c
}

// Tasks returns the tasks of the current duel's faces, in roll order (none once over).
func (s *State) Tasks() []TaskInfo {
	out := make([]TaskInfo, len(s.faces))
	side := s.side()
	for i, f := range s.faces {
		out[i] = TaskInfo{Face: f, SideName: side.Name, Pieces: slices.Clone(side.Tasks[f-1].Pieces),
			Shape: slices.Clone(side.Shape)}
	}
	return out
}

// Options returns the options of the game, with every default filled in.
func (s *State) Options() Options { return s.opts }

// Deck returns the deck the game is played with. It is shared: do not change it.
func (s *State) Deck() *Deck { return s.deck }

// Sheet returns the sheet of the current duel (the last one played once the game is over).
func (s *State) Sheet() int { return s.sheet }

// SideName returns the name of the current sheet side, such as "A3".
func (s *State) SideName() string { return s.side().Name }

// Shape returns the shape of the current sheet side.
func (s *State) Shape() polyomino.Cells { return slices.Clone(s.side().Shape) }

// Faces returns the faces rolled for the current duel: one, or two in a catch-up duel (none once over).
func (s *State) Faces() []int { return slices.Clone(s.faces) }

// Seat returns player p's standing (the zero Seat for a non-player).
func (s *State) Seat(p engine.Player) Seat {
	if !isPlayer(p) {
		return Seat{}
	}
	return s.seats[p-1]
}

// Leader returns the player who must solve two rolls in the current duel, or engine.NoPlayer.
func (s *State) Leader() engine.Player { return s.leader }

// Pending returns the player whose winning solution waits for the tie window to close, and its receive time.
func (s *State) Pending() (engine.Player, int64) { return s.pending, s.pendingAt }

// LastReceivedAt returns the receive time of the last accepted move (0 before any).
func (s *State) LastReceivedAt() int64 { return s.last }

// Winner returns the winner once the game is over, or engine.NoPlayer.
func (s *State) Winner() engine.Player { return s.winner }

// Over reports whether a player has won 5 duels.
func (s *State) Over() bool { return s.winner != engine.NoPlayer }

// IsView reports whether s is a view.
func (s *State) IsView() bool { return s.view }

// Viewer returns the player whose view s is (engine.NoPlayer for a spectator or a full state).
func (s *State) Viewer() engine.Player { return s.viewer }

// clone returns a copy of s that shares no memory with it but the deck, which is never changed.
func (s *State) clone() *State {
	c := *s
	c.faces = slices.Clone(s.faces)
	return &c
}

// View returns what viewer may see of s: everything but the die's state, so that no view tells the next
// roll. Both players and spectators see the same. The view is marked as one and refused by Validate and Apply. A
// viewer that is not a player gets the spectator's view.
func (s *State) View(viewer engine.Player) *State {
	if !isPlayer(viewer) {
		viewer = engine.NoPlayer
	}
	v := s.clone()
	v.view, v.viewer, v.die = true, viewer, nil
	return v
}
