package service_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
	"github.com/rulebook/rulebook/engine/ubongoduel"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestBoundsOnEveryRequestField walks every message a request of RulesService can hold and checks that each list,
// map, string and bytes field has an upper bound among its protovalidate rules, so that no request holds more than
// the API allows, whatever the size limit of the transport.
func TestBoundsOnEveryRequestField(t *testing.T) {
	services := rulebookv1grpc.File_rulebook_v1_rules_service_proto.Services()
	if services.Len() == 0 {
		t.Fatal("rules_service.proto declares no service")
	}
	seen := map[protoreflect.FullName]bool{}
	checked := 0
	var walk func(md protoreflect.MessageDescriptor, path string)
	walk = func(md protoreflect.MessageDescriptor, path string) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		fields := md.Fields()
		for i := range fields.Len() {
			fd := fields.Get(i)
			where := path + "." + string(fd.Name())
			rules, _ := proto.GetExtension(fd.Options(), validate.E_Field).(*validate.FieldRules)
			checked++
			for _, problem := range missingBounds(fd, rules) {
				t.Errorf("%s (%s, reached as %s): %s", fd.FullName(), fd.Kind(), where, problem)
			}
			switch {
			case fd.IsMap() && fd.MapValue().Message() != nil:
				walk(fd.MapValue().Message(), where+"[]")
			case fd.Message() != nil && !fd.IsMap():
				walk(fd.Message(), where)
			}
		}
	}
	for i := range services.Len() {
		methods := services.Get(i).Methods()
		for j := range methods.Len() {
			m := methods.Get(j)
			walk(m.Input(), string(m.Name()))
		}
	}
	if checked < 100 {
		t.Errorf("checked only %d fields; the walk misses the games' messages", checked)
	}
}

// missingBounds returns what bound field fd lacks in rules (nil when none is missing).
func missingBounds(fd protoreflect.FieldDescriptor, rules *validate.FieldRules) []string {
	var missing []string
	switch {
	case fd.IsMap():
		if !rules.GetMap().HasMaxPairs() {
			missing = append(missing, "a map without map.max_pairs")
		}
		if k := fd.MapKey(); k.Kind() == protoreflect.StringKind && !boundsString(rules.GetMap().GetKeys().GetString()) {
			missing = append(missing, "string keys without keys.string.max_len")
		}
		v := fd.MapValue()
		if v.Kind() == protoreflect.StringKind && !boundsString(rules.GetMap().GetValues().GetString()) {
			missing = append(missing, "string values without values.string.max_len")
		}
		if v.Kind() == protoreflect.BytesKind && !boundsBytes(rules.GetMap().GetValues().GetBytes()) {
			missing = append(missing, "bytes values without values.bytes.max_len")
		}
	case fd.IsList():
		if !rules.GetRepeated().HasMaxItems() {
			missing = append(missing, "a repeated field without repeated.max_items")
		}
		items := rules.GetRepeated().GetItems()
		if fd.Kind() == protoreflect.StringKind && !boundsString(items.GetString()) {
			missing = append(missing, "strings without items.string.max_len")
		}
		if fd.Kind() == protoreflect.BytesKind && !boundsBytes(items.GetBytes()) {
			missing = append(missing, "bytes without items.bytes.max_len")
		}
	case fd.Kind() == protoreflect.StringKind:
		if !boundsString(rules.GetString()) {
			missing = append(missing, "a string without string.max_len")
		}
	case fd.Kind() == protoreflect.BytesKind:
		if !boundsBytes(rules.GetBytes()) {
			missing = append(missing, "bytes without bytes.max_len")
		}
	}
	return missing
}

// boundsString reports whether r bounds a string's length.
func boundsString(r *validate.StringRules) bool {
	return r.HasMaxLen() || r.HasLen() || r.HasMaxBytes() || r.HasLenBytes() || r.HasConst() || len(r.GetIn()) > 0
}

// boundsBytes reports whether r bounds a bytes field's length.
func boundsBytes(r *validate.BytesRules) bool {
	return r.HasMaxLen() || r.HasLen() || r.HasConst() || len(r.GetIn()) > 0
}

// boundsValidator returns a protovalidate validator.
func boundsValidator(t testing.TB) protovalidate.Validator {
	t.Helper()
	v, err := protovalidate.New()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// boundsViolations returns the field paths of the violations of err, or fails when err is not a validation error.
func boundsViolations(t testing.TB, err error) []string {
	t.Helper()
	var invalid *protovalidate.ValidationError
	if !errors.As(err, &invalid) {
		t.Fatalf("got %v, want a validation error", err)
	}
	var paths []string
	for _, v := range invalid.Violations {
		paths = append(paths, protovalidate.FieldPathString(v.Proto.GetField()))
	}
	return paths
}

// boundsGames are the hosted games, by id.
var boundsGames = map[string]engine.Game{
	"exploze":     exploze.Game{},
	"micropul":    micropul.Game{},
	"kipicot":     kipicot.Game{},
	"ubongo-duel": ubongoduel.Game{},
}

// boundsFirstMove returns the first legal move of state, or fails.
func boundsFirstMove(t testing.TB, g engine.Game, state *rulebookv1.GameState) *rulebookv1.Move {
	t.Helper()
	moves, err := position(t, g, state).Legal(engine.NoPlayer)
	if err != nil || len(moves) == 0 {
		t.Fatalf("no legal move (%v)", err)
	}
	return moves[0]
}

// boundsMany returns n new empty messages.
func boundsMany[T any, P interface {
	*T
	proto.Message
}](n int) []P {
	out := make([]P, n)
	for i := range out {
		out[i] = P(new(T))
	}
	return out
}

// TestBoundsValidation runs protovalidate on valid requests, which must pass (among them requests the engines and the
// service refuse with their own, more specific reasons), and on oversized or out-of-range ones, which must fail at the
// expected field.
func TestBoundsValidation(t *testing.T) {
	v := boundsValidator(t)
	type request = *rulebookv1.ApplyMoveRequest
	apply := func(game string, edit func(state *rulebookv1.GameState, move *rulebookv1.Move)) request {
		g := boundsGames[game]
		state := newState(t, g, nil, 1)
		move := boundsFirstMove(t, g, state)
		if edit != nil {
			edit(state, move)
		}
		return &rulebookv1.ApplyMoveRequest{Game: game, State: state, Move: move}
	}
	exploze := func(edit func(s *rulebookv1.ExplozeState, m *rulebookv1.ExplozeMove)) request {
		return apply("exploze", func(s *rulebookv1.GameState, m *rulebookv1.Move) {
			edit(s.GetExploze(), m.GetExploze())
		})
	}
	micropul := func(edit func(s *rulebookv1.MicropulState, m *rulebookv1.Move)) request {
		return apply("micropul", func(s *rulebookv1.GameState, m *rulebookv1.Move) { edit(s.GetMicropul(), m) })
	}
	kipicot := func(edit func(s *rulebookv1.KipicotState, m *rulebookv1.Move)) request {
		return apply("kipicot", func(s *rulebookv1.GameState, m *rulebookv1.Move) { edit(s.GetKipicot(), m) })
	}
	ubongo := func(edit func(s *rulebookv1.UbongoDuelState, m *rulebookv1.Move)) request {
		return apply("ubongo-duel", func(s *rulebookv1.GameState, m *rulebookv1.Move) { edit(s.GetUbongoDuel(), m) })
	}
	submit := func(placements ...*rulebookv1.UbongoDuelPlacement) *rulebookv1.Move {
		return &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_UbongoDuel{UbongoDuel: &rulebookv1.UbongoDuelMove{
			Action: &rulebookv1.UbongoDuelMove_Submit{Submit: &rulebookv1.UbongoDuelSubmit{Placements: placements}}}}}
	}
	domino := &rulebookv1.UbongoDuelPlacement{Piece: "A", Cells: []*rulebookv1.UbongoDuelCell{{X: 0}, {X: 1}}}
	kipicotMove := func(km *rulebookv1.KipicotMove) *rulebookv1.Move {
		return &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Kipicot{Kipicot: km}}
	}
	kipicotTurn := func(steps ...*rulebookv1.KipicotStep) *rulebookv1.Move {
		turn := &rulebookv1.KipicotTurn{Steps: steps}
		return kipicotMove(&rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Turn{Turn: turn}})
	}
	pentominoes := &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: "pentominoes"}
	custom := func(pieces ...*rulebookv1.PuzzlePiece) *rulebookv1.SolvePuzzleRequest_Custom {
		return &rulebookv1.SolvePuzzleRequest_Custom{Custom: &rulebookv1.PuzzlePieceSet{Pieces: pieces}}
	}
	explozeOptions := func(o *rulebookv1.ExplozeOptions) *rulebookv1.GameOptions {
		return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: o}}
	}

	valid := []struct {
		name string
		req  proto.Message
	}{
		{"exploze", apply("exploze", nil)},
		{"micropul", apply("micropul", nil)},
		{"kipicot", apply("kipicot", nil)},
		{"ubongo-duel", apply("ubongo-duel", nil)},
		{"new game with every option", &rulebookv1.NewGameRequest{Game: "exploze",
			Options: explozeOptions(&rulebookv1.ExplozeOptions{Rows: 32, Cols: 32, Players: 8})}},
		{"puzzle", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(10, 6), Pieces: pentominoes,
			Goal: rulebookv1.PuzzleGoal_PUZZLE_GOAL_COUNT}},
		{"custom puzzle", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 1), Pieces: custom(&rulebookv1.PuzzlePiece{
			Name: "domino", Cells: []*rulebookv1.PuzzleCell{{X: -1048576, Y: 1048576}, {X: -1048575, Y: 1048576}}})}},
		{"largest exploze board", exploze(func(s *rulebookv1.ExplozeState, m *rulebookv1.ExplozeMove) {
			s.Options = &rulebookv1.ExplozeOptions{Rows: 32, Cols: 32, Players: 8}
			s.Owners, s.Stones = make([]int32, 1024), make([]uint32, 1024)
			s.Owners[1023], s.Stones[1023] = 8, 2945
			s.MovesPlayed, s.ToMove = 2945, 8
			m.Row, m.Col = 31, 31
		})},

		// Refused by the engines or the service with their own reasons, which the API's rules must not pre-empt (the
		// service tests in cmd/rulebookd expect these reasons).
		{"options out of range (OPTION_OUT_OF_RANGE)", &rulebookv1.NewGameRequest{Game: "exploze",
			Options: explozeOptions(&rulebookv1.ExplozeOptions{Rows: 33})}},
		{"options in a state out of range (OPTION_OUT_OF_RANGE)",
			exploze(func(s *rulebookv1.ExplozeState, _ *rulebookv1.ExplozeMove) {
				s.Options.Rows, s.Options.Players = -1, 1000
			})},
		{"cell off a small board (CELL_OFF_BOARD)",
			exploze(func(_ *rulebookv1.ExplozeState, m *rulebookv1.ExplozeMove) { m.Row = 6 })},
		{"exploze owner 9 (OWNER_OUT_OF_RANGE)", exploze(func(s *rulebookv1.ExplozeState, _ *rulebookv1.ExplozeMove) {
			s.Owners[3] = 9
		})},
		{"exploze stones past the longest game (STONES_OUT_OF_RANGE)",
			exploze(func(s *rulebookv1.ExplozeState, _ *rulebookv1.ExplozeMove) { s.Stones[0] = 2946 })},
		{"stone count mismatch (STONE_COUNT_MISMATCH)",
			exploze(func(s *rulebookv1.ExplozeState, _ *rulebookv1.ExplozeMove) {
				s.Owners[0], s.Stones[0] = 1, 2
			})},
		{"wrong player (NOT_YOUR_TURN)",
			apply("exploze", func(_ *rulebookv1.GameState, m *rulebookv1.Move) { m.Player = 2 })},
		{"player beyond the game's (PLAYER_OUT_OF_RANGE)",
			apply("kipicot", func(_ *rulebookv1.GameState, m *rulebookv1.Move) { m.Player = 3 })},
		{"empty exploze state (BOARD_SIZE_MISMATCH)", &rulebookv1.ApplyMoveRequest{Game: "exploze",
			State: &rulebookv1.GameState{Game: &rulebookv1.GameState_Exploze{Exploze: &rulebookv1.ExplozeState{}}},
			Move:  &rulebookv1.Move{Player: 1}}},
		{"score of an empty state", &rulebookv1.ScoreRequest{Game: "exploze",
			State: &rulebookv1.GameState{Game: &rulebookv1.GameState_Exploze{Exploze: &rulebookv1.ExplozeState{}}}}},
		{"move of no game (GAME_MISMATCH)", &rulebookv1.ApplyMoveRequest{Game: "kipicot", State: &rulebookv1.GameState{},
			Move: &rulebookv1.Move{Player: 1}}},
		{"micropul hand of 6 and core of 41", micropul(func(s *rulebookv1.MicropulState, _ *rulebookv1.Move) {
			s.Core = make([]uint32, 41)
			s.Players[0].Hand = make([]uint32, 6)
		})},
		{"kipicot fishing corner in row 4 (BLOCK_OFF_BOARD)", kipicot(func(_ *rulebookv1.KipicotState, m *rulebookv1.Move) {
			m.Game = kipicotMove(&rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Fish{
				Fish: &rulebookv1.KipicotFishing{Corner: &rulebookv1.KipicotCoord{Row: 4, Col: 4}}}}).GetGame()
		})},
		{"kipicot token of no colour (COLOR_INVALID)", kipicot(func(s *rulebookv1.KipicotState, _ *rulebookv1.Move) {
			s.Squares[7].Tokens = []rulebookv1.KipicotColor{0}
		})},
		{"kipicot supply of 21 (COUNT_OUT_OF_RANGE)",
			kipicot(func(s *rulebookv1.KipicotState, _ *rulebookv1.Move) { s.SupplyRed = 21 })},
		{"kipicot phase unspecified (PHASE_INVALID)",
			kipicot(func(s *rulebookv1.KipicotState, _ *rulebookv1.Move) { s.Phase = 0 })},
		{"kipicot empty turn (TURN_EMPTY)", kipicot(func(_ *rulebookv1.KipicotState, m *rulebookv1.Move) {
			m.Game = kipicotTurn().GetGame()
		})},
		{"kipicot square off the board (SQUARE_OFF_BOARD)", kipicot(func(_ *rulebookv1.KipicotState, m *rulebookv1.Move) {
			move := &rulebookv1.KipicotTokenMove{From: &rulebookv1.KipicotCoord{}, To: &rulebookv1.KipicotCoord{Row: 5}}
			m.Game = kipicotMove(&rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_MoveToken{MoveToken: move}}).GetGame()
		})},
		{"kipicot placement of no colour (COLOR_INVALID)", kipicot(func(_ *rulebookv1.KipicotState, m *rulebookv1.Move) {
			m.Game = kipicotMove(&rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Place{Place: &rulebookv1.KipicotPlacement{
				To: &rulebookv1.KipicotCoord{}}}}).GetGame()
		})},
		{"ubongo piece not in the task (WRONG_PIECE)", ubongo(func(_ *rulebookv1.UbongoDuelState, m *rulebookv1.Move) {
			m.Game = submit(domino).GetGame()
		})},
		{"shape of 65 cells (SHAPE_TOO_LARGE)",
			&rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(13, 5), Pieces: pentominoes}},
		{"empty shape (EMPTY_SHAPE)", &rulebookv1.SolvePuzzleRequest{Pieces: pentominoes}},
		{"no pieces (MISSING_FIELD)", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2)}},
		{"unknown set (UNKNOWN_PIECE_SET)", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2),
			Pieces: &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: "tetrominoes"}}},
		{"unknown piece (UNKNOWN_PIECE)",
			&rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(5, 1), Pieces: pentominoes, Select: []string{"Q"}}},
		{"65 pieces (TOO_MANY_PIECES)",
			&rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 1), Pieces: custom(boundsMany[rulebookv1.PuzzlePiece](65)...)}},
		{"piece of 65 cells (PIECE_TOO_LARGE)", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 1),
			Pieces: custom(&rulebookv1.PuzzlePiece{Name: "long", Cells: servertest.Rect(65, 1)})}},
	}
	for _, tt := range valid {
		t.Run("valid/"+tt.name, func(t *testing.T) {
			if err := v.Validate(tt.req); err != nil {
				t.Errorf("refused: %v", err)
			}
		})
	}

	invalid := []struct {
		name  string
		req   proto.Message
		field string
	}{
		{"exploze board over 32 x 32", exploze(func(s *rulebookv1.ExplozeState, _ *rulebookv1.ExplozeMove) {
			s.Owners = make([]int32, 1025)
		}), "state.exploze.owners"},
		{"exploze stones over 32 x 32", exploze(func(s *rulebookv1.ExplozeState, _ *rulebookv1.ExplozeMove) {
			s.Stones = make([]uint32, 1025)
		}), "state.exploze.stones"},
		{"exploze moves past the longest game", exploze(func(s *rulebookv1.ExplozeState, _ *rulebookv1.ExplozeMove) {
			s.MovesPlayed = 1 << 31
		}), "state.exploze.moves_played"},
		{"exploze row 32", exploze(func(_ *rulebookv1.ExplozeState, m *rulebookv1.ExplozeMove) { m.Row = 32 }),
			"move.exploze.row"},
		{"exploze column -1", exploze(func(_ *rulebookv1.ExplozeState, m *rulebookv1.ExplozeMove) { m.Col = -1 }),
			"move.exploze.col"},
		{"player 0", apply("exploze", func(_ *rulebookv1.GameState, m *rulebookv1.Move) { m.Player = 0 }), "move.player"},
		{"player 65", apply("micropul", func(_ *rulebookv1.GameState, m *rulebookv1.Move) { m.Player = 65 }), "move.player"},
		{"micropul board of 49 tiles", micropul(func(s *rulebookv1.MicropulState, _ *rulebookv1.Move) {
			s.Board = boundsMany[rulebookv1.MicropulPlacedTile](49)
		}), "state.micropul.board"},
		{"micropul tile 48 in the core", micropul(func(s *rulebookv1.MicropulState, _ *rulebookv1.Move) { s.Core[2] = 48 }),
			"state.micropul.core[2]"},
		{"micropul hand of 7", micropul(func(s *rulebookv1.MicropulState, _ *rulebookv1.Move) {
			s.Players[1].Hand = make([]uint32, 7)
		}), "state.micropul.players[1].hand"},
		{"micropul 3 players", micropul(func(s *rulebookv1.MicropulState, _ *rulebookv1.Move) {
			s.Players = append(s.Players, &rulebookv1.MicropulPlayer{})
		}), "state.micropul.players"},
		{"micropul 7 stones", micropul(func(s *rulebookv1.MicropulState, _ *rulebookv1.Move) {
			s.Stones = boundsMany[rulebookv1.MicropulStone](7)
		}), "state.micropul.stones"},
		{"micropul rotation 4", micropul(func(_ *rulebookv1.MicropulState, m *rulebookv1.Move) {
			m.Game = &rulebookv1.Move_Micropul{Micropul: &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_PlaceTile{
				PlaceTile: &rulebookv1.MicropulPlaceTile{Tile: 3, X: 0, Y: 1, Rotation: 4}}}}
		}), "move.micropul.place_tile.rotation"},
		{"micropul position 48", micropul(func(_ *rulebookv1.MicropulState, m *rulebookv1.Move) {
			m.Game = &rulebookv1.Move_Micropul{Micropul: &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_PlaceTile{
				PlaceTile: &rulebookv1.MicropulPlaceTile{Tile: 3, X: 48}}}}
		}), "move.micropul.place_tile.x"},
		{"micropul stone on no quadrant", micropul(func(_ *rulebookv1.MicropulState, m *rulebookv1.Move) {
			m.Game = &rulebookv1.Move_Micropul{Micropul: &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_PlaceStone{
				PlaceStone: &rulebookv1.MicropulPlaceStone{}}}}
		}), "move.micropul.place_stone.quadrant"},
		{"micropul undefined quadrant", micropul(func(_ *rulebookv1.MicropulState, m *rulebookv1.Move) {
			m.Game = &rulebookv1.Move_Micropul{Micropul: &rulebookv1.MicropulMove{Action: &rulebookv1.MicropulMove_PlaceStone{
				PlaceStone: &rulebookv1.MicropulPlaceStone{Quadrant: 9}}}}
		}), "move.micropul.place_stone.quadrant"},
		{"kipicot board of 26 squares", kipicot(func(s *rulebookv1.KipicotState, _ *rulebookv1.Move) {
			s.Squares = append(s.Squares, &rulebookv1.KipicotSquare{})
		}), "state.kipicot.squares"},
		{"kipicot stack of 3", kipicot(func(s *rulebookv1.KipicotState, _ *rulebookv1.Move) {
			s.Squares[7].Tokens = []rulebookv1.KipicotColor{1, 2, 1}
		}), "state.kipicot.squares[7].tokens"},
		{"kipicot turn of 5 steps", kipicot(func(_ *rulebookv1.KipicotState, m *rulebookv1.Move) {
			steps := boundsMany[rulebookv1.KipicotStep](5)
			for i := range steps {
				steps[i] = &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Skip{Skip: &rulebookv1.KipicotSkip{}}}
			}
			m.Game = kipicotTurn(steps...).GetGame()
		}), "move.kipicot.turn.steps"},
		{"ubongo face 21", ubongo(func(s *rulebookv1.UbongoDuelState, _ *rulebookv1.Move) { s.Faces[0] = 21 }),
			"state.ubongo_duel.faces[0]"},
		{"ubongo sheet 10", ubongo(func(s *rulebookv1.UbongoDuelState, _ *rulebookv1.Move) { s.Sheet = 10 }),
			"state.ubongo_duel.sheet"},
		{"ubongo 3 faces", ubongo(func(s *rulebookv1.UbongoDuelState, _ *rulebookv1.Move) { s.Faces = []uint32{1, 2, 3} }),
			"state.ubongo_duel.faces"},
		{"ubongo 6 duels won", ubongo(func(s *rulebookv1.UbongoDuelState, _ *rulebookv1.Move) { s.Players[1].DuelsWon = 6 }),
			"state.ubongo_duel.players[1].duels_won"},
		{"ubongo long deck version", ubongo(func(s *rulebookv1.UbongoDuelState, _ *rulebookv1.Move) {
			s.DeckVersion = strings.Repeat("9", 33)
		}), "state.ubongo_duel.deck_version"},
		{"ubongo task side name", ubongo(func(s *rulebookv1.UbongoDuelState, _ *rulebookv1.Move) {
			s.Tasks = []*rulebookv1.UbongoDuelTask{{Face: 1, SideName: "C1"}}
		}), "state.ubongo_duel.tasks[0].side_name"},
		{"ubongo negative receive time", ubongo(func(s *rulebookv1.UbongoDuelState, _ *rulebookv1.Move) {
			s.LastReceivedAt = -1
		}), "state.ubongo_duel.last_received_at"},
		{"ubongo 22 placements", ubongo(func(_ *rulebookv1.UbongoDuelState, m *rulebookv1.Move) {
			placements := boundsMany[rulebookv1.UbongoDuelPlacement](22)
			for i := range placements {
				placements[i] = domino
			}
			m.Game = submit(placements...).GetGame()
		}), "move.ubongo_duel.submit.placements"},
		{"ubongo empty submission", ubongo(func(_ *rulebookv1.UbongoDuelState, m *rulebookv1.Move) {
			m.Game = submit().GetGame()
		}), "move.ubongo_duel.submit.placements"},
		{"ubongo piece V", ubongo(func(_ *rulebookv1.UbongoDuelState, m *rulebookv1.Move) {
			m.Game = submit(&rulebookv1.UbongoDuelPlacement{Piece: "V", Cells: domino.Cells}).GetGame()
		}), "move.ubongo_duel.submit.placements[0].piece"},
		{"ubongo placement of 7 cells", ubongo(func(_ *rulebookv1.UbongoDuelState, m *rulebookv1.Move) {
			cells := boundsMany[rulebookv1.UbongoDuelCell](7)
			m.Game = submit(&rulebookv1.UbongoDuelPlacement{Piece: "E", Cells: cells}).GetGame()
		}), "move.ubongo_duel.submit.placements[0].cells"},
		{"ubongo cell left of the shape", ubongo(func(_ *rulebookv1.UbongoDuelState, m *rulebookv1.Move) {
			m.Game = submit(&rulebookv1.UbongoDuelPlacement{Piece: "A", Cells: []*rulebookv1.UbongoDuelCell{{X: -1}}}).GetGame()
		}), "move.ubongo_duel.submit.placements[0].cells[0].x"},
		{"game id too long", &rulebookv1.NewGameRequest{Game: strings.Repeat("x", 33)}, "game"},
		{"shape of 257 cells", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(257, 1), Pieces: pentominoes}, "shape"},
		{"coordinate out of range", &rulebookv1.SolvePuzzleRequest{Shape: []*rulebookv1.PuzzleCell{{X: 1<<20 + 1}},
			Pieces: pentominoes}, "shape[0].x"},
		{"long set name", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2),
			Pieces: &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: strings.Repeat("p", 33)}}, "named_set"},
		{"65 selected", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2), Pieces: pentominoes,
			Select: slices.Repeat([]string{"F"}, 65)}, "select"},
		{"long selected name", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2), Pieces: pentominoes,
			Select: []string{strings.Repeat("F", 33)}}, "select[0]"},
		{"257 custom pieces", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2),
			Pieces: custom(boundsMany[rulebookv1.PuzzlePiece](257)...)}, "custom.pieces"},
		{"custom piece of 257 cells", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2),
			Pieces: custom(&rulebookv1.PuzzlePiece{Name: "big", Cells: servertest.Rect(257, 1)})}, "custom.pieces[0].cells"},
		{"long custom name", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2),
			Pieces: custom(&rulebookv1.PuzzlePiece{Name: strings.Repeat("n", 33)})}, "custom.pieces[0].name"},
		{"undefined goal", &rulebookv1.SolvePuzzleRequest{Shape: servertest.Rect(2, 2), Pieces: pentominoes, Goal: 9}, "goal"},
		{"replay of 20,001 moves", &rulebookv1.ReplayRequest{Game: "exploze", Setup: &rulebookv1.GameSetup{},
			Moves: boundsMany[rulebookv1.Move](20001)}, "moves"},
	}
	for _, tt := range invalid {
		t.Run("invalid/"+tt.name, func(t *testing.T) {
			err := v.Validate(tt.req)
			if err == nil {
				t.Fatalf("accepted, want a violation at %s", tt.field)
			}
			if paths := boundsViolations(t, err); !slices.Contains(paths, tt.field) {
				t.Errorf("violations at %v, want one at %s", paths, tt.field)
			}
		})
	}
}

// TestBoundsAcceptPlay plays seeded random games of every game to the end, under several options, and checks that
// every request a caller would send along the way passes the API's rules: at each ply ApplyMove and ValidateMove with
// the state and the move played, ListLegalMoves and Score with the state, GetView with each seat's view of it (a
// view is a state too), and at the end a Replay of the whole game from its setup. The games run in parallel; with
// go test -short, one seed of each setup and a fifth of the plies of a bounded one; at the long depth, twice the
// seeds.
func TestBoundsAcceptPlay(t *testing.T) {
	v := boundsValidator(t)
	setups := []struct {
		game  string
		opts  *rulebookv1.GameOptions
		seeds int
		plies int // plies to play at most; 0 means to the end of the game
	}{
		{"exploze", nil, 4, 0},
		{"exploze", &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{
			Rows: 2, Cols: 3, Players: 6}}}, 4, 0},
		{"exploze", &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{
			Rows: 5, Cols: 7, Players: 8}}}, 2, 0},
		{"exploze", &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{
			Rows: 12, Cols: 16, Players: 4}}}, 1, 0},
		{"exploze", &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{
			Rows: 32, Cols: 32, Players: 8}}}, 1, 300},
		{"micropul", nil, 4, 0},
		{"micropul", &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{Micropul: &rulebookv1.MicropulOptions{
			Players: 1, RuleSet: rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_ORIGINAL_2004}}}, 3, 0},
		{"kipicot", nil, 4, 0},
		{"kipicot", &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Kipicot{Kipicot: &rulebookv1.KipicotOptions{
			WholeStackMoves: true, PawnMayStay: true, AntiStallRounds: proto.Int32(10), EndThreshold: proto.Int32(5)}}}, 3, 0},
		{"ubongo-duel", nil, 3, 0},
		{"ubongo-duel", &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_UbongoDuel{
			UbongoDuel: &rulebookv1.UbongoDuelOptions{Side: rulebookv1.UbongoDuelSide_UBONGO_DUEL_SIDE_B, TieWindowMs: 10000,
				CatchUp: true}}}, 3, 0},
	}
	for i, setup := range setups {
		g := boundsGames[setup.game]
		seeds, plies := enginetest.ByDepth(1, setup.seeds, 2*setup.seeds), setup.plies
		if testing.Short() {
			plies /= 5
		}
		for seed := range uint64(seeds) {
			name := fmt.Sprintf("%s/setup%d/seed%d", setup.game, i, seed)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				boundsPlay(t, v, g, setup.game, setup.opts, seed, plies)
			})
		}
	}
}

// boundsPlay plays one random game and validates the requests of every ply (see TestBoundsAcceptPlay).
func boundsPlay(t *testing.T, v protovalidate.Validator, g engine.Game, game string, opts *rulebookv1.GameOptions,
	seed uint64, maxPlies int) {
	check := func(ply int, req proto.Message) {
		t.Helper()
		if err := v.Validate(req); err != nil {
			t.Fatalf("ply %d: %T refused: %v", ply, req, err)
		}
	}
	players := int32(g.Info().GetMaxPlayers())
	pos, err := g.New(opts, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 42))
	now := time.Unix(1_700_000_000, 0)
	var played []*rulebookv1.Move
	const limit = 20000
	for ply := 0; ; ply++ {
		state := pos.Encode()
		check(ply, &rulebookv1.ScoreRequest{Game: game, State: state})
		check(ply, &rulebookv1.ListLegalMovesRequest{Game: game, State: state})
		for viewer := range players + 1 {
			view, err := pos.View(engine.Player(viewer))
			if err != nil {
				continue // a player the options leave out
			}
			check(ply, &rulebookv1.GetViewRequest{Game: game, State: view.Encode(), Viewer: viewer})
		}
		moves, err := pos.Legal(engine.NoPlayer)
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		if solutions := boundsUbongoSolutions(t, state); len(solutions) > 0 && rng.IntN(4) > 0 {
			moves = solutions // Legal never lists solutions: submit the deck's witness, most of the time
		}
		if len(moves) == 0 || ply == limit || (maxPlies > 0 && ply == maxPlies) {
			if maxPlies == 0 && len(moves) > 0 {
				t.Errorf("no end after %d plies", ply)
			}
			break
		}
		move := moves[rng.IntN(len(moves))]
		if game == ubongoduel.GameID { // a race, whose moves carry the time they are received
			now = now.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
			if at := time.Unix(0, move.GetUbongoDuel().GetReceivedAt()); at.After(now) {
				now = at // the earliest time the move is legal, such as the close of a tie window
			}
		}
		move = pos.Receive(move, now)
		check(ply, &rulebookv1.ApplyMoveRequest{Game: game, State: state, Move: move})
		check(ply, &rulebookv1.ValidateMoveRequest{Game: game, State: state, Move: move})
		next, _, err := pos.Apply(move)
		if err != nil {
			t.Fatalf("ply %d: a legal move refused: %v", ply, err)
		}
		played = append(played, move)
		pos = next
	}
	check(len(played), &rulebookv1.ReplayRequest{Game: game, Setup: &rulebookv1.GameSetup{Options: opts, Seed: seed},
		Moves: played})
}

// boundsUbongoSolutions returns, for an Ubongo Duel state, a submission of the deck's witness solution for each
// player who has a task to solve; none for the other games.
func boundsUbongoSolutions(t testing.TB, state *rulebookv1.GameState) []*rulebookv1.Move {
	m := state.GetUbongoDuel()
	if m == nil {
		return nil
	}
	s, err := ubongoduel.FromProto(m)
	if err != nil {
		t.Fatal(err)
	}
	var moves []*rulebookv1.Move
	for p := engine.Player(1); p <= ubongoduel.Players; p++ {
		if task, _, ok := s.CurrentTask(p); ok {
			moves = append(moves, ubongoduel.Move{Player: p, Action: ubongoduel.Submit, Placements: task.Witness}.Proto())
		}
	}
	return moves
}

// TestEngineChecksStateItems checks the items of a state that the API's rules leave to the engine, which checks every
// one as it decodes the state (a rule on each would walk the whole board once more): the engine's reason, at the
// item's field.
func TestEngineChecksStateItems(t *testing.T) {
	s := newService(t, true)
	ctx := context.Background()
	for _, tt := range []struct {
		name          string
		edit          func(*rulebookv1.ExplozeState)
		reason, field string
	}{
		{"exploze owner 9", func(s *rulebookv1.ExplozeState) { s.Owners[3] = 9 }, "OWNER_OUT_OF_RANGE", "state.exploze.owners[3]"},
		{"exploze owner -1", func(s *rulebookv1.ExplozeState) { s.Owners[3] = -1 }, "OWNER_OUT_OF_RANGE", "state.exploze.owners[3]"},
		{"exploze stones past the longest game", func(s *rulebookv1.ExplozeState) { s.Stones[0] = 2946 },
			"STONES_OUT_OF_RANGE", "state.exploze.stones[0]"},
		{"exploze stones a cell short", func(s *rulebookv1.ExplozeState) { s.Stones = s.Stones[1:] },
			"BOARD_SIZE_MISMATCH", "state.exploze.stones"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			game, err := s.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze"})
			if err != nil {
				t.Fatal(err)
			}
			tt.edit(game.GetState().GetExploze())
			_, err = s.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", State: game.GetState(), Move: servertest.ExplozeMove(1)})
			if _, reason := reasonOf(err); reason != tt.reason || fieldOf(err) != tt.field {
				t.Errorf("ApplyMove: %v (reason %s at %s), want %s at %s", err, reason, fieldOf(err), tt.reason, tt.field)
			}
		})
	}
}
