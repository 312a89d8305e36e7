package ubongoduel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/polyomino"
)

// Action is the kind of a move.
type Action int

// The actions. A Move with no action (0) is refused with MOVE_EMPTY.
const (
	// Submit claims a solution of the mover's current task.
	Submit Action = iota + 1
	// GiveUp gives up the current duel.
	GiveUp
	// CloseDuel closes the tie window of a pending win once it has passed.
	CloseDuel
)

// Move is one action of Player, received by the service at ReceivedAt (unix nanoseconds). Placements count only for
// Submit.
type Move struct {
	Player     engine.Player
	Action     Action
	ReceivedAt int64
	Placements []Placement
}

// String returns the move in the notation of ParseMove after its player and its receive time, such as
// "P1 @5: A a1 b1 c1; B d1 d2" or "P2 @7: giveup".
func (m Move) String() string {
	return fmt.Sprintf("P%d @%d: %s", m.Player, m.ReceivedAt, m.Notation())
}

// pieces maps each Ubongo piece letter to its definition. It is built once and never changed.
var pieces = func() map[string]polyomino.Piece {
	m := map[string]polyomino.Piece{}
	for _, p := range polyomino.Ubongo().Pieces {
		m[p.Name] = p
	}
	return m
}()

// Legal returns the enumerable legal moves of p, stamped with the earliest receive time at which each is legal: give
// up (at the state's last receive time) while p still solves the duel, or concedes a win pending for the other
// player; then close the duel (at the first instant after the tie window) while a win is pending. Solutions are not
// listed: there are too many ways to write one (any order of placements and cells) and finding one is the game
// itself. None for a view, a non-player, or once the game is over.
func (s *State) Legal(p engine.Player) []Move {
	if s.view || !isPlayer(p) || s.Over() {
		return nil
	}
	var moves []Move
	seat := s.seats[p-1]
	if p != s.pending && !seat.GaveUp {
		moves = append(moves, Move{Player: p, Action: GiveUp, ReceivedAt: s.last})
	}
	if s.pending != engine.NoPlayer {
		moves = append(moves, Move{Player: p, Action: CloseDuel, ReceivedAt: s.closeTime()})
	}
	return moves
}

// closeTime returns the first receive time at which a pending win may be closed (the maximum int64 if the window
// would end after it).
func (s *State) closeTime() int64 {
	w := s.opts.window()
	if s.pendingAt > (1<<63-1)-w-1 {
		return 1<<63 - 1
	}
	return max(s.pendingAt+w+1, s.last)
}

// Validate returns the error Apply would return for m, or nil. The checks, in order:
//
//   - STATE_IS_VIEW (Invalid, field "isView"): s is a view;
//   - PLAYER_OUT_OF_RANGE (Invalid, field "player"): m.Player is not 1 or 2;
//   - MOVE_EMPTY (Invalid, field "ubongoDuel"): no action;
//   - RECEIVED_AT_NEGATIVE (Invalid, field "ubongoDuel.receivedAt");
//   - a submission: SUBMISSION_TOO_LARGE ("ubongoDuel.submit.placements"), PIECE_UNKNOWN
//     ("ubongoDuel.submit.placements[i].piece");
//   - GAME_OVER, RECEIVED_AT_OUT_OF_ORDER (Illegal);
//   - a submission or a give-up: ALREADY_SOLVED, ALREADY_GAVE_UP (Illegal);
//   - a submission, placement by placement: WRONG_PIECE, PIECE_USED_TWICE, NOT_CONGRUENT, then cell by cell
//     CELL_OUTSIDE_SHAPE, OVERLAP; then PIECE_MISSING, NOT_COVERED (Illegal);
//   - closing the duel: NO_PENDING_WIN, TIE_WINDOW_OPEN (Illegal).
func (s *State) Validate(m Move) error {
	if err := s.checkShape(m); err != nil {
		return err
	}
	if s.Over() {
		return engine.Illegalf(ReasonGameOver, map[string]string{"winner": strconv.Itoa(int(s.winner))},
			"the game is over: player %d won", s.winner)
	}
	if m.ReceivedAt < s.last {
		return engine.Illegalf(ReasonReceivedAtOutOfOrder,
			map[string]string{"receivedAt": strconv.FormatInt(m.ReceivedAt, 10),
				"lastReceivedAt": strconv.FormatInt(s.last, 10)},
			"the move was received at %d, before the last accepted move (%d)", m.ReceivedAt, s.last)
	}
	p := m.Player
	switch m.Action {
	case Submit, GiveUp:
		if p == s.pending {
			return engine.Illegalf(ReasonAlreadySolved, map[string]string{"player": strconv.Itoa(int(p))},
				"player %d has solved this duel; the win waits for the tie window to close", p)
		}
		if s.seats[p-1].GaveUp {
			return engine.Illegalf(ReasonAlreadyGaveUp, map[string]string{"player": strconv.Itoa(int(p))},
				"player %d gave up this duel", p)
		}
		if m.Action == Submit {
			task, _, _ := s.CurrentTask(p)
			return checkSolution(s.side().Shape, task, m.Placements)
		}
	case CloseDuel:
		if s.pending == engine.NoPlayer {
			return engine.Illegalf(ReasonNoPendingWin, nil, "no win is pending: there is no duel to close")
		}
		if m.ReceivedAt-s.pendingAt <= s.opts.window() {
			return engine.Illegalf(ReasonTieWindowOpen,
				map[string]string{"receivedAt": strconv.FormatInt(m.ReceivedAt, 10),
					"closesAfter": strconv.FormatInt(s.pendingAt+s.opts.window(), 10)},
				"the tie window is open until %d; the duel cannot be closed at %d", s.pendingAt+s.opts.window(),
				m.ReceivedAt)
		}
	}
	return nil
}

// checkShape returns the Invalid error of a move that no state could accept, or of any move on a view.
func (s *State) checkShape(m Move) error {
	switch {
	case s.view:
		return engine.Invalidf(ReasonStateIsView, "isView", map[string]string{"viewer": strconv.Itoa(int(s.viewer))},
			"the state is a view for viewer %d; moves need the full state", s.viewer)
	case !isPlayer(m.Player):
		return engine.Invalidf(ReasonPlayerOutOfRange, "player", map[string]string{"player": strconv.Itoa(int(m.Player))},
			"player %d is not a player of Ubongo Duel (1 or 2)", m.Player)
	case m.Action < Submit || m.Action > CloseDuel:
		return engine.Invalidf(ReasonMoveEmpty, "ubongoDuel", nil, "the move names no action")
	case m.ReceivedAt < 0:
		return engine.Invalidf(ReasonReceivedAtNegative, "ubongoDuel.receivedAt",
			map[string]string{"receivedAt": strconv.FormatInt(m.ReceivedAt, 10)},
			"the receive time %d is negative", m.ReceivedAt)
	}
	if m.Action != Submit {
		return nil
	}
	cells := 0
	for _, pl := range m.Placements {
		cells += len(pl.Cells)
	}
	if len(m.Placements) > MaxPlacements || cells > MaxCells {
		return engine.Invalidf(ReasonSubmissionTooLarge, "ubongoDuel.submit.placements",
			map[string]string{"placements": strconv.Itoa(len(m.Placements)), "cells": strconv.Itoa(cells)},
			"the submission has %d placements and %d cells; at most %d and %d", len(m.Placements), cells,
			MaxPlacements, MaxCells)
	}
	for i, pl := range m.Placements {
		if _, ok := pieces[pl.Piece]; !ok {
			return engine.Invalidf(ReasonPieceUnknown, fmt.Sprintf("ubongoDuel.submit.placements[%d].piece", i),
				map[string]string{"piece": pl.Piece, "placement": strconv.Itoa(i)},
				"placement %d names piece %q; the pieces are A to U", i, pl.Piece)
		}
	}
	return nil
}

// checkSolution returns the Illegal error of the first fault of placements as a solution of task on shape, or nil:
// placement by placement, a piece not in the task, a piece placed twice, cells that are not the piece, then cell by
// cell a cell outside the shape or already covered; then a piece of the task not placed, and a cell not covered.
func checkSolution(shape polyomino.Cells, task Task, placements []Placement) error {
	inShape := make(map[polyomino.Cell]bool, len(shape))
	for _, c := range shape {
		inShape[c] = true
	}
	covered := make(map[polyomino.Cell]int, len(shape))
	used := make(map[string]int, len(task.Pieces))
	for i, pl := range placements {
		facts := func() map[string]string {
			return map[string]string{"piece": pl.Piece, "placement": strconv.Itoa(i)}
		}
		if !slices.Contains(task.Pieces, pl.Piece) {
			f := facts()
			f["task"] = strings.Join(task.Pieces, "")
			return engine.Illegalf(ReasonWrongPiece, f, "piece %s of placement %d is not in the task (%s)", pl.Piece, i,
				strings.Join(task.Pieces, " "))
		}
		if j, dup := used[pl.Piece]; dup {
			f := facts()
			f["first"] = strconv.Itoa(j)
			return engine.Illegalf(ReasonPieceUsedTwice, f, "piece %s is placed by placements %d and %d", pl.Piece, j, i)
		}
		used[pl.Piece] = i
		if !polyomino.Congruent(pieces[pl.Piece].Cells, pl.Cells, true) {
			f := facts()
			f["cells"] = pl.Cells.String()
			return engine.Illegalf(ReasonNotCongruent, f, "the cells %v of placement %d are not piece %s, turned or not",
				pl.Cells, i, pl.Piece)
		}
		for _, c := range pl.Cells {
			f := facts()
			f["x"], f["y"] = strconv.Itoa(c.X), strconv.Itoa(c.Y)
			if !inShape[c] {
				return engine.Illegalf(ReasonCellOutsideShape, f, "piece %s covers %v, outside the shape", pl.Piece, c)
			}
			if j, ok := covered[c]; ok {
				f["other"] = placements[j].Piece
				return engine.Illegalf(ReasonOverlap, f, "pieces %s and %s both cover %v", placements[j].Piece, pl.Piece, c)
			}
			covered[c] = i
		}
	}
	var missing []string
	for _, name := range task.Pieces {
		if _, ok := used[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return engine.Illegalf(ReasonPieceMissing,
			map[string]string{"missing": strings.Join(missing, ""), "uncovered": strconv.Itoa(len(shape) - len(covered))},
			"pieces %s of the task are not placed", strings.Join(missing, " "))
	}
	for _, c := range shape {
		if _, ok := covered[c]; !ok {
			return engine.Illegalf(ReasonNotCovered,
				map[string]string{"x": strconv.Itoa(c.X), "y": strconv.Itoa(c.Y),
					"uncovered": strconv.Itoa(len(shape) - len(covered))},
				"cell %v of the shape is not covered", c)
		}
	}
	return nil
}

// Apply plays m and returns the new state and the events of the move; s is not changed. A refused move changes
// nothing and returns the error Validate returns.
//
// A valid solution of the mover's last roll wins the duel at once when the tie window is 0 or the other player gave
// up; otherwise it opens a pending win, which the other player's valid solution received within the window turns
// into a tie (the duel is rolled again on the same sheet), and which a later valid solution of the other player, a
// give-up of the other player, or a close-duel move after the window turns into a win. A leader's solution of roll 1
// scores nothing. When both players have given up, the duel is rolled again on the same sheet. A won duel moves to
// the next sheet and rolls again, unless the winner has 5 duels and the game is over.
func (s *State) Apply(m Move) (*State, []Event, error) {
	if err := s.Validate(m); err != nil {
		return nil, nil, err
	}
	n := s.clone()
	n.last = m.ReceivedAt
	p := m.Player
	other := 3 - p
	var events []Event
	switch m.Action {
	case Submit:
		rolls := n.rollsOf(p)
		k := n.seats[p-1].Solved
		solved := Solved{Player: p, Roll: rolls[k] + 1, Face: n.faces[rolls[k]], ReceivedAt: m.ReceivedAt}
		n.seats[p-1].Solved++
		switch {
		case k+1 < len(rolls):
			events = append(events, solved)
		case n.pending == other && m.ReceivedAt-n.pendingAt <= n.opts.window():
			events = append(events, solved, Rerolled{Reason: RerollTie, Sheet: n.sheet})
			events = append(events, n.reroll())
		case n.pending == other:
			events = append(events, solved)
			events = append(events, n.win(other)...)
		case n.opts.TieWindowMS == 0 || n.seats[other-1].GaveUp:
			events = append(events, solved)
			events = append(events, n.win(p)...)
		default:
			solved.Pending = true
			n.pending, n.pendingAt = p, m.ReceivedAt
			events = append(events, solved)
		}
	case GiveUp:
		n.seats[p-1].GaveUp = true
		events = append(events, GaveUp{Player: p})
		switch {
		case n.pending == other:
			events = append(events, n.win(other)...)
		case n.seats[other-1].GaveUp:
			events = append(events, Rerolled{Reason: RerollGiveUp, Sheet: n.sheet}, n.reroll())
		}
	case CloseDuel:
		events = append(events, n.win(n.pending)...)
	}
	return n, events, nil
}

// reroll rolls the duel again on the same sheet and returns its DuelStarted event.
func (s *State) reroll() Event {
	s.startDuel()
	return s.started()
}

// started returns the DuelStarted event of the current duel.
func (s *State) started() DuelStarted {
	return DuelStarted{Sheet: s.sheet, Side: s.side().Name, Faces: slices.Clone(s.faces), Tasks: s.Tasks(),
		Leader: s.leader}
}

// win gives the duel to p and returns its events: DuelWon, then GameOver or the next duel's DuelStarted.
func (s *State) win(p engine.Player) []Event {
	s.seats[p-1].DuelsWon++
	events := []Event{DuelWon{Player: p, Sheet: s.sheet,
		DuelsWon: [Players]int{s.seats[0].DuelsWon, s.seats[1].DuelsWon}}}
	if s.seats[p-1].DuelsWon == WinningDuels {
		s.winner, s.faces, s.leader, s.pending, s.pendingAt = p, nil, engine.NoPlayer, engine.NoPlayer, 0
		for i := range s.seats {
			s.seats[i].Solved, s.seats[i].GaveUp = 0, false
		}
		return append(events, GameOver{Winner: p})
	}
	s.sheet++
	s.startDuel()
	return append(events, s.started())
}
