package service_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestApplyMoveAnswersTheRecordedMove turns Micropul's tile 46 (WWWW, the same at every quarter turn) three quarter
// turns: ApplyMove plays it and answers the move as the game records it, at rotation 0, leaving the request alone.
func TestApplyMoveAnswersTheRecordedMove(t *testing.T) {
	hands := [][]int{{46}, {47}}
	var core []int
	for id := range micropul.NumTiles {
		if id != micropul.StartTile && id != 46 && id != 47 {
			core = append(core, id)
		}
	}
	s, err := micropul.NewState(micropul.Position{Options: micropul.DefaultOptions(),
		Board: []micropul.Placed{{Tile: micropul.StartTile}}, Hands: hands, Supplies: [][]int{{}, core[35:]},
		Core: core[:35], ToMove: 1})
	if err != nil {
		t.Fatal(err)
	}
	sent := micropul.Move{Player: 1, Action: micropul.PlaceTile, Tile: 46, At: micropul.Coord{Y: -1}}.Proto()
	sent.GetMicropul().GetPlaceTile().Rotation = 3
	req := &rulebookv1.ApplyMoveRequest{Game: micropul.GameID,
		State: &rulebookv1.GameState{Game: &rulebookv1.GameState_Micropul{Micropul: s.Proto()}}, Move: sent}
	before := proto.Clone(req)
	resp, err := newService(t, true).ApplyMove(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if r := resp.GetMove().GetMicropul().GetPlaceTile().GetRotation(); r != 0 {
		t.Errorf("the move answered has rotation %d, want 0", r)
	}
	if board := resp.GetState().GetMicropul().GetBoard(); board[len(board)-1].GetRotation() != 0 {
		t.Errorf("the board records rotation %d, want 0", board[len(board)-1].GetRotation())
	}
	if !proto.Equal(req, before) {
		t.Errorf("ApplyMove changed its request")
	}
}
