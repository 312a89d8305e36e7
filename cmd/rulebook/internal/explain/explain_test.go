package explain

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine/enginetest"
	"github.com/rulebook/rulebook/engine/hosted"
)

// refusal returns a status as the service refuses with: the code, the message, and an ErrorInfo of the reason and
// facts.
func refusal(t *testing.T, code codes.Code, message, reason string, facts map[string]string) error {
	t.Helper()
	st, err := status.New(code, message).WithDetails(&errdetails.ErrorInfo{Reason: reason, Domain: "rulebook", Metadata: facts})
	if err != nil {
		t.Fatal(err)
	}
	return st.Err()
}

// TestRefusal words refusals of every game with the facts the engines give, and falls back on the server's message
// for a reason without a sentence or with a fact missing.
func TestRefusal(t *testing.T) {
	illegal := codes.FailedPrecondition
	tests := []struct {
		game, reason string
		facts        map[string]string
		want         string
	}{
		{"exploze", "CELL_OWNED_BY_OPPONENT", map[string]string{"row": "2", "col": "2", "owner": "2"},
			"c3 holds player 2's stones: you may only add a stone to your own cells or an empty one."},
		{"exploze", "CELL_OFF_BOARD", map[string]string{"row": "6", "col": "0", "rows": "6", "cols": "6"},
			"a7 is off the board, which has 6 rows and 6 columns."},
		{"exploze", "GAME_OVER", map[string]string{"winner": "1"}, "The game is over: player 1 won."},
		{"exploze", "NOT_YOUR_TURN", map[string]string{"player": "2", "toMove": "1"},
			"It is player 1's turn, not player 2's."},
		{"kipicot", "GAME_OVER", map[string]string{}, "The game is over."},
		{"kipicot", "WRONG_PHASE", map[string]string{"kind": "pawn", "phase": "action"},
			"A pawn step does not belong here: the turn is at step 2, a placement or a token move."},
		{"kipicot", "NO_TOKEN", map[string]string{"fromRow": "0", "fromCol": "1", "toRow": "0", "toCol": "2"},
			"b1 holds no token to move."},
		{"kipicot", "TOKEN_FROZEN", map[string]string{"fromRow": "0", "fromCol": "1", "toRow": "0", "toCol": "2",
			"pawn": "2"}, "Player 2's pawn stands on b1: its tokens cannot move or take a token."},
		{"kipicot", "TOKEN_FROZEN", map[string]string{"color": "red", "row": "4", "col": "4", "pawn": "1"},
			"Player 1's pawn stands on e5: its tokens cannot move or take a token."},
		{"kipicot", "SINGLE_MOVES_ONE_STEP", map[string]string{"fromRow": "0", "fromCol": "0", "toRow": "2",
			"toCol": "0"}, "a1 to a3: a single token moves one square up, down, left or right."},
		{"kipicot", "STACK_NEEDS_OTHER_COLOR", map[string]string{"color": "Red", "row": "1", "col": "1"},
			"b2 holds a red token: a token is stacked only on one of the other colour."},
		{"kipicot", "TURN_ALREADY_OVER", map[string]string{"step": "2"}, "Step 3 comes after the end of the turn."},
		{"kipicot", "PLACEMENT_REQUIRED", map[string]string{"turnsWithoutPlacement": "6", "antiStallRounds": "3"},
			"6 turns in a row placed no token: this step 2 must place one from the supply."},
		{"micropul", "COLOR_CONFLICT", map[string]string{"tile": "12", "x": "1", "y": "-1", "rotation": "1",
			"quadrant": "TR", "neighbourX": "1", "neighbourY": "0", "neighbourQuadrant": "BR"},
			"Tile 12 at 1,-1 turned r1: its tr micropul would touch a micropul of the other colour at 1,0 br."},
		{"micropul", "TILE_NOT_IN_HAND", map[string]string{"tile": "7"}, "Tile 7 is not in your hand."},
		{"micropul", "GROUP_HAS_STONE", map[string]string{"x": "0", "y": "0", "quadrant": "TL", "owner": "2"},
			"The group of 0,0 tl already carries player 2's stone."},
		{"ubongo-duel", "WRONG_PIECE", map[string]string{"piece": "Q", "placement": "0", "task": "ABDU"},
			"Piece Q is not in this task, whose pieces are A, B, D and U."},
		{"ubongo-duel", "PIECE_MISSING", map[string]string{"missing": "D", "uncovered": "5"},
			"Pieces D of the task are not placed."},
		{"ubongo-duel", "OVERLAP", map[string]string{"piece": "B", "other": "A", "x": "1", "y": "0"},
			"Pieces A and B both cover b1."},
		{"ubongo-duel", "NOT_YOUR_SEAT", map[string]string{"asked": "2", "seat": "1", "field": "move.player"},
			"Your pass is for seat 1: you may not act for player 2."},
		{"ubongo-duel", "NOT_YOUR_SEAT", map[string]string{"asked": "2", "seat": "0", "field": "move.player"},
			"Without a seat pass you are a spectator, who may not act for player 2."},
		{"exploze", "CELL_OWNED_BY_OPPONENT", map[string]string{"row": "2"}, "The server's message."},
		{"exploze", "NEW_REASON", nil, "The server's message."},
	}
	for _, tt := range tests {
		t.Run(tt.game+" "+tt.reason, func(t *testing.T) {
			got := Refusal(tt.game, refusal(t, illegal, "the server's message", tt.reason, tt.facts))
			if got != tt.want {
				t.Errorf("Refusal = %q, want %q", got, tt.want)
			}
		})
	}
	if got := Refusal("exploze", status.Error(codes.Unavailable, "connection refused")); got != "Connection refused." {
		t.Errorf("a status without details: %q", got)
	}
	if got := Refusal("exploze", errors.New("no move")); got != "No move." {
		t.Errorf("an error that is no status: %q", got)
	}
	if got := Refusal("exploze", status.Error(codes.Unknown, "")); got != "The server refused without saying why." {
		t.Errorf("an empty message: %q", got)
	}
}

// TestReasonsDeclared checks that every game worded is hosted, and every reason worded for it is one its engine
// (engine/<id without dashes>) declares, so that a renamed reason or game cannot leave a sentence behind.
func TestReasonsDeclared(t *testing.T) {
	for game, words := range sentences {
		if _, ok := hosted.NotationOf(game); !ok {
			t.Errorf("sentences of %q, a game not hosted", game)
			continue
		}
		var codes []string
		dir := strings.ReplaceAll(game, "-", "")
		for _, r := range enginetest.Reasons(t, filepath.Join("..", "..", "..", "..", "engine", dir, "reasons.go")) {
			codes = append(codes, r.Code)
		}
		for reason := range words {
			if !slices.Contains(codes, reason) {
				t.Errorf("%s: reason %s is not declared in its reasons.go", game, reason)
			}
		}
	}
}
