package service

import (
	"context"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// The field numbers of ApplyMoveResponse's state and view, which ApplyMoveWire writes from their wire forms; the
// fields numbered below the view's (events, token) come before it, the others (move, event counts) after it.
// TestApplyMoveWireFields checks them against the descriptor.
const (
	fieldApplyMoveState protowire.Number = 1
	fieldApplyMoveView  protowire.Number = 4
)

// ApplyMoveWire is ApplyMove answering the wire form of its ApplyMoveResponse, byte for byte what protobuf's
// deterministic encoding of ApplyMove's answer gives, for the gRPC server to send as it is. The answer's state or view
// is written by its game (engine.ApplyWire, engine.ApplyHeldWire), without the message of each of its parts that
// encoding it as a message would build (a 32 x 32 Exploze board is 1,024 of them). Its refusals are ApplyMove's.
func (s *Service) ApplyMoveWire(ctx context.Context, req *rulebookv1.ApplyMoveRequest) ([]byte, error) {
	a, err := s.applyMove(ctx, req, true)
	if err != nil {
		return nil, err
	}
	r := a.resp
	b := appendBytesField(nil, fieldApplyMoveState, a.state)
	// A message's deterministic encoding is its fields in number order, so the encodings of the fields before the
	// view, the view, and the fields after it, one after the other, are the encoding of the whole answer.
	opts := proto.MarshalOptions{Deterministic: true}
	if b, err = opts.MarshalAppend(b, &rulebookv1.ApplyMoveResponse{Events: r.Events, Token: r.Token}); err != nil {
		return nil, s.internal("ApplyMove", err)
	}
	b = appendBytesField(b, fieldApplyMoveView, a.view)
	if b, err = opts.MarshalAppend(b, &rulebookv1.ApplyMoveResponse{Move: r.Move, EventCounts: r.EventCounts}); err != nil {
		return nil, s.internal("ApplyMove", err)
	}
	return b, nil
}

// appendBytesField appends field num holding v, the wire form of a message, to b; nothing if v is nil (the field is
// not set).
func appendBytesField(b []byte, num protowire.Number, v []byte) []byte {
	if v == nil {
		return b
	}
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
}
