package service

import (
	"errors"
	"fmt"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine"
)

// TestToStatus checks how each kind of engine error reaches the caller.
func TestToStatus(t *testing.T) {
	facts := map[string]string{"row": "1", "col": "2"}
	tests := []struct {
		name         string
		err          error
		wantCode     codes.Code
		wantReason   string
		wantField    string
		wantInternal bool
	}{
		{"invalid", engine.Invalidf("CELL_OFF_BOARD", "move.exploze.row", facts, "off the board"),
			codes.InvalidArgument, "CELL_OFF_BOARD", "move.exploze.row", false},
		{"illegal", engine.Illegalf("NOT_YOUR_TURN", facts, "not your turn"),
			codes.FailedPrecondition, "NOT_YOUR_TURN", "", false},
		{"wrapped illegal", fmt.Errorf("context: %w", engine.Illegalf("GAME_OVER", nil, "over")),
			codes.FailedPrecondition, "GAME_OVER", "", false},
		{"plain error", errors.New("disk on fire"), codes.Internal, ReasonInternal, "", true},
		{"engine error of no kind", &engine.Error{Reason: "ODD", Message: "odd"}, codes.Internal, ReasonInternal, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err, internal := toStatus(tt.err)
			if internal != tt.wantInternal {
				t.Errorf("internal = %v, want %v", internal, tt.wantInternal)
			}
			st := status.Convert(err)
			if st.Code() != tt.wantCode {
				t.Errorf("code %v, want %v", st.Code(), tt.wantCode)
			}
			var reason, field string
			var metadata map[string]string
			for _, d := range st.Details() {
				switch d := d.(type) {
				case *errdetails.ErrorInfo:
					reason, metadata = d.GetReason(), d.GetMetadata()
				case *errdetails.BadRequest:
					field = d.GetFieldViolations()[0].GetField()
				}
			}
			if reason != tt.wantReason || field != tt.wantField {
				t.Errorf("reason %q field %q, want %q %q", reason, field, tt.wantReason, tt.wantField)
			}
			if tt.wantInternal && (st.Message() != "internal error" || len(metadata) != 0) {
				t.Errorf("an internal error tells the caller %q %v", st.Message(), metadata)
			}
			if tt.name == "invalid" && metadata["row"] != "1" {
				t.Errorf("metadata %v lacks the facts", metadata)
			}
		})
	}
}
