package ubongoduel

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/polyomino"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// edgeBytes returns the deterministic encoding of s, for byte-identity checks.
func edgeBytes(t *testing.T, s *State) []byte {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(s.Proto())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// edgeRefused applies m to s, requires a refusal of kind and reason, and requires s to be byte-identical after it.
func edgeRefused(t *testing.T, s *State, m Move, kind engine.Kind, reason string) {
	t.Helper()
	before := edgeBytes(t, s)
	next, events, err := s.Apply(m)
	if next != nil || events != nil {
		t.Errorf("a refused move returned a state or events")
	}
	enginetest.WantError(t, err, kind, reason, "-")
	if verr := s.Validate(m); !sameError(verr, err) {
		t.Errorf("Validate says %v, Apply %v", verr, err)
	}
	if !bytes.Equal(before, edgeBytes(t, s)) {
		t.Errorf("a refused move changed the state")
	}
}

// sameError reports whether two errors have the same kind and reason.
func sameError(a, b error) bool {
	ea, oka := engine.AsError(a)
	eb, okb := engine.AsError(b)
	return oka == okb && (!oka || (ea.Kind == eb.Kind && ea.Reason == eb.Reason))
}

// line returns n cells in a row: a straight polyomino, which is none of the 21 pieces.
func line(n int) polyomino.Cells {
	out := make(polyomino.Cells, n)
	for i := range out {
		out[i] = polyomino.Cell{X: i}
	}
	return out
}

// notInTask returns a piece letter that is not in the task.
func notInTask(task Task) string {
	for _, p := range polyomino.Ubongo().Pieces {
		if !slices.Contains(task.Pieces, p.Name) {
			return p.Name
		}
	}
	panic("every piece is in the task")
}

// TestEdgeMirroredPlacementAccepted finds a witness that turns a piece over and checks that it is accepted.
func TestEdgeMirroredPlacementAccepted(t *testing.T) {
	for _, side := range []SideChoice{SideA, SideB} {
		found := false
		for face := 1; face <= Faces && !found; face++ {
			s := state(t, position(Options{Side: side}, 0, 0, face))
			task, _, _ := s.CurrentTask(1)
			for _, pl := range task.Witness {
				if !polyomino.Congruent(pieces[pl.Piece].Cells, pl.Cells, false) {
					found = true
				}
			}
			if found {
				n, events := apply(t, s, mustWitness(t, s, 1, 1))
				wantEvents(t, events, "P1 solved", "P1 won the duel", "duel on")
				if n.Score().DuelsWon != [2]int{1, 0} {
					t.Fatalf("a mirrored solution did not score")
				}
			}
		}
		if !found {
			t.Errorf("side %v sheet 1 has no witness with a piece turned over", side)
		}
	}
}

// TestEdgeSubmissionRefusals checks each malformed or wrong submission: its reason, and that it changes nothing.
func TestEdgeSubmissionRefusals(t *testing.T) {
	s := state(t, position(Options{TieWindowMS: 100}, 1, 1, 7))
	task, _, _ := s.CurrentTask(1)
	w := clonePlacements(task.Witness)
	with := func(f func(ps []Placement) []Placement) []Placement { return f(clonePlacements(w)) }
	overlap, ok := overlapping(s.side().Shape, task)
	if !ok {
		t.Fatal("no overlapping placement found")
	}
	huge := make([]Placement, 100_000)
	for i := range huge {
		huge[i] = Placement{Piece: "A"}
	}
	hugeCells := []Placement{{Piece: w[0].Piece, Cells: make(polyomino.Cells, 100_000)}}
	cases := []struct {
		name       string
		placements []Placement
		kind       engine.Kind
		reason     string
	}{
		{"not congruent, right count", with(func(ps []Placement) []Placement {
			ps[0].Cells = line(len(ps[0].Cells))
			return ps
		}), engine.Illegal, ReasonNotCongruent},
		{"another piece's cells", with(func(ps []Placement) []Placement {
			// A piece named by a letter of the task but laid out as the straight line of its size plus one.
			ps[0].Cells = line(len(ps[0].Cells) + 1)
			return ps
		}), engine.Illegal, ReasonNotCongruent},
		{"piece not in task", with(func(ps []Placement) []Placement {
			ps[0].Piece = notInTask(task)
			return ps
		}), engine.Illegal, ReasonWrongPiece},
		{"same piece twice", with(func(ps []Placement) []Placement {
			ps[1].Piece = ps[0].Piece
			return ps
		}), engine.Illegal, ReasonPieceUsedTwice},
		{"same placement twice", with(func(ps []Placement) []Placement { return append(ps, ps[0]) }),
			engine.Illegal, ReasonPieceUsedTwice},
		{"outside the shape", with(func(ps []Placement) []Placement {
			for i := range ps[0].Cells {
				ps[0].Cells[i].X += 100
			}
			return ps
		}), engine.Illegal, ReasonCellOutsideShape},
		{"negative cells", with(func(ps []Placement) []Placement {
			for i := range ps[0].Cells {
				ps[0].Cells[i].Y -= 100
			}
			return ps
		}), engine.Illegal, ReasonCellOutsideShape},
		{"overlap", overlap, engine.Illegal, ReasonOverlap},
		{"duplicate cell, same count", with(func(ps []Placement) []Placement {
			ps[0].Cells[len(ps[0].Cells)-1] = ps[0].Cells[0]
			return ps
		}), engine.Illegal, ReasonNotCongruent},
		{"duplicate cell added", with(func(ps []Placement) []Placement {
			ps[0].Cells = append(ps[0].Cells, ps[0].Cells[0])
			return ps
		}), engine.Illegal, ReasonNotCongruent},
		{"extra placement", with(func(ps []Placement) []Placement {
			return append(ps, Placement{Piece: notInTask(task), Cells: pieces[notInTask(task)].Cells})
		}), engine.Illegal, ReasonWrongPiece},
		{"empty submission", nil, engine.Illegal, ReasonPieceMissing},
		{"empty placements list", []Placement{}, engine.Illegal, ReasonPieceMissing},
		{"one piece short", w[:len(w)-1], engine.Illegal, ReasonPieceMissing},
		{"placement with no cells", with(func(ps []Placement) []Placement {
			ps[0].Cells = nil
			return ps
		}), engine.Illegal, ReasonNotCongruent},
		{"lower-case letter", with(func(ps []Placement) []Placement {
			ps[0].Piece = "a"
			return ps
		}), engine.Invalid, ReasonPieceUnknown},
		{"empty letter", with(func(ps []Placement) []Placement {
			ps[0].Piece = ""
			return ps
		}), engine.Invalid, ReasonPieceUnknown},
		{"100000 placements", huge, engine.Invalid, ReasonSubmissionTooLarge},
		{"100000 cells", hugeCells, engine.Invalid, ReasonSubmissionTooLarge},
		{"22 placements", make([]Placement, MaxPlacements+1), engine.Invalid, ReasonSubmissionTooLarge},
		{"65 cells", []Placement{{Piece: "A", Cells: line(MaxCells + 1)}}, engine.Invalid, ReasonSubmissionTooLarge},
		{"extreme coordinates", with(func(ps []Placement) []Placement {
			ps[0].Cells[0] = polyomino.Cell{X: math.MinInt, Y: math.MaxInt}
			ps[0].Cells[1] = polyomino.Cell{X: math.MaxInt, Y: math.MinInt}
			return ps
		}), engine.Illegal, ReasonNotCongruent},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for p := engine.Player(1); p <= Players; p++ {
				edgeRefused(t, s, Move{Player: p, Action: Submit, ReceivedAt: 5, Placements: c.placements}, c.kind,
					c.reason)
			}
		})
	}
	// The same through the service's envelopes: a typed error, never a panic.
	position, err := Spec.Decode(wrap(s))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases[len(cases)-5 : len(cases)-1] {
		_, _, err := position.Apply(Move{Player: 1, Action: Submit, ReceivedAt: 5, Placements: c.placements}.Proto())
		enginetest.WantError(t, err, engine.Invalid, ReasonSubmissionTooLarge, "move.ubongoDuel.submit.placements")
	}
	// The placements and the cells may come in any order.
	rev := clonePlacements(w)
	slices.Reverse(rev)
	for _, pl := range rev {
		slices.Reverse(pl.Cells)
	}
	apply(t, s, Move{Player: 2, Action: Submit, ReceivedAt: 5, Placements: rev})
}

// TestEdgeFirstSolutionWins checks that the first valid solution wins and moves to the next sheet, that the loser's
// solution of the old task is then refused, and that once a player has five duels every move is GAME_OVER.
func TestEdgeFirstSolutionWins(t *testing.T) {
	s := newGame(t, DefaultOptions(), 99)
	old := mustWitness(t, s, 2, 10)
	s, _ = apply(t, s, mustWitness(t, s, 1, 10))
	if s.Sheet() != 2 || s.Score().DuelsWon != [2]int{1, 0} {
		t.Fatalf("after the first solution: %v", s)
	}
	if _, _, err := s.Apply(old); err == nil {
		t.Fatal("the loser's solution of the old task was accepted")
	} else if e, _ := engine.AsError(err); e.Kind != engine.Illegal {
		t.Fatalf("old solution: %v", err)
	}
	at := int64(20)
	for !s.Over() {
		s, _ = apply(t, s, mustWitness(t, s, 1, at))
		at++
	}
	if s.Winner() != 1 || s.Score().DuelsWon != [2]int{5, 0} || s.Sheet() != 5 {
		t.Fatalf("end: %v", s)
	}
	for p := engine.Player(1); p <= Players; p++ {
		for _, m := range []Move{
			{Player: p, Action: Submit, ReceivedAt: at, Placements: old.Placements},
			{Player: p, Action: Submit, ReceivedAt: at},
			{Player: p, Action: GiveUp, ReceivedAt: at},
			{Player: p, Action: CloseDuel, ReceivedAt: at + 1e12},
			{Player: p, Action: GiveUp, ReceivedAt: 0},
		} {
			edgeRefused(t, s, m, engine.Illegal, ReasonGameOver)
		}
	}
}

// TestEdgeTieWindow checks the window's edges, a pending winner claiming again, and receive times going backwards.
func TestEdgeTieWindow(t *testing.T) {
	const w = 250
	start := state(t, position(Options{TieWindowMS: w}, 2, 1, 3))
	t0 := int64(1_000_000_000)
	pend, _ := apply(t, start, mustWitness(t, start, 2, t0))
	if p, at := pend.Pending(); p != 2 || at != t0 {
		t.Fatalf("pending %d at %d", p, at)
	}
	// The pending winner may not claim again, nor give up.
	edgeRefused(t, pend, mustWitness(t, start, 2, t0+1), engine.Illegal, ReasonAlreadySolved)
	edgeRefused(t, pend, Move{Player: 2, Action: GiveUp, ReceivedAt: t0 + 1}, engine.Illegal, ReasonAlreadySolved)
	// Backwards receive times are refused, whatever the action.
	for _, m := range []Move{mustWitness(t, start, 1, t0-1), {Player: 1, Action: GiveUp, ReceivedAt: t0 - 1},
		{Player: 1, Action: CloseDuel, ReceivedAt: t0 - 1}, {Player: 2, Action: CloseDuel, ReceivedAt: t0 - 1}} {
		edgeRefused(t, pend, m, engine.Illegal, ReasonReceivedAtOutOfOrder)
	}
	edgeRefused(t, pend, Move{Player: 1, Action: GiveUp, ReceivedAt: -1}, engine.Invalid, ReasonReceivedAtNegative)
	// Closing exactly at the edge is refused; one nanosecond later it is accepted.
	edge := t0 + w*ms
	edgeRefused(t, pend, Move{Player: 1, Action: CloseDuel, ReceivedAt: edge}, engine.Illegal, ReasonTieWindowOpen)
	_, events := apply(t, pend, Move{Player: 1, Action: CloseDuel, ReceivedAt: edge + 1})
	wantEvents(t, events, "P2 won the duel on sheet 4: 2-2", "duel on A5")

	cases := []struct {
		name string
		at   int64
		want []string
	}{
		{"same instant", t0, []string{"P1 solved", "re-roll on sheet 4 (tie)", "duel on A4"}},
		{"at the edge", edge, []string{"P1 solved", "re-roll on sheet 4 (tie)", "duel on A4"}},
		{"just after", edge + 1, []string{"P1 solved", "P2 won the duel on sheet 4: 2-2", "duel on A5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, events := apply(t, pend, mustWitness(t, pend, 1, c.at))
			wantEvents(t, events, c.want...)
			if n.LastReceivedAt() != c.at {
				t.Errorf("last receive time %d", n.LastReceivedAt())
			}
			if p, _ := n.Pending(); p != 0 {
				t.Errorf("still pending after the duel was decided")
			}
			edgeRefused(t, n, Move{Player: 1, Action: CloseDuel, ReceivedAt: c.at + 1e12}, engine.Illegal,
				ReasonNoPendingWin)
		})
	}
	// A tie window of 0 never makes a win pending: same-instant solutions are decided by arrival order.
	strict := state(t, position(Options{}, 0, 0, 3))
	n, events := apply(t, strict, mustWitness(t, strict, 2, 5))
	wantEvents(t, events, "P2 solved", "P2 won the duel", "duel on A2")
	if _, _, err := n.Apply(mustWitness(t, strict, 1, 5)); err == nil {
		t.Fatal("a same-instant solution of the decided task was accepted")
	}
}

// TestEdgeGiveUp checks that a single give-up changes neither the sheet nor the faces nor the die, and that a mutual
// give-up rolls again on the same sheet with the die advanced.
func TestEdgeGiveUp(t *testing.T) {
	for _, opts := range []Options{{}, {TieWindowMS: 10}, {CatchUp: true}} {
		faces := []int{4}
		if opts.CatchUp {
			faces = []int{4, 6}
		}
		s := state(t, position(opts, 3, 1, faces...))
		if opts.CatchUp != (len(s.Faces()) == 2) {
			t.Fatalf("faces %v", s.Faces())
		}
		one, events := apply(t, s, Move{Player: 2, Action: GiveUp, ReceivedAt: 3})
		wantEvents(t, events, "P2 gave up")
		if one.Sheet() != s.Sheet() || !slices.Equal(one.Faces(), s.Faces()) || !bytes.Equal(one.die, s.die) {
			t.Fatalf("a single give-up re-rolled: %v", one)
		}
		edgeRefused(t, one, Move{Player: 2, Action: GiveUp, ReceivedAt: 3}, engine.Illegal, ReasonAlreadyGaveUp)
		edgeRefused(t, one, mustWitness(t, s, 2, 3), engine.Illegal, ReasonAlreadyGaveUp)
		both, events := apply(t, one, Move{Player: 1, Action: GiveUp, ReceivedAt: 4})
		wantEvents(t, events, "P1 gave up", "re-roll on sheet 5 (give up)", "duel on A5")
		if both.Sheet() != s.Sheet() || bytes.Equal(both.die, s.die) || both.Score() != s.Score() ||
			both.Seat(1).GaveUp || both.Seat(2).GaveUp || len(both.Faces()) != len(s.Faces()) {
			t.Fatalf("after a mutual give-up: %v", both)
		}
	}
}

// TestEdgeCatchUpRolls checks which scores make a two-roll duel under the variant.
func TestEdgeCatchUpRolls(t *testing.T) {
	cases := []struct {
		a, b   int
		leader engine.Player
	}{
		{3, 0, 1}, {3, 2, 1}, {4, 3, 1}, {4, 0, 1}, {0, 3, 2}, {2, 4, 2}, {3, 4, 2},
		{3, 3, 0}, {4, 4, 0}, {2, 1, 0}, {2, 0, 0}, {0, 0, 0}, {1, 2, 0},
	}
	for _, c := range cases {
		faces := []int{5}
		if c.leader != 0 {
			faces = []int{5, 8}
		}
		s := state(t, position(Options{CatchUp: true}, c.a, c.b, faces...))
		if s.Leader() != c.leader {
			t.Errorf("%d-%d: leader %d, want %d", c.a, c.b, s.Leader(), c.leader)
		}
		// The wrong number of rolls is refused.
		wrong := slices.Clone(faces)
		if len(wrong) == 2 {
			wrong = wrong[:1]
		} else {
			wrong = append(wrong, 9)
		}
		p := position(Options{CatchUp: true}, c.a, c.b, wrong...)
		_, err := NewState(p)
		enginetest.WantError(t, err, engine.Invalid, ReasonRollsMismatch, "faces")
	}
}

// TestEdgeCatchUpOrder checks that the leader must solve roll 1 before roll 2 and that the trailing player may not
// solve roll 1.
func TestEdgeCatchUpOrder(t *testing.T) {
	for _, sc := range [][2]int{{3, 1}, {4, 3}, {1, 3}, {3, 4}} {
		s := state(t, position(Options{CatchUp: true, TieWindowMS: 20}, sc[0], sc[1], 2, 11))
		leader := s.Leader()
		trailer := 3 - leader
		roll1, roll2 := s.task(2), s.task(11)
		if slices.Equal(roll1.Pieces, roll2.Pieces) {
			t.Fatal("faces 2 and 11 have the same pieces")
		}
		edgeRefused(t, s, Move{Player: leader, Action: Submit, ReceivedAt: 1, Placements: roll2.Witness},
			engine.Illegal, ReasonWrongPiece)
		edgeRefused(t, s, Move{Player: trailer, Action: Submit, ReceivedAt: 1, Placements: roll1.Witness},
			engine.Illegal, ReasonWrongPiece)
		n, events := apply(t, s, Move{Player: leader, Action: Submit, ReceivedAt: 1, Placements: roll1.Witness})
		wantEvents(t, events, "P")
		if n.Score() != s.Score() || n.Seat(leader).Solved != 1 {
			t.Fatalf("roll 1: %v", n)
		}
		edgeRefused(t, n, Move{Player: leader, Action: Submit, ReceivedAt: 2, Placements: roll1.Witness},
			engine.Illegal, ReasonWrongPiece)
		n, events = apply(t, n, Move{Player: leader, Action: Submit, ReceivedAt: 2, Placements: roll2.Witness})
		if !events[0].(Solved).Pending || events[0].(Solved).Roll != 2 {
			t.Fatalf("leader's roll 2: %v", events)
		}
		// The trailing player ties roll 2 within the window: both dice again, the leader starts over.
		n, events = apply(t, n, Move{Player: trailer, Action: Submit, ReceivedAt: 3, Placements: roll2.Witness})
		wantEvents(t, events, "P", "re-roll", "duel on")
		if len(n.Faces()) != 2 || n.Seat(leader).Solved != 0 || n.Leader() != leader {
			t.Fatalf("after a tie: %v", n)
		}
	}
	// Two equal faces: the leader solves the same task twice.
	s := state(t, position(Options{CatchUp: true}, 3, 0, 6, 6))
	s, _ = apply(t, s, mustWitness(t, s, 1, 1))
	if s.Seat(1).Solved != 1 || s.Score().DuelsWon != [2]int{3, 0} {
		t.Fatalf("roll 1 of two equal faces: %v", s)
	}
	s, events := apply(t, s, mustWitness(t, s, 1, 2))
	wantEvents(t, events, "P1 solved roll 2", "P1 won the duel on sheet 4: 4-0", "duel on A5")
}

// TestEdgeDieHidden checks along playouts that no view holds the die's state, that redealing the die (any random
// state with the same public facts) gives a valid state with the same views, and that such states can roll
// differently: the view does not tell the next faces.
func TestEdgeDieHidden(t *testing.T) {
	differ := 0
	for seed := range uint64(12) {
		s := newGame(t, Options{TieWindowMS: 30, CatchUp: seed%2 == 0, Side: SideChoice(1 + seed%3%2)}, seed)
		for ply := 0; !s.Over() && ply < 150; ply++ {
			for viewer := engine.Player(0); viewer <= Players; viewer++ {
				vm := s.View(viewer).Proto()
				if len(vm.GetDie()) != 0 {
					t.Fatal("a view holds the die's state")
				}
				for _, r := range [][]byte{newDie(0), newDie(math.MaxUint64), dieAtWord(newDie(seed), 124),
					otherKey(s.die)} {
					full := proto.Clone(vm).(*rulebookv1.UbongoDuelState)
					full.IsView, full.Viewer, full.Die = false, 0, r
					alt, err := FromProto(full)
					if err != nil {
						t.Fatalf("redealt state refused: %v", err)
					}
					if !proto.Equal(alt.View(viewer).Proto(), vm) {
						t.Fatal("a redealt state has another view")
					}
				}
			}
			other := s.clone()
			other.die = otherKey(s.die)
			// Both players give up in both states: a re-roll, whose faces the view must not fix.
			x, _, ex := s.Apply(Move{Player: 1, Action: GiveUp, ReceivedAt: s.last})
			if ex == nil {
				if y, _, ey := x.Apply(Move{Player: 2, Action: GiveUp, ReceivedAt: s.last}); ey == nil {
					x2, _, _ := other.Apply(Move{Player: 1, Action: GiveUp, ReceivedAt: s.last})
					y2, _, _ := x2.Apply(Move{Player: 2, Action: GiveUp, ReceivedAt: s.last})
					if !slices.Equal(y.Faces(), y2.Faces()) {
						differ++
					}
				}
			}
			moves := playable(s)
			s, _ = apply(t, s, moves[(ply*5+int(seed))%len(moves)])
		}
	}
	if differ == 0 {
		t.Error("states with equal views always roll the same next faces")
	}
}

// TestEdgeFromProtoHostile feeds FromProto hostile messages: each is refused with a typed Invalid error.
func TestEdgeFromProtoHostile(t *testing.T) {
	base := state(t, position(Options{TieWindowMS: 10, CatchUp: true}, 3, 1, 4, 6))
	good := base.Proto()
	if _, err := FromProto(good); err != nil {
		t.Fatal(err)
	}
	many := func(n int) []*rulebookv1.UbongoDuelPlayer {
		out := make([]*rulebookv1.UbongoDuelPlayer, n)
		for i := range out {
			out[i] = &rulebookv1.UbongoDuelPlayer{}
		}
		return out
	}
	cases := []struct {
		name   string
		edit   func(m *rulebookv1.UbongoDuelState)
		reason string
		field  string
	}{
		{"100000 players", func(m *rulebookv1.UbongoDuelState) { m.Players = many(100_000) }, ReasonPlayersMismatch, "players"},
		{"no players", func(m *rulebookv1.UbongoDuelState) { m.Players = nil }, ReasonPlayersMismatch, "players"},
		{"100000 faces", func(m *rulebookv1.UbongoDuelState) { m.Faces = make([]uint32, 100_000) }, ReasonRollsMismatch, "faces"},
		{"100000 tasks", func(m *rulebookv1.UbongoDuelState) {
			m.Tasks = make([]*rulebookv1.UbongoDuelTask, 100_000)
		}, ReasonTaskMismatch, "tasks"},
		{"huge shape in a task", func(m *rulebookv1.UbongoDuelState) {
			m.Tasks[0].Shape = make([]*rulebookv1.UbongoDuelCell, 100_000)
		}, ReasonTaskMismatch, "tasks"},
		{"huge pieces in a task", func(m *rulebookv1.UbongoDuelState) {
			m.Tasks[0].Pieces = make([]string, 100_000)
		}, ReasonTaskMismatch, "tasks"},
		{"rules version", func(m *rulebookv1.UbongoDuelState) { m.RulesVersion = math.MaxUint32 }, ReasonRulesVersionUnsupported, "rulesVersion"},
		{"side", func(m *rulebookv1.UbongoDuelState) { m.Options.Side = 99 }, ReasonOptionOutOfRange, "options.side"},
		{"tie window", func(m *rulebookv1.UbongoDuelState) { m.Options.TieWindowMs = math.MaxUint32 }, ReasonOptionOutOfRange, "options.tieWindowMs"},
		{"deck version", func(m *rulebookv1.UbongoDuelState) { m.DeckVersion = "999" }, ReasonDeckVersionUnknown, "deckVersion"},
		{"sheet max", func(m *rulebookv1.UbongoDuelState) { m.Sheet = math.MaxUint32 }, ReasonSheetOutOfRange, "sheet"},
		{"sheet 0", func(m *rulebookv1.UbongoDuelState) { m.Sheet = 0 }, ReasonSheetOutOfRange, "sheet"},
		{"duels won max", func(m *rulebookv1.UbongoDuelState) { m.Players[0].DuelsWon = math.MaxUint32 }, ReasonScoreOutOfRange, "players[0].duelsWon"},
		{"solved max", func(m *rulebookv1.UbongoDuelState) { m.Players[1].Solved = math.MaxUint32 }, ReasonScoreOutOfRange, "players[1].solved"},
		{"face 0", func(m *rulebookv1.UbongoDuelState) { m.Faces[0] = 0 }, ReasonFaceOutOfRange, "faces[0]"},
		{"face max", func(m *rulebookv1.UbongoDuelState) { m.Faces[1] = math.MaxUint32 }, ReasonFaceOutOfRange, "faces[1]"},
		{"leader -1", func(m *rulebookv1.UbongoDuelState) { m.Leader = -1 }, ReasonRollsMismatch, "leader"},
		{"leader max", func(m *rulebookv1.UbongoDuelState) { m.Leader = math.MaxInt32 }, ReasonRollsMismatch, "leader"},
		{"pending winner 3", func(m *rulebookv1.UbongoDuelState) { m.PendingWinner = 3 }, ReasonPhaseInvalid, "pendingWinner"},
		{"pending winner min", func(m *rulebookv1.UbongoDuelState) { m.PendingWinner = math.MinInt32 }, ReasonPhaseInvalid, "pendingWinner"},
		{"pending time alone", func(m *rulebookv1.UbongoDuelState) { m.PendingReceivedAt = math.MinInt64 }, ReasonPhaseInvalid, "pendingReceivedAt"},
		{"last time negative", func(m *rulebookv1.UbongoDuelState) { m.LastReceivedAt = math.MinInt64 }, ReasonPhaseInvalid, "lastReceivedAt"},
		{"winner", func(m *rulebookv1.UbongoDuelState) { m.Winner = 1 }, ReasonPhaseInvalid, "winner"},
		{"winner max", func(m *rulebookv1.UbongoDuelState) { m.Winner = math.MaxInt32 }, ReasonPhaseInvalid, "winner"},
		{"viewer on full state", func(m *rulebookv1.UbongoDuelState) { m.Viewer = 1 }, ReasonPlayerOutOfRange, "viewer"},
		{"rules version 1", func(m *rulebookv1.UbongoDuelState) { m.RulesVersion = 1 }, ReasonRulesVersionUnsupported, "rulesVersion"},
		{"viewer 9", func(m *rulebookv1.UbongoDuelState) { m.IsView, m.Viewer, m.Die = true, 9, nil }, ReasonPlayerOutOfRange, "viewer"},
		{"view with die", func(m *rulebookv1.UbongoDuelState) { m.IsView = true }, ReasonViewRevealsHidden, "die"},
		{"view with 1 byte of die", func(m *rulebookv1.UbongoDuelState) { m.IsView, m.Die = true, []byte{0} }, ReasonViewRevealsHidden, "die"},
		{"no die", func(m *rulebookv1.UbongoDuelState) { m.Die = nil }, ReasonDieStateInvalid, "die"},
		{"die cut short", func(m *rulebookv1.UbongoDuelState) { m.Die = m.Die[:47] }, ReasonDieStateInvalid, "die"},
		{"die extended", func(m *rulebookv1.UbongoDuelState) { m.Die = append(m.Die, 0) }, ReasonDieStateInvalid, "die"},
		{"die of 1 MiB", func(m *rulebookv1.UbongoDuelState) { m.Die = make([]byte, 1<<20) }, ReasonDieStateInvalid, "die"},
		{"die of 48 zero bytes", func(m *rulebookv1.UbongoDuelState) { m.Die = make([]byte, 48) }, ReasonDieStateInvalid, "die"},
		{"die with another prefix", func(m *rulebookv1.UbongoDuelState) { m.Die[0] = 'C' }, ReasonDieStateInvalid, "die"},
		{"die past its re-key", func(m *rulebookv1.UbongoDuelState) { m.Die = dieAtWord(m.Die, 125) }, ReasonDieStateInvalid, "die"},
		{"die used count max", func(m *rulebookv1.UbongoDuelState) { m.Die = dieAtWord(m.Die, math.MaxUint64) }, ReasonDieStateInvalid, "die"},
		{"die with a Read buffer", func(m *rulebookv1.UbongoDuelState) { m.Die = withReadBuffer(m.Die) }, ReasonDieStateInvalid, "die"},
		{"both gave up", func(m *rulebookv1.UbongoDuelState) { m.Players[0].GaveUp, m.Players[1].GaveUp = true, true }, ReasonPhaseInvalid, "players[1].gaveUp"},
		{"trailer solved, no pending", func(m *rulebookv1.UbongoDuelState) { m.Players[1].Solved = 1 }, ReasonPhaseInvalid, "players[1].solved"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := proto.Clone(good).(*rulebookv1.UbongoDuelState)
			c.edit(m)
			s, err := FromProto(m)
			if s != nil {
				t.Errorf("a hostile state was accepted")
			}
			enginetest.WantError(t, err, engine.Invalid, c.reason, c.field)
			env := &rulebookv1.GameState{Game: &rulebookv1.GameState_UbongoDuel{UbongoDuel: m}}
			_, err = Spec.Decode(env)
			enginetest.WantError(t, err, engine.Invalid, c.reason, "state.ubongoDuel."+c.field)
		})
	}
	if _, err := FromProto(nil); err == nil {
		t.Error("an empty message was accepted")
	}
}

// TestEdgeCurrentTaskIsACopy checks that changing the task CurrentTask returns changes neither the state nor the
// shared deck.
func TestEdgeCurrentTaskIsACopy(t *testing.T) {
	s := state(t, position(Options{}, 0, 0, 1))
	before := edgeBytes(t, s)
	task, _, _ := s.CurrentTask(1)
	want := clonePlacements(task.Witness)
	task.Pieces[0] = "Z"
	task.Witness[0].Piece = "Z"
	task.Witness[0].Cells[0] = polyomino.Cell{X: 99, Y: 99}
	again, _, _ := s.CurrentTask(1)
	if again.Pieces[0] == "Z" || again.Witness[0].Piece == "Z" || again.Witness[0].Cells[0] != want[0].Cells[0] {
		t.Fatal("changing the returned task changed the deck")
	}
	if !bytes.Equal(before, edgeBytes(t, s)) {
		t.Fatal("changing the returned task changed the state")
	}
}

// TestEdgePendingReceiveTimes checks the receive times of a pending win that NewState accepts: after a pending win
// only a leader's solution of roll 1 is accepted without deciding the duel, so the last receive time may pass the
// pending one only then.
func TestEdgePendingReceiveTimes(t *testing.T) {
	pending := func(opts Options, a, b int, faces []int, solved [2]int, p engine.Player, at, last int64) Position {
		pos := position(opts, a, b, faces...)
		pos.Seats[0].Solved, pos.Seats[1].Solved = solved[0], solved[1]
		pos.PendingWinner, pos.PendingReceivedAt, pos.LastReceivedAt = p, at, last
		return pos
	}
	one := Options{TieWindowMS: 100}
	two := Options{TieWindowMS: 100, CatchUp: true}
	cases := []struct {
		name string
		pos  Position
		ok   bool
	}{
		{"one roll, same time", pending(one, 1, 0, []int{3}, [2]int{1, 0}, 1, 10, 10), true},
		{"one roll, later last", pending(one, 1, 0, []int{3}, [2]int{1, 0}, 1, 10, 20), false},
		{"one roll, later last after the window", pending(one, 1, 0, []int{3}, [2]int{0, 1}, 2, 10, 10+200*ms), false},
		{"trailer pending, leader solved roll 1 since", pending(two, 3, 1, []int{3, 4}, [2]int{1, 1}, 2, 10, 20), true},
		{"trailer pending, leader on roll 1", pending(two, 3, 1, []int{3, 4}, [2]int{0, 1}, 2, 10, 20), false},
		{"leader pending, later last", pending(two, 3, 1, []int{3, 4}, [2]int{2, 0}, 1, 10, 20), false},
		{"leader pending, same time", pending(two, 3, 1, []int{3, 4}, [2]int{2, 0}, 1, 10, 10), true},
	}
	for _, c := range cases {
		_, err := NewState(c.pos)
		if c.ok && err != nil {
			t.Errorf("%s: refused: %v", c.name, err)
		}
		if !c.ok {
			if err == nil {
				t.Errorf("%s: an unreachable state was accepted", c.name)
				continue
			}
			enginetest.WantError(t, err, engine.Invalid, ReasonPhaseInvalid, "lastReceivedAt")
		}
	}
	// The accepted shape is reached by play.
	s := state(t, position(two, 3, 1, 3, 4))
	s, _ = apply(t, s, mustWitness(t, s, 2, 10))
	s, _ = apply(t, s, mustWitness(t, s, 1, 20))
	if p, at := s.Pending(); p != 2 || at != 10 || s.LastReceivedAt() != 20 {
		t.Fatalf("pending %d at %d, last %d", p, at, s.LastReceivedAt())
	}
	if _, err := FromProto(s.Proto()); err != nil {
		t.Fatal(err)
	}
}
