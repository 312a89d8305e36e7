package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/polyomino"
	"github.com/rulebook/rulebook/engine/ubongoduel"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// specs are the games' specs, by id.
var specs = map[string]spec{
	"exploze": {
		plays: []playthrough{
			{name: "3x3", seed: 1, options: explozeOptions(3, 3, 2)},
			{name: "2x3, 3 players", seed: 2, options: explozeOptions(2, 3, 3)},
		},
		candidates:  explozeCandidates,
		mutateState: explozeMutation,
	},
	"kipicot": {
		plays: []playthrough{
			{name: "end threshold 12", seed: 1, options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Kipicot{
				Kipicot: &rulebookv1.KipicotOptions{EndThreshold: new(int32(12))}}}},
			{name: "variants", seed: 2, options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Kipicot{
				Kipicot: &rulebookv1.KipicotOptions{WholeStackMoves: true, PawnMayStay: true,
					AntiStallRounds: new(int32(1)), EndThreshold: new(int32(14))}}}},
		},
		candidates: kipicotCandidates,
		extra: func(b *builder) {
			kipicotTurns(b)
			addKipicotPositions(b)
		},
	},
	"micropul": {
		plays: []playthrough{
			{name: "solo", seed: 1, options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{
				Micropul: &rulebookv1.MicropulOptions{Players: 1}}}},
			{name: "2 players, 2004 rules", seed: 2, options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{
				Micropul: &rulebookv1.MicropulOptions{Players: 2,
					RuleSet: rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_ORIGINAL_2004}}}},
		},
		candidates: micropulCandidates,
	},
	"ubongo-duel": {
		plays: []playthrough{
			{name: "side A", seed: 5, policy: ubongoPolicy},
			{name: "side B, catch-up, tie window", seed: 6, policy: ubongoPolicy,
				options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_UbongoDuel{UbongoDuel: &rulebookv1.UbongoDuelOptions{
					Side: rulebookv1.UbongoDuelSide_UBONGO_DUEL_SIDE_B, TieWindowMs: 60, CatchUp: true}}}},
		},
		candidates: ubongoCandidates,
		extra:      ubongoPieceZ,
	},
}

// explozeOptions returns Exploze's options of a rows x cols board for players.
func explozeOptions(rows, cols, players int32) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{
		Rows: rows, Cols: cols, Players: players}}}
}

// explozeMutation mutates state as mutate does, or half the time changes whole cells of its board, owner and stones
// together, as mutate did when a cell was a message: one or two cells swapped with another or copied onto another (the
// refusals of a board whose counts still add up, such as LAST_MOVER_STONES and FINAL_WAVE_MISSING, need such a change).
func explozeMutation(state *rulebookv1.GameState, rng *rand.Rand) *rulebookv1.GameState {
	if rng.IntN(2) == 0 {
		return mutate(state, rng)
	}
	out := proto.Clone(state).(*rulebookv1.GameState)
	s := out.GetExploze()
	n := len(s.GetOwners())
	if n == 0 || n != len(s.GetStones()) {
		return out
	}
	for range 1 + rng.IntN(2) {
		i, j := rng.IntN(n), rng.IntN(n)
		if rng.IntN(2) == 0 {
			s.Owners[i], s.Owners[j], s.Stones[i], s.Stones[j] = s.Owners[j], s.Owners[i], s.Stones[j], s.Stones[i]
		} else {
			s.Owners[j], s.Stones[j] = s.Owners[i], s.Stones[i]
		}
	}
	return out
}

// explozeCandidates are a stone on every cell of the board and one past it, for every seat.
func explozeCandidates(b *builder, state *rulebookv1.GameState) []*rulebookv1.Move {
	s := state.GetExploze()
	var moves []*rulebookv1.Move
	for p := range b.seats(state) {
		for row := range s.GetOptions().GetRows() + 1 {
			for col := range s.GetOptions().GetCols() + 1 {
				moves = append(moves, exploze.Move{Player: engine.Player(p + 1), Row: int(row), Col: int(col)}.Proto())
			}
		}
	}
	return moves
}

// kipicotCandidates are every single step (a skip, a placement of either colour, the pawn, a fishing corner, a token
// moved between any two squares) for both seats, and turns of none and of too many steps.
func kipicotCandidates(_ *builder, _ *rulebookv1.GameState) []*rulebookv1.Move {
	var steps []*rulebookv1.KipicotMove
	at := func(i int) *rulebookv1.KipicotCoord {
		return &rulebookv1.KipicotCoord{Row: int32(i / kipicot.Size), Col: int32(i % kipicot.Size)}
	}
	steps = append(steps, &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Skip{Skip: &rulebookv1.KipicotSkip{}}})
	for i := range kipicot.Squares {
		for _, c := range []rulebookv1.KipicotColor{rulebookv1.KipicotColor_KIPICOT_COLOR_RED, rulebookv1.KipicotColor_KIPICOT_COLOR_YELLOW} {
			steps = append(steps, &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Place{
				Place: &rulebookv1.KipicotPlacement{Color: c, To: at(i)}}})
		}
		steps = append(steps, &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Pawn{Pawn: &rulebookv1.KipicotPawnMove{To: at(i)}}},
			&rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Fish{Fish: &rulebookv1.KipicotFishing{Corner: at(i)}}})
		for j := range kipicot.Squares {
			steps = append(steps, &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_MoveToken{
				MoveToken: &rulebookv1.KipicotTokenMove{From: at(i), To: at(j)}}})
		}
	}
	skip := &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Skip{Skip: &rulebookv1.KipicotSkip{}}}
	steps = append(steps, &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Turn{Turn: &rulebookv1.KipicotTurn{}}},
		&rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Turn{Turn: &rulebookv1.KipicotTurn{
			Steps: []*rulebookv1.KipicotStep{skip, skip, skip, skip, skip, skip}}}},
		&rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Turn{Turn: &rulebookv1.KipicotTurn{
			Steps: []*rulebookv1.KipicotStep{{}}}}})
	var moves []*rulebookv1.Move
	for _, p := range []int32{1, 2} {
		for _, st := range steps {
			moves = append(moves, &rulebookv1.Move{Player: p, Game: &rulebookv1.Move_Kipicot{Kipicot: st}})
		}
	}
	return moves
}

// micropulCandidates are, for every seat: taking a tile, passing, a stone on every quadrant of every tile of the
// board and next to it, and every tile of every hand (and one in no hand) at every rotation next to the board's tiles.
func micropulCandidates(b *builder, state *rulebookv1.GameState) []*rulebookv1.Move {
	s := state.GetMicropul()
	tiles := []uint32{0, 47}
	for _, p := range s.GetPlayers() {
		tiles = append(tiles, p.GetHand()...)
	}
	slices.Sort(tiles)
	tiles = slices.Compact(tiles)
	type xy struct{ x, y int32 }
	near := []xy{{40, 40}}
	for _, t := range s.GetBoard() {
		for _, d := range []xy{{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			if at := (xy{t.GetX() + d.x, t.GetY() + d.y}); !slices.Contains(near, at) {
				near = append(near, at)
			}
		}
	}
	var moves []*rulebookv1.Move
	move := func(p int, m *rulebookv1.MicropulMove) {
		moves = append(moves, &rulebookv1.Move{Player: int32(p), Game: &rulebookv1.Move_Micropul{Micropul: m}})
	}
	for p := 1; p <= b.seats(state); p++ {
		move(p, &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_TakeTile{TakeTile: &rulebookv1.MicropulTakeTile{}}})
		move(p, &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_Pass{Pass: &rulebookv1.MicropulPass{}}})
		for _, at := range near {
			for q := rulebookv1.MicropulQuadrant(1); q <= 4; q++ {
				move(p, &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_PlaceStone{PlaceStone: &rulebookv1.MicropulPlaceStone{
					X: at.x, Y: at.y, Quadrant: q}}})
			}
			for _, t := range tiles {
				for r := range uint32(4) {
					move(p, &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_PlaceTile{PlaceTile: &rulebookv1.MicropulPlaceTile{
						Tile: t, X: at.x, Y: at.y, Rotation: r}}})
				}
			}
		}
	}
	return moves
}

// ubongoSubmissions returns, for each seat with a task, the witness solution of its task, and the same solution
// with its first placement's piece replaced, its first placement cut by a cell or moved off the shape, its first
// piece placed twice, its last left out, and a submission of too many cells.
func ubongoSubmissions(state *rulebookv1.GameState) []*rulebookv1.Move {
	s, err := ubongoduel.FromProto(state.GetUbongoDuel())
	if err != nil || state.GetUbongoDuel().GetIsView() {
		return nil
	}
	var moves []*rulebookv1.Move
	for p := engine.Player(1); p <= 2; p++ {
		task, _, ok := s.CurrentTask(p)
		if !ok {
			continue
		}
		submit := func(ps []ubongoduel.Placement) {
			moves = append(moves, ubongoduel.Move{Player: p, Action: ubongoduel.Submit, Placements: ps}.Proto())
		}
		submit(task.Witness)
		wrong := clonePlacements(task.Witness)
		wrong[0].Piece = "U"
		if task.Witness[0].Piece == "U" {
			wrong[0].Piece = "A"
		}
		submit(wrong)
		short := clonePlacements(task.Witness)
		short[0].Cells = short[0].Cells[1:]
		submit(short)
		off := clonePlacements(task.Witness)
		for i := range off[0].Cells {
			off[0].Cells[i].X += 20
		}
		submit(off)
		twice := clonePlacements(task.Witness)
		twice[1] = twice[0]
		submit(twice)
		submit(task.Witness[:len(task.Witness)-1])
		large := make([]ubongoduel.Placement, 11) // 66 cells: more than a submission may have
		for i := range large {
			large[i] = ubongoduel.Placement{Piece: "A", Cells: make(polyomino.Cells, 6)}
		}
		submit(large)
	}
	return moves
}

// ubongoPieceZ adds the first witness solution of the first state with its first piece named "Z": the API's rule
// for a piece's letter refuses it (INVALID_FIELD) before the engine would (PIECE_UNKNOWN).
func ubongoPieceZ(b *builder) {
	move := ubongoSubmissions(b.states[0])[0]
	move.GetUbongoDuel().GetSubmit().GetPlacements()[0].Piece = "Z"
	b.add("request/apply, a piece Z", "ApplyMove",
		&rulebookv1.ApplyMoveRequest{Game: b.game, State: b.states[0], Move: move}, nil)
}

// clonePlacements returns a deep copy of ps.
func clonePlacements(ps []ubongoduel.Placement) []ubongoduel.Placement {
	out := make([]ubongoduel.Placement, len(ps))
	for i, p := range ps {
		out[i] = ubongoduel.Placement{Piece: p.Piece, Cells: append(p.Cells[:0:0], p.Cells...)}
	}
	return out
}

// ubongoCandidates are the submissions of ubongoSubmissions, a give-up and a close for each seat, and the first
// witness of a seat with one placement slid (not turned) onto another that the engine refuses as OVERLAP.
func ubongoCandidates(b *builder, state *rulebookv1.GameState) []*rulebookv1.Move {
	moves := ubongoSubmissions(state)
	if s, err := ubongoduel.FromProto(state.GetUbongoDuel()); err == nil && !state.GetUbongoDuel().GetIsView() {
		if task, _, ok := s.CurrentTask(1); ok {
			moves = append(moves, slid(b, state, task.Witness)...)
		}
	}
	for p := engine.Player(1); p <= 2; p++ {
		moves = append(moves, ubongoduel.Move{Player: p, Action: ubongoduel.GiveUp}.Proto(),
			ubongoduel.Move{Player: p, Action: ubongoduel.CloseDuel}.Proto())
	}
	return moves
}

// ubongoPolicy draws each move uniformly from the legal moves and the witness solutions that the service accepts
// at the kit's clock.
func ubongoPolicy(b *builder) policy {
	return func(state *rulebookv1.GameState, legal []*rulebookv1.Move, rng *rand.Rand) *rulebookv1.Move {
		var accepted []*rulebookv1.Move
		for _, m := range append(slices.Clone(legal), ubongoSubmissions(state)...) {
			if b.refusal(state, m) == "" {
				accepted = append(accepted, m)
			}
		}
		return uniform(state, accepted, rng)
	}
}

// kipicotTurns adds composite moves made of the steps of the playthroughs' turns (the moves in a row of one player):
// the first whole turn of each length, and the refusals of a turn cut short and of one with a step after its end.
func kipicotTurns(b *builder) {
	skip := &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Skip{Skip: &rulebookv1.KipicotSkip{}}}
	turn := func(player int32, steps []*rulebookv1.KipicotStep) *rulebookv1.Move {
		return &rulebookv1.Move{Player: player, Game: &rulebookv1.Move_Kipicot{Kipicot: &rulebookv1.KipicotMove{
			Kind: &rulebookv1.KipicotMove_Turn{Turn: &rulebookv1.KipicotTurn{Steps: steps}}}}}
	}
	whole := map[int]bool{}
	for start := 0; start < len(b.played); {
		end := start
		for end < len(b.played) && b.played[end].move.GetPlayer() == b.played[start].move.GetPlayer() &&
			b.played[end].play == b.played[start].play {
			end++
		}
		state, player := b.played[start].state, b.played[start].move.GetPlayer()
		var steps []*rulebookv1.KipicotStep
		for _, p := range b.played[start:end] {
			steps = append(steps, kipicotStep(p.move.GetKipicot()))
		}
		if n := len(steps); !whole[n] && n <= 4 {
			whole[n] = true
			b.add("turn/whole turn of "+strconv.Itoa(n)+" steps", "ApplyMove",
				&rulebookv1.ApplyMoveRequest{Game: b.game, State: state, Move: turn(player, steps)}, nil)
		}
		if len(steps) > 1 && !b.shown[kipicot.ReasonTurnIncomplete] {
			b.try("turn/"+kipicot.ReasonTurnIncomplete, "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: b.game,
				State: state, Move: turn(player, steps[:len(steps)-1])}, kipicot.ReasonTurnIncomplete)
		}
		if len(steps) < 4 && !b.shown[kipicot.ReasonTurnAlreadyOver] {
			b.try("turn/"+kipicot.ReasonTurnAlreadyOver, "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: b.game,
				State: state, Move: turn(player, append(slices.Clone(steps), skip))}, kipicot.ReasonTurnAlreadyOver)
		}
		start = end
	}
}

// kipicotPosition is a state of Kipicot built by hand, for a reason that no playthrough reaches: player 1 to move in
// phase on board (in the rules' notation), with the anti-stall count idle, each player having caught one fishing
// square of three tokens (so that both pawns may be off the board), and the supply holding the other tokens. The
// positions are those of the engine's rule tests (engine/kipicot/rules_test.go, edge_cases_test.go).
type kipicotPosition struct {
	reason string
	phase  kipicot.Phase
	board  string
	idle   int
	// steps are played first, by player 1, each an ApplyMove case; then refused is refused with reason.
	steps   []kipicot.Step
	refused kipicot.Step
}

// kipicotPositions are the positions of the reasons no playthrough reaches: a placement that the anti-stall rule
// requires (its count at 2 x 3 rounds, a legal token move in step 2), and a fishing choice of a block without the
// mover's pawn (once the pawn, on (1,1), stands in two fishing squares).
var kipicotPositions = []kipicotPosition{
	{reason: kipicot.ReasonPlacementRequired, phase: kipicot.PhaseAction, idle: 2 * kipicot.DefaultAntiStallRounds,
		board:   "r y . . . | . ry . r ry1 | . . . . . | . r . . . | . y . . .",
		refused: kipicot.Step{Kind: kipicot.StepMoveToken, From: kipicot.Coord{Row: 0, Col: 0}, To: kipicot.Coord{Row: 1, Col: 0}}},
	{reason: kipicot.ReasonNotAFishingSquare, phase: kipicot.PhasePawn,
		board:   "r r r r . | r r r r . | . . . . . | . . . . . | . . . . .",
		steps:   []kipicot.Step{{Kind: kipicot.StepPawn, To: kipicot.Coord{Row: 1, Col: 1}}},
		refused: kipicot.Step{Kind: kipicot.StepFish, To: kipicot.Coord{Row: 0, Col: 2}}},
}

// kipicotCaught are the catches of kipicotPosition: one fishing square of three tokens each.
var kipicotCaught = [kipicot.Players]kipicot.Catch{{Red: 2, Yellow: 1}, {Red: 1, Yellow: 2}}

// addKipicotPositions adds the cases of kipicotPositions: each named position/<reason>/, the ApplyMove of its steps,
// the legal moves of the state they lead to, and the ValidateMove and ApplyMove of the refused step there.
func addKipicotPositions(b *builder) {
	for _, p := range kipicotPositions {
		at := "position/" + p.reason + "/"
		state := kipicotState(p)
		for i, st := range p.steps {
			var applied rulebookv1.ApplyMoveResponse
			move := kipicot.Move{Player: 1, Step: st}.Proto()
			if r := b.add(at+"step "+strconv.Itoa(i+1), "ApplyMove",
				&rulebookv1.ApplyMoveRequest{Game: b.game, State: state, Move: move}, &applied); r != nil {
				panic(fmt.Sprintf("%sstep %d refused: %v", at, i+1, r))
			}
			state = applied.GetState()
		}
		b.add(at+"legal", "ListLegalMoves", &rulebookv1.ListLegalMovesRequest{Game: b.game, State: state}, nil)
		move := kipicot.Move{Player: 1, Step: p.refused}.Proto()
		if !b.try(at+"validate", "ValidateMove", &rulebookv1.ValidateMoveRequest{Game: b.game, State: state, Move: move},
			p.reason) {
			panic(at + "validate: not refused with " + p.reason)
		}
		b.add(at+"apply", "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: b.game, State: state, Move: move}, nil)
	}
}

// kipicotState returns the state of the position p, with the default options.
func kipicotState(p kipicotPosition) *rulebookv1.GameState {
	board, err := kipicot.ParseBoard(p.board)
	if err != nil {
		panic(err)
	}
	parts := kipicot.Parts{ToMove: 1, Phase: p.phase, TurnsWithoutPlacement: p.idle, Caught: kipicotCaught,
		Board: board, SupplyRed: kipicot.TokensPerColor, SupplyYellow: kipicot.TokensPerColor}
	for _, c := range kipicotCaught {
		parts.SupplyRed -= c.Red
		parts.SupplyYellow -= c.Yellow
	}
	for _, q := range board {
		for _, c := range []kipicot.Color{q.Bottom, q.Top} {
			switch c {
			case kipicot.Red:
				parts.SupplyRed--
			case kipicot.Yellow:
				parts.SupplyYellow--
			}
		}
	}
	s, err := kipicot.NewState(kipicot.DefaultOptions(), parts)
	if err != nil {
		panic(fmt.Sprintf("position %s: %v", p.reason, err))
	}
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_Kipicot{Kipicot: s.Proto()}}
}

// kipicotStep returns the step of a move of one step.
func kipicotStep(m *rulebookv1.KipicotMove) *rulebookv1.KipicotStep {
	switch k := m.GetKind().(type) {
	case *rulebookv1.KipicotMove_Skip:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Skip{Skip: k.Skip}}
	case *rulebookv1.KipicotMove_MoveToken:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_MoveToken{MoveToken: k.MoveToken}}
	case *rulebookv1.KipicotMove_Place:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Place{Place: k.Place}}
	case *rulebookv1.KipicotMove_Pawn:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Pawn{Pawn: k.Pawn}}
	case *rulebookv1.KipicotMove_Fish:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Fish{Fish: k.Fish}}
	}
	panic("a playthrough's move of Kipicot is not one step")
}

// slid returns the first submission of player 1 found by sliding one placement of witness by up to 4 cells each way
// that the engine refuses as OVERLAP, or none.
func slid(b *builder, state *rulebookv1.GameState, witness []ubongoduel.Placement) []*rulebookv1.Move {
	for i := range witness {
		for d := range 81 {
			dx, dy := d%9-4, d/9-4
			ps := clonePlacements(witness)
			for k := range ps[i].Cells {
				ps[i].Cells[k].X += dx
				ps[i].Cells[k].Y += dy
			}
			m := ubongoduel.Move{Player: 1, Action: ubongoduel.Submit, Placements: ps}.Proto()
			if b.refusal(state, m) == ubongoduel.ReasonOverlap {
				return []*rulebookv1.Move{m}
			}
		}
	}
	return nil
}
