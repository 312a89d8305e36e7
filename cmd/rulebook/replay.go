package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// replay is `rulebook replay GAME [-seal] [-pass PASS] < RECORD`: the game where a record leads, as a document
// with every move's events ("steps") and the score. RECORD is the game the record starts from, as new prints it,
// then the moves, each in a document with a "move", as apply prints them: `cat new.json 1.json 2.json` for a game
// played in files. When every move comes with the token it led to (a game played with tokens), Replay audits the
// game, whose moves may be any seat's; without tokens, it plays the moves as apply would, one by one, so that with
// a token they must all be the moves of the caller's seat. A move refused is reported as apply would report it,
// after the game up to the move before it.
func replay(fs *flag.FlagSet) action {
	seal := fs.Bool("seal", false, "for a record that starts from a plain state: answer with a token and seat passes")
	pass := passFlag(fs)
	return func(ctx context.Context, e *env) error {
		start, moves, err := readRecord(e.stdin)
		if err != nil {
			return err
		}
		start.pass = *pass
		req := &rulebookv1.ReplayRequest{Game: e.game, State: start.state, Token: start.token,
			SeatPass: start.passFor(0), Seal: *seal}
		for _, m := range moves {
			req.Moves = append(req.Moves, m.move)
			if m.token != "" {
				req.Tokens = append(req.Tokens, m.token)
			}
		}
		if len(req.Tokens) > 0 && len(req.Tokens) != len(req.Moves) {
			return errors.New("some moves of the record come with a token and some do not: give every move's token, for an audit, or none")
		}
		resp, err := e.client.Replay(ctx, req)
		if err != nil {
			return err
		}
		if err := writeDocument(e.stdout, start.replayed(resp)); err != nil {
			return err
		}
		if r := resp.GetRefusal(); r != nil {
			return refusalError(r)
		}
		return nil
	}
}

// refusalError returns the refusal of a record's move as the error ApplyMove would have given, its message prefixed
// with the move's place in the record.
func refusalError(r *rulebookv1.MoveRefusal) error {
	details := []protoadapt.MessageV1{&errdetails.ErrorInfo{Reason: r.GetReason(), Domain: "rulebook", Metadata: r.GetFacts()}}
	if r.GetField() != "" {
		violation := &errdetails.BadRequest_FieldViolation{Field: r.GetField(), Description: r.GetMessage(), Reason: r.GetReason()}
		details = append(details, &errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{violation}})
	}
	message := fmt.Sprintf("moves[%d] of the record: %s", r.GetIndex(), r.GetMessage())
	st, err := status.New(codes.Code(r.GetCode()), message).WithDetails(details...)
	if err != nil {
		return err
	}
	return st.Err()
}
