package service

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestApplyMoveWireFields checks what ApplyMoveWire assumes of ApplyMoveResponse against its descriptor: the
// numbers of the state and the view, and that events and token are numbered below the view and move and event
// counts above it, with no other field.
func TestApplyMoveWireFields(t *testing.T) {
	fields := (&rulebookv1.ApplyMoveResponse{}).ProtoReflect().Descriptor().Fields()
	want := []struct {
		name protoreflect.Name
		num  protowire.Number
	}{{"state", fieldApplyMoveState}, {"events", 2}, {"token", 3}, {"view", fieldApplyMoveView}, {"move", 5},
		{"event_counts", 6}}
	if fields.Len() != len(want) {
		t.Errorf("ApplyMoveResponse has %d fields; ApplyMoveWire writes %d", fields.Len(), len(want))
	}
	for _, w := range want {
		if fd := fields.ByName(w.name); fd == nil || fd.Number() != w.num {
			t.Errorf("ApplyMoveResponse.%s: %v; ApplyMoveWire takes it as field %d", w.name, fd, w.num)
		}
	}
}
