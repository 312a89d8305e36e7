package service

import (
	"context"
	"errors"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/service/seal"
)

// openedGame is a game as a request brings it: a plain state from a trusted caller, or a state opened from a token,
// with the seat its seat pass proves (NoPlayer: a spectator). An opened token's state is held, in the form the
// engine packed it (engine.Pack), and state is its envelope, nil when only held was asked for (see openHeld).
type openedGame struct {
	g      engine.Game
	game   string
	state  *rulebookv1.GameState
	held   []byte
	sealed bool
	table  seal.Table
	seat   engine.Player
	// trusted is set when the caller may hold plain states: it may open tokens of seal.ScopePlain.
	trusted bool
	// chosen is set when the state is one a caller chose, or may have: a plain state, a state dealt from a chosen
	// seed, or one opened from a token of seal.ScopePlain. Its tokens are of seal.ScopePlain.
	chosen bool
}

// engineFor checks req's structure and finds the engine of the game it names.
func (s *Service) engineFor(req proto.Message, game string) (engine.Game, error) {
	if err := s.validate(req); err != nil {
		return nil, err
	}
	return s.game(game)
}

// openGame checks req's structure and opens the game it brings: the plain state (if the server accepts plain
// states), or the token and the seat pass, with the token's state unpacked into its envelope.
func (s *Service) openGame(ctx context.Context, req proto.Message, game string, state *rulebookv1.GameState, token, pass string) (openedGame,
	error) {
	h, err := s.openHeld(ctx, req, game, state, token, pass)
	if err != nil || h.state != nil {
		return h, err
	}
	if h.state, err = engine.Unpack(h.g, h.held); err != nil {
		return openedGame{}, s.internal("open token", err) // a token the service sealed always holds a state
	}
	return h, nil
}

// openHeld opens the game req brings as openGame does, but leaves a token's state held (state nil), for
// engine.ApplyHeld: except in a Clocked game, whose moves are stamped with what its state has recorded. A token of
// seal.ScopePlain opens only for a caller that may hold plain states, or if the service accepts plain-scoped tokens.
func (s *Service) openHeld(ctx context.Context, req proto.Message, game string, state *rulebookv1.GameState, token, pass string) (openedGame,
	error) {
	g, err := s.engineFor(req, game)
	if err != nil {
		return openedGame{}, err
	}
	h := openedGame{g: g, game: game, trusted: s.trusts(ctx)}
	if token == "" {
		if !h.trusted {
			return openedGame{}, plainStateRefused()
		}
		if pass != "" {
			return openedGame{}, refusal.Field(ReasonPassWithoutToken, "seatPass", "a seat pass goes with a token, not with a plain state")
		}
		h.state, h.chosen = state, true
		return h, nil
	}
	table, held, err := s.openToken(h, token)
	if err != nil {
		return openedGame{}, tokenRefused(err)
	}
	h.held, h.sealed, h.table, h.chosen = held, true, table, seal.ScopeOf(token) == seal.ScopePlain
	if pass != "" {
		seat, err := table.CheckPass(game, pass)
		if err != nil {
			return openedGame{}, tokenRefused(err)
		}
		h.seat = engine.Player(seat)
	}
	if _, clocked := g.(engine.Clocked); clocked {
		if h.state, err = engine.Unpack(g, held); err != nil {
			return openedGame{}, s.internal("open token", err)
		}
	}
	return h, nil
}

// openToken opens a token of h's game, telling the observer how it went. It opens a token of seal.ScopePlain only if
// h's caller is trusted or the service accepts plain-scoped tokens.
func (s *Service) openToken(h openedGame, token string) (seal.Table, []byte, error) {
	accept := seal.ScopeSealed
	if h.trusted || s.cfg.AcceptPlainScopedTokens {
		accept = seal.ScopePlain
	}
	table, bytes, err := s.cfg.Keys.OpenScoped(h.game, token, accept)
	result := "ok"
	if err != nil {
		result = seal.Reason(err)
	}
	s.cfg.Observer.TokenOpened(result)
	return table, bytes, err
}

// sealState seals state, a full state, into a token of h's table, in the form the engine packs it.
func (s *Service) sealState(h openedGame, state *rulebookv1.GameState) (string, error) {
	held, err := engine.Pack(h.g, state)
	if err != nil {
		return "", s.refuse("seal", err)
	}
	return s.sealHeld(h, held)
}

// sealHeld seals a state in the form the engine packed it into a token of h's table: of seal.ScopePlain if h's state
// is one a caller chose.
func (s *Service) sealHeld(h openedGame, held []byte) (string, error) {
	scope := seal.ScopeSealed
	if h.chosen {
		scope = seal.ScopePlain
	}
	token, err := s.cfg.Keys.SealScoped(scope, h.game, h.table, held)
	if err != nil {
		return "", s.internal("seal", err)
	}
	return token, nil
}

// sealWithView seals state into a token of h's table and returns it with the view of h's seat.
func (s *Service) sealWithView(h openedGame, state *rulebookv1.GameState) (token string, view *rulebookv1.GameState,
	err error) {
	if token, err = s.sealState(h, state); err != nil {
		return "", nil, err
	}
	if view, err = h.g.View(state, h.seat); err != nil {
		return "", nil, s.refuse("view", err)
	}
	return token, view, nil
}

// seatCount returns the number of seats at h's table, from its state alone.
func (h openedGame) seatCount() (int, error) {
	return engine.SeatsOf(h.g, h.state)
}

// passes returns the pass of every seat at h's table, in seat order.
func (h openedGame) passes() ([]string, error) {
	n, err := h.seatCount()
	if err != nil {
		return nil, err
	}
	passes := make([]string, n)
	for i := range passes {
		passes[i] = h.table.Pass(h.game, i+1)
	}
	return passes, nil
}

// checkSeat refuses a seat that is not NoPlayer or one of the table's seats.
func (h openedGame) checkSeat(seat engine.Player, field string) error {
	n, err := h.seatCount()
	if err != nil {
		return err
	}
	if seat < 0 || int(seat) > n {
		return engine.Invalidf(ReasonNoSuchSeat, field, map[string]string{"field": field, field: strconv.Itoa(int(seat)), "seats": strconv.Itoa(n)},
			"%s %d is not a seat of this game (1 to %d, or 0)", field, seat, n)
	}
	return nil
}

// checkMover refuses, for a token caller, a move made for any seat but the one its pass proves.
func (h openedGame) checkMover(move *rulebookv1.Move) error {
	if !h.sealed || engine.Player(move.GetPlayer()) == h.seat && h.seat != engine.NoPlayer {
		return nil
	}
	return notYourSeat(h.seat, "move.player", move.GetPlayer())
}

// askedSeat returns whose moves or view a request asks for: asked itself for a trusted caller; for a token caller its
// own seat, which asked must be (or 0, meaning it).
func (h openedGame) askedSeat(asked engine.Player, field string) (engine.Player, error) {
	if !h.sealed {
		return asked, nil
	}
	if asked != engine.NoPlayer && asked != h.seat {
		return 0, notYourSeat(h.seat, field, int32(asked))
	}
	return h.seat, nil
}

// tokenRefused is the error for a token or a seat pass that package seal refused.
func tokenRefused(err error) error {
	var e *seal.Error
	if !errors.As(err, &e) {
		return ErrInternal
	}
	switch e.Reason {
	case seal.ReasonSeatPassInvalid:
		return permissionDenied(e.Reason, e.Error(), nil)
	case seal.ReasonSeatPassMalformed:
		return refusal.Field(e.Reason, "seatPass", e.Error())
	case seal.ReasonTokenScope:
		return permissionDenied(e.Reason, e.Error()+": this caller holds only tokens of games it did not choose", nil)
	}
	return refusal.Field(e.Reason, "token", e.Error())
}
