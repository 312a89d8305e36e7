package ubongoduel

import (
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/polyomino"
	"github.com/rulebook/rulebook/engine/ubongoduel/deck"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// provoked collects the reasons the table tests provoke, for TestEveryReasonTested.
var provoked enginetest.Provoked

// clonePlacements returns a deep copy of ps.
func clonePlacements(ps []Placement) []Placement {
	out := make([]Placement, len(ps))
	for i, p := range ps {
		out[i] = Placement{Piece: p.Piece, Cells: slices.Clone(p.Cells)}
	}
	return out
}

// overlapping returns the witness of task with its second placement moved (turned or not) to lie inside shape and
// cover a cell of the first placement, or false if no such move exists.
func overlapping(shape polyomino.Cells, task Task) ([]Placement, bool) {
	in := map[polyomino.Cell]bool{}
	for _, c := range shape {
		in[c] = true
	}
	first := map[polyomino.Cell]bool{}
	for _, c := range task.Witness[0].Cells {
		first[c] = true
	}
	w, h := shape.Bounds()
	for _, o := range polyomino.Orientations(task.Witness[1].Cells, true) {
		for dy := -h; dy <= h; dy++ {
			for dx := -w; dx <= w; dx++ {
				moved, inside, hits := make(polyomino.Cells, len(o)), true, false
				for i, c := range o {
					moved[i] = polyomino.Cell{X: c.X + dx, Y: c.Y + dy}
					inside = inside && in[moved[i]]
					hits = hits || first[moved[i]]
				}
				if inside && hits {
					out := clonePlacements(task.Witness)
					out[1].Cells = moved
					return out, true
				}
			}
		}
	}
	return nil, false
}

// TestMoveReasons provokes each refusal of Validate and Apply, one way a move or a solution can be wrong per row.
func TestMoveReasons(t *testing.T) {
	base := newGame(t, DefaultOptions(), 3)
	task, _, _ := base.CurrentTask(1)
	shape := base.side().Shape
	sub := func(ps []Placement) Move { return Move{Player: 1, Action: Submit, ReceivedAt: 10, Placements: ps} }
	outsider := "A"
	for _, l := range []string{"A", "B", "C", "D", "E", "F", "G", "H"} {
		if !slices.Contains(task.Pieces, l) {
			outsider = l
			break
		}
	}
	wrong := clonePlacements(task.Witness)
	wrong[0].Piece = outsider
	twice := append(clonePlacements(task.Witness), clonePlacements(task.Witness)[0])
	twice = append(twice[:1], twice[len(twice)-1])
	notCongruent := clonePlacements(task.Witness)
	notCongruent[0].Cells = notCongruent[0].Cells[1:]
	outside := clonePlacements(task.Witness)
	for i := range outside[0].Cells {
		outside[0].Cells[i].X += 100
	}
	overlap, ok := overlapping(shape, task)
	if !ok {
		t.Fatal("no overlapping placement found for the test task")
	}
	tooMany := make([]Placement, MaxPlacements+1)
	for i := range tooMany {
		tooMany[i] = Placement{Piece: "A"}
	}

	windowed := newGame(t, Options{TieWindowMS: 100}, 3)
	pending, _ := apply(t, windowed, mustWitness(t, windowed, 1, 10))
	gaveUp, _ := apply(t, base, Move{Player: 1, Action: GiveUp, ReceivedAt: 100})
	over := state(t, Position{Options: DefaultOptions(), Sheet: 7, Seats: []Seat{{DuelsWon: 5}, {DuelsWon: 2}},
		Winner: 1, Die: newDie(1)})

	// A deck whose side A1 has one cell more than its tasks cover: only there can a full placement leave a gap.
	gappy := deck.Default()
	gappy.A[0].Shape = append(gappy.A[0].Shape, polyomino.Cell{X: 20, Y: 20})
	gapGame, err := NewWithDeck(DefaultOptions(), gappy, 3)
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name   string
		s      *State
		m      Move
		kind   engine.Kind
		reason string
		field  string
	}{
		{"view", base.View(1), Move{Player: 1, Action: GiveUp}, engine.Invalid, ReasonStateIsView, "isView"},
		{"player 0", base, Move{Action: GiveUp}, engine.Invalid, ReasonPlayerOutOfRange, "player"},
		{"player 3", base, Move{Player: 3, Action: GiveUp}, engine.Invalid, ReasonPlayerOutOfRange, "player"},
		{"no action", base, Move{Player: 1}, engine.Invalid, ReasonMoveEmpty, "ubongoDuel"},
		{"negative time", base, Move{Player: 1, Action: GiveUp, ReceivedAt: -1}, engine.Invalid,
			ReasonReceivedAtNegative, "ubongoDuel.receivedAt"},
		{"too many placements", base, sub(tooMany), engine.Invalid, ReasonSubmissionTooLarge,
			"ubongoDuel.submit.placements"},
		{"too many cells", base, sub([]Placement{{Piece: "A", Cells: make(polyomino.Cells, MaxCells+1)}}),
			engine.Invalid, ReasonSubmissionTooLarge, "ubongoDuel.submit.placements"},
		{"unknown piece", base, sub([]Placement{task.Witness[0], {Piece: "Z"}}), engine.Invalid, ReasonPieceUnknown,
			"ubongoDuel.submit.placements[1].piece"},
		{"game over", over, Move{Player: 2, Action: GiveUp}, engine.Illegal, ReasonGameOver, ""},
		{"out of order", gaveUp, Move{Player: 2, Action: GiveUp, ReceivedAt: 99}, engine.Illegal,
			ReasonReceivedAtOutOfOrder, ""},
		{"solved, submits", pending, mustWitness(t, windowed, 1, 20), engine.Illegal, ReasonAlreadySolved, ""},
		{"solved, gives up", pending, Move{Player: 1, Action: GiveUp, ReceivedAt: 20}, engine.Illegal,
			ReasonAlreadySolved, ""},
		{"gave up, gives up", gaveUp, Move{Player: 1, Action: GiveUp, ReceivedAt: 100}, engine.Illegal,
			ReasonAlreadyGaveUp, ""},
		{"gave up, submits", gaveUp, Move{Player: 1, Action: Submit, ReceivedAt: 100, Placements: task.Witness}, engine.Illegal, ReasonAlreadyGaveUp, ""},
		{"wrong piece", base, sub(wrong), engine.Illegal, ReasonWrongPiece, ""},
		{"piece used twice", base, sub(twice), engine.Illegal, ReasonPieceUsedTwice, ""},
		{"not congruent", base, sub(notCongruent), engine.Illegal, ReasonNotCongruent, ""},
		{"cell outside shape", base, sub(outside), engine.Illegal, ReasonCellOutsideShape, ""},
		{"overlap", base, sub(overlap), engine.Illegal, ReasonOverlap, ""},
		{"piece missing", base, sub(task.Witness[:len(task.Witness)-1]), engine.Illegal, ReasonPieceMissing, ""},
		{"empty submission", base, sub(nil), engine.Illegal, ReasonPieceMissing, ""},
		{"not covered", gapGame, mustWitness(t, gapGame, 1, 10), engine.Illegal, ReasonNotCovered, ""},
		{"close, nothing pending", base, Move{Player: 1, Action: CloseDuel, ReceivedAt: 1 << 40}, engine.Illegal,
			ReasonNoPendingWin, ""},
		{"close in the window", pending, Move{Player: 2, Action: CloseDuel, ReceivedAt: 10 + 100_000_000},
			engine.Illegal, ReasonTieWindowOpen, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := c.s.Proto()
			provoked.WantError(t, c.s.Validate(c.m), c.kind, c.reason, c.field)
			next, events, err := c.s.Apply(c.m)
			provoked.WantError(t, err, c.kind, c.reason, c.field)
			if next != nil || events != nil {
				t.Errorf("a refused move returned a state or events")
			}
			if after := c.s.Proto(); !protoEqual(before, after) {
				t.Errorf("a refused move changed the state")
			}
		})
	}
}

// TestStateReasons provokes each refusal of FromProto and NewState by changing a valid state's message.
func TestStateReasons(t *testing.T) {
	valid := func() *rulebookv1.UbongoDuelState { return newGame(t, DefaultOptions(), 5).Proto() }
	for _, c := range []struct {
		name   string
		change func(m *rulebookv1.UbongoDuelState)
		reason string
		field  string
	}{
		{"rules version", func(m *rulebookv1.UbongoDuelState) { m.RulesVersion = 9 }, ReasonRulesVersionUnsupported, "rulesVersion"},
		{"side 7", func(m *rulebookv1.UbongoDuelState) { m.Options.Side = 7 }, ReasonOptionOutOfRange, "options.side"},
		{"window", func(m *rulebookv1.UbongoDuelState) { m.Options.TieWindowMs = MaxTieWindowMS + 1 },
			ReasonOptionOutOfRange, "options.tieWindowMs"},
		{"deck version", func(m *rulebookv1.UbongoDuelState) { m.DeckVersion = "0.9" }, ReasonDeckVersionUnknown, "deckVersion"},
		{"one entry", func(m *rulebookv1.UbongoDuelState) { m.Players = m.Players[:1] }, ReasonPlayersMismatch, "players"},
		{"viewer in full state", func(m *rulebookv1.UbongoDuelState) { m.Viewer = 1 }, ReasonPlayerOutOfRange, "viewer"},
		{"rules version 1", func(m *rulebookv1.UbongoDuelState) { m.RulesVersion = 1 }, ReasonRulesVersionUnsupported,
			"rulesVersion"},
		{"viewer 3", func(m *rulebookv1.UbongoDuelState) { m.IsView, m.Viewer, m.Die = true, 3, nil },
			ReasonPlayerOutOfRange, "viewer"},
		{"view reveals", func(m *rulebookv1.UbongoDuelState) { m.IsView = true }, ReasonViewRevealsHidden, "die"},
		{"no die", func(m *rulebookv1.UbongoDuelState) { m.Die = nil }, ReasonDieStateInvalid, "die"},
		{"die unreadable", func(m *rulebookv1.UbongoDuelState) { m.Die = dieAtWord(m.Die, 200) }, ReasonDieStateInvalid,
			"die"},
		{"score 6", func(m *rulebookv1.UbongoDuelState) { m.Players[0].DuelsWon = 6 }, ReasonScoreOutOfRange,
			"players[0].duelsWon"},
		{"both at 5", func(m *rulebookv1.UbongoDuelState) {
			m.Players[0].DuelsWon, m.Players[1].DuelsWon, m.Sheet = 5, 5, 9
		}, ReasonScoreOutOfRange, "players[1].duelsWon"},
		{"solved 2", func(m *rulebookv1.UbongoDuelState) { m.Players[1].Solved = 2 }, ReasonScoreOutOfRange,
			"players[1].solved"},
		{"sheet 0", func(m *rulebookv1.UbongoDuelState) { m.Sheet = 0 }, ReasonSheetOutOfRange, "sheet"},
		{"sheet 10", func(m *rulebookv1.UbongoDuelState) { m.Sheet = 10 }, ReasonSheetOutOfRange, "sheet"},
		{"sheet 3 at 0-0", func(m *rulebookv1.UbongoDuelState) { m.Sheet = 3 }, ReasonSheetMismatch, "sheet"},
		{"face 21", func(m *rulebookv1.UbongoDuelState) { m.Faces[0] = 21 }, ReasonFaceOutOfRange, "faces[0]"},
		{"face 0", func(m *rulebookv1.UbongoDuelState) { m.Faces[0] = 0 }, ReasonFaceOutOfRange, "faces[0]"},
		{"two faces", func(m *rulebookv1.UbongoDuelState) { m.Faces = append(m.Faces, 3); m.Tasks = nil },
			ReasonRollsMismatch, "faces"},
		{"three faces", func(m *rulebookv1.UbongoDuelState) { m.Faces = []uint32{1, 2, 3} }, ReasonRollsMismatch, "faces"},
		{"leader", func(m *rulebookv1.UbongoDuelState) { m.Leader = 1 }, ReasonRollsMismatch, "leader"},
		{"task", func(m *rulebookv1.UbongoDuelState) { m.Tasks[0].Pieces[0] = "U" }, ReasonTaskMismatch, "tasks"},
		{"both gave up", func(m *rulebookv1.UbongoDuelState) { m.Players[0].GaveUp, m.Players[1].GaveUp = true, true },
			ReasonPhaseInvalid, "players[1].gaveUp"},
		{"pending without window", func(m *rulebookv1.UbongoDuelState) { m.PendingWinner, m.Players[0].Solved = 1, 1 },
			ReasonPhaseInvalid, "pendingWinner"},
		{"solved, not pending", func(m *rulebookv1.UbongoDuelState) { m.Players[0].Solved = 1 }, ReasonPhaseInvalid,
			"players[0].solved"},
		{"winner", func(m *rulebookv1.UbongoDuelState) { m.Winner = 2 }, ReasonPhaseInvalid, "winner"},
		{"negative time", func(m *rulebookv1.UbongoDuelState) { m.LastReceivedAt = -5 }, ReasonPhaseInvalid,
			"lastReceivedAt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := valid()
			c.change(m)
			_, err := FromProto(m)
			provoked.WantError(t, err, engine.Invalid, c.reason, c.field)
		})
	}
	_, err := Spec.Decode(&rulebookv1.GameState{})
	provoked.WantError(t, err, engine.Invalid, ReasonGameMismatch, "state")
}

// TestEveryReasonTested checks that the tables above provoke every reason code of reasons.go, and that the table of
// docs/rules/ubongo-duel.md lists exactly those codes.
func TestEveryReasonTested(t *testing.T) {
	TestMoveReasons(t)
	TestStateReasons(t)
	reasons := enginetest.Reasons(t, "reasons.go")
	provoked.Check(t, reasons)
	enginetest.CheckDocumented(t, reasons, "../../docs/rules/ubongo-duel.md")
}
