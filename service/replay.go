package service

import (
	"context"
	"crypto/rand"
	"errors"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service/seal"
)

// Replay re-applies a game's record and returns where it leads: the last state reached (plain, or as a token and a
// view), each move's events, the standings, and the first move refused. It checks the call's deadline between moves.
// See ReplayRequest for the kinds of record and what each allows.
func (s *Service) Replay(ctx context.Context, req *rulebookv1.ReplayRequest) (*rulebookv1.ReplayResponse, error) {
	h, err := s.replayStart(req)
	if err != nil {
		return nil, err
	}
	audit := len(req.GetTokens()) > 0
	if audit && (req.GetToken() == "" || len(req.GetTokens()) != len(req.GetMoves())) {
		return nil, fieldError(ReasonRecordTokens, "tokens", "tokens go with a token, one per move")
	}
	batch := h.sealed && req.GetToken() != "" && !audit // the caller's own moves, as ApplyMove plays them
	resp := &rulebookv1.ReplayResponse{}
	state, token := h.state, req.GetToken()
	for i, m := range req.GetMoves() {
		if err := ctx.Err(); err != nil {
			return nil, status.FromContextError(err).Err()
		}
		if batch {
			if err := h.checkMover(m); err != nil {
				resp.Refusal = statusRefusal(i, err)
				break
			}
			m = s.stamp(held{g: h.g, state: state}, m)
		}
		next, events, err := h.g.Apply(state, m)
		if audit && (err == nil && !s.recorded(h, req.GetTokens()[i], next) ||
			err != nil && engine.Player(m.GetPlayer()) != h.seat) {
			// Why another seat's move fails could tell what that seat holds: an audit only says where it fails.
			resp.Refusal = &rulebookv1.MoveRefusal{Index: int32(i), Code: int32(codes.FailedPrecondition),
				Reason: ReasonRecordMismatch, Message: "the move does not lead to the state of the record's next token",
				Field: "tokens[" + strconv.Itoa(i) + "]"}
			break
		}
		if err != nil {
			if resp.Refusal = refusal(i, err); resp.Refusal == nil {
				return nil, s.refuse("Replay", err)
			}
			break
		}
		if audit {
			token = req.GetTokens()[i]
		}
		if h.sealed {
			events = h.g.ViewEvents(events, h.seat)
		}
		resp.Steps = append(resp.Steps, &rulebookv1.ReplayStep{Events: events})
		state = next
	}
	if resp.Score, err = h.g.Score(state); err != nil {
		return nil, s.refuse("Replay", err)
	}
	if !h.sealed {
		resp.State = state
		return resp, nil
	}
	sealed, view, err := s.answer(h, state)
	if err != nil {
		return nil, err
	}
	resp.Token, resp.View = sealed, view
	if audit { // the record's own token of the last state reached: the same game, as every seat holds it
		resp.Token = token
	}
	if req.GetToken() == "" { // a sealed setup or plain state starts a new table, whose passes go with it
		resp.SeatPasses = h.passes()
	}
	return resp, nil
}

// recorded reports whether token, a record's token, holds exactly state at h's table.
func (s *Service) recorded(h held, token string, state *rulebookv1.GameState) bool {
	table, bytes, err := s.cfg.Keys.Open(h.game, token)
	if err != nil || table != h.table {
		return false
	}
	opened := &rulebookv1.GameState{}
	return proto.Unmarshal(bytes, opened) == nil && proto.Equal(opened, state)
}

// replayStart opens where a record starts: a setup or a plain state (on a server that accepts plain states; sealed
// at a new table if asked), or a token.
func (s *Service) replayStart(req *rulebookv1.ReplayRequest) (held, error) {
	if req.GetSetup() == nil {
		h, err := s.hold(req, req.GetGame(), req.GetState(), req.GetToken(), req.GetSeatPass())
		if err != nil || h.sealed || !req.GetSeal() {
			return h, err
		}
		return s.newTable(h)
	}
	g, err := s.start(req, req.GetGame())
	if err != nil {
		return held{}, err
	}
	if !s.cfg.AcceptPlainStates {
		return held{}, plainStateRefused()
	}
	state, err := g.New(req.GetSetup().GetOptions(), req.GetSetup().GetSeed())
	if err != nil {
		return held{}, s.refuse("Replay", engine.WithinField(err, "setup"))
	}
	h := held{g: g, game: req.GetGame(), state: state}
	if !req.GetSeal() {
		return h, nil
	}
	return s.newTable(h)
}

// newTable returns h sealed at a new table, seen by a spectator.
func (s *Service) newTable(h held) (held, error) {
	table, err := seal.NewTable(rand.Reader)
	if err != nil {
		return held{}, s.internal("Replay", err)
	}
	h.sealed, h.table, h.seat = true, table, engine.NoPlayer
	return h, nil
}

// statusRefusal describes the refusal, by the service, of move index of a record.
func statusRefusal(index int, err error) *rulebookv1.MoveRefusal {
	st := status.Convert(err)
	r := &rulebookv1.MoveRefusal{Index: int32(index), Code: int32(st.Code()), Message: st.Message()}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			r.Reason, r.Facts = info.GetReason(), info.GetMetadata()
		}
	}
	if field := r.Facts["field"]; field != "" {
		r.Field = "moves[" + strconv.Itoa(index) + "]" + strings.TrimPrefix(field, "move")
	}
	return r
}

// refusal describes the refusal of move index of a record, or returns nil if err is not a refusal but a failure.
func refusal(index int, err error) *rulebookv1.MoveRefusal {
	var e *engine.Error
	if !errors.As(err, &e) {
		return nil
	}
	code := codes.InvalidArgument
	switch e.Kind {
	case engine.Illegal:
		code = codes.FailedPrecondition
	case engine.Invalid:
	default:
		return nil
	}
	field := e.Field
	if rest, ok := strings.CutPrefix(field, "move"); ok {
		field = "moves[" + strconv.Itoa(index) + "]" + rest
	}
	return &rulebookv1.MoveRefusal{Index: int32(index), Code: int32(code), Reason: e.Reason, Message: e.Message,
		Field: field, Facts: e.Facts}
}
