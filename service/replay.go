package service

import (
	"context"
	"crypto/rand"
	"errors"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/service/seal"
)

// Replay re-applies a game's record and returns where it leads: the last state reached (plain, or as a token and a
// view), each move's events, the standings, and the first move refused. It checks the call's deadline between moves.
// See ReplayRequest for the kinds of record and what each allows.
func (s *Service) Replay(ctx context.Context, req *rulebookv1.ReplayRequest) (*rulebookv1.ReplayResponse, error) {
	h, err := s.replayStart(ctx, req)
	if err != nil {
		return nil, err
	}
	record, err := s.openRecord(h, req)
	if err != nil {
		return nil, err
	}
	batch := h.sealed && req.GetToken() != "" && record == nil // the caller's own moves, as ApplyMove plays them
	resp := &rulebookv1.ReplayResponse{}
	state, token := h.pos, req.GetToken()
	for i, m := range req.GetMoves() {
		if err := ctx.Err(); err != nil {
			return nil, status.FromContextError(err).Err()
		}
		if batch {
			if err := h.checkMover(m); err != nil {
				resp.Refusal = statusRefusal(i, err)
				break
			}
			m = s.receive(state, m)
		}
		next, events, err := state.Apply(m)
		if record != nil && !record.leadsTo(i, next, err, engine.Player(m.GetPlayer()) == h.seat) {
			resp.Refusal = &rulebookv1.MoveRefusal{Index: int32(i), Code: int32(codes.FailedPrecondition),
				Reason: ReasonRecordMismatch, Message: "the move does not lead to the state of the record's next token",
				Field: "tokens[" + strconv.Itoa(i) + "]"}
			break
		}
		if err != nil {
			if resp.Refusal = moveRefusal(i, err); resp.Refusal == nil {
				return nil, s.refuse("Replay", err)
			}
			break
		}
		s.cfg.Observer.MoveApplied(h.game, events)
		if record != nil {
			token = req.GetTokens()[i]
		}
		if h.sealed {
			events = state.ViewEvents(events, h.seat)
		}
		step := &rulebookv1.ReplayStep{}
		step.Events, step.EventCounts = eventsAs(req.GetEvents(), events)
		resp.Steps = append(resp.Steps, step)
		state = next
	}
	resp.Score = state.Score()
	switch {
	case !h.sealed:
		resp.State = state.Encode()
	case record != nil: // the record's own token of the last state reached: the same game, as every seat holds it
		resp.Token = token
		view, err := state.View(h.seat)
		if err != nil {
			return nil, s.refuse("Replay", err)
		}
		resp.View = view.Encode()
	default:
		if resp.Token, resp.View, err = s.sealWithView(h, state); err != nil {
			return nil, err
		}
	}
	if h.sealed && req.GetToken() == "" { // a sealed setup or plain state starts a new table, whose passes go with it
		resp.SeatPasses = h.passes()
	}
	return resp, nil
}

// record is an audit's record: the state each of its tokens holds, nil for a token that does not open as a state of
// the game's table.
type record struct {
	states []engine.Position
}

// openRecord opens every token of an audit's record (nil if req is no audit) before any move is tried, so that how
// long the audit takes does not depend on whether another seat's move succeeds. A record with moves of other seats
// than the caller's must end with the game over: before that, whether their moves succeed would tell what they hold.
func (s *Service) openRecord(h openedGame, req *rulebookv1.ReplayRequest) (*record, error) {
	tokens := req.GetTokens()
	if len(tokens) == 0 {
		return nil, nil
	}
	if req.GetToken() == "" || len(tokens) != len(req.GetMoves()) {
		return nil, refusal.Field(ReasonRecordTokens, "tokens", "tokens go with a token, one per move")
	}
	r := &record{states: make([]engine.Position, len(tokens))}
	for i, token := range tokens {
		c, pos, err := s.openToken(h, token)
		if err == nil && c.Table == h.table {
			r.states[i] = pos
		}
	}
	others := slices.ContainsFunc(req.GetMoves(), func(m *rulebookv1.Move) bool { return engine.Player(m.GetPlayer()) != h.seat })
	if others && !r.finished() {
		return nil, refusal.New(codes.FailedPrecondition, ReasonRecordUnfinished,
			"an audit of other seats' moves needs a record whose last token holds the game over", nil)
	}
	return r, nil
}

// finished reports whether the record's last token holds a game that is over.
func (r *record) finished() bool {
	last := r.states[len(r.states)-1]
	return last != nil && last.Score().GetGameOver()
}

// leadsTo reports whether move i of the record, which Apply answered with next or err, matches the record: it
// succeeded and leads to the state of token i, or it is the caller's own move and failed (the refusal then says why:
// the caller knows its own hand).
func (r *record) leadsTo(i int, next engine.Position, err error, own bool) bool {
	if err != nil {
		return own
	}
	return r.states[i] != nil && proto.Equal(next.Encode(), r.states[i].Encode())
}

// replayStart opens where a record starts: a setup or a plain state (on a server that accepts plain states; sealed
// at a new table if asked), or a token.
func (s *Service) replayStart(ctx context.Context, req *rulebookv1.ReplayRequest) (openedGame, error) {
	if req.GetSeal() && req.GetToken() != "" {
		return openedGame{}, refusal.Field(ReasonConflictingFields, "seal", "seal goes with a setup or a plain state, not with a token")
	}
	if req.GetSetup() == nil {
		h, err := s.openGame(ctx, req, req.GetGame(), req.GetState(), req.GetToken(), req.GetSeatPass())
		if err != nil || h.sealed || !req.GetSeal() {
			return h, err
		}
		return s.newTable(h)
	}
	g, err := s.engineFor(req, req.GetGame())
	if err != nil {
		return openedGame{}, err
	}
	if !s.trusts(ctx) {
		return openedGame{}, plainStateRefused()
	}
	if req.GetSeatPass() != "" {
		return openedGame{}, refusal.Field(ReasonPassWithoutToken, "seatPass", "a seat pass goes with a token, not with a setup")
	}
	pos, err := g.New(req.GetSetup().GetOptions(), req.GetSetup().GetSeed())
	if err != nil {
		return openedGame{}, s.refuse("Replay", engine.WithinField(err, "setup"))
	}
	h := openedGame{g: g, game: req.GetGame(), pos: pos, trusted: true, chosen: true}
	if !req.GetSeal() {
		return h, nil
	}
	return s.newTable(h)
}

// newTable returns h sealed at a new table, seen by a spectator.
func (s *Service) newTable(h openedGame) (openedGame, error) {
	table, err := seal.NewTable(rand.Reader)
	if err != nil {
		return openedGame{}, s.internal("Replay", err)
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

// moveRefusal describes the refusal of move index of a record, or returns nil if err is not a refusal but a failure.
func moveRefusal(index int, err error) *rulebookv1.MoveRefusal {
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
	} else if field != "" { // the record's start is at fault, not its move: the call itself is refused
		return nil
	}
	return &rulebookv1.MoveRefusal{Index: int32(index), Code: int32(code), Reason: e.Reason, Message: e.Message,
		Field: field, Facts: e.Facts}
}
