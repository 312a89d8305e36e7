package service

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/service/seal"
)

// openedGame is a game as a request brings it, opened once into a position that every step of the call asks: a plain
// state from a trusted caller, or the state a token holds, with the seat its seat pass proves (NoPlayer: a spectator).
type openedGame struct {
	g      engine.Game
	game   string
	pos    engine.Position
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

// openGame checks req's structure and opens the game it brings into a position: the plain state (if the caller may
// send one), decoded and checked, or the state the token holds, with the seat of the seat pass. A token of
// seal.ScopePlain opens only for a caller that may hold plain states, or if the service accepts plain-scoped tokens.
func (s *Service) openGame(ctx context.Context, req proto.Message, game string, state *rulebookv1.GameState, token, pass string) (openedGame,
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
		if h.pos, err = g.Decode(state); err != nil {
			return openedGame{}, s.refuse("decode state", err)
		}
		h.chosen = true
		return h, nil
	}
	c, pos, err := s.openToken(h, token)
	if err != nil {
		return openedGame{}, tokenRefused(err)
	}
	h.pos, h.sealed, h.table, h.chosen = pos, true, c.Table, c.Scope == seal.ScopePlain
	if pass != "" {
		seat, err := c.Table.CheckPass(game, pass)
		if err != nil {
			return openedGame{}, tokenRefused(err)
		}
		h.seat = engine.Player(seat)
	}
	return h, nil
}

// openToken opens a token of h's game and the state it holds into a position (see openHeld), telling the observer
// how it went. It opens a token of seal.ScopePlain only if h's caller is trusted or the service accepts plain-scoped
// tokens.
func (s *Service) openToken(h openedGame, token string) (seal.Contents, engine.Position, error) {
	accept := seal.ScopeSealed
	if h.trusted || s.cfg.AcceptPlainScopedTokens {
		accept = seal.ScopePlain
	}
	c, err := s.cfg.Keys.Open(h.game, token, accept)
	var pos engine.Position
	if err == nil {
		pos, err = openHeld(h.g, c)
	}
	result := "ok"
	if err != nil {
		result = seal.Reason(err)
	}
	s.cfg.Observer.TokenOpened(result)
	return c, pos, err
}

// openHeld opens the state of c into a position of g, checked as a plain state is, whatever the token's format and
// rules version: g's Open reads the wire form of a GameState, which every token of format 2 holds, and the private
// form an earlier build's token of format 1 may hold. A private form records no rules version, so it is read only
// from a token of format 1, all of whose builds played the rules of today's private forms. A state this build cannot
// read, or that breaks this build's rules, is refused TOKEN_VERSION_UNSUPPORTED: the token is authentic, but of a
// build whose states this one cannot read or play.
func openHeld(g engine.Game, c seal.Contents) (engine.Position, error) {
	unsupported := &seal.Error{Reason: seal.ReasonTokenVersionUnsupported}
	if c.Format != seal.Format1 && len(c.State) > 0 && c.State[0] == engine.PrivateForm {
		return nil, unsupported
	}
	pos, err := g.Open(c.State)
	if err != nil {
		return nil, unsupported
	}
	return pos, nil
}

// info returns the description of the hosted game, made once when the service was; nil for a game it does not host.
func (s *Service) info(game string) *rulebookv1.GameInfo {
	i, ok := slices.BinarySearchFunc(s.infos, game, func(info *rulebookv1.GameInfo, id string) int {
		return strings.Compare(info.GetId(), id)
	})
	if !ok {
		return nil
	}
	return s.infos[i]
}

// sealWithView seals pos, a full state, into a token of h's table, holding its held form (of seal.ScopePlain if h's
// state is one a caller chose), and returns it with the view of h's seat.
func (s *Service) sealWithView(h openedGame, pos engine.Position) (token string, view *rulebookv1.GameState,
	err error) {
	held, view, err := pos.Held(h.seat)
	if err != nil {
		return "", nil, s.refuse("seal", err)
	}
	scope := seal.ScopeSealed
	if h.chosen {
		scope = seal.ScopePlain
	}
	token, err = s.cfg.Keys.Seal(h.game, seal.Contents{Format: s.cfg.SealTokenFormat, Scope: scope,
		RulesVersion: s.info(h.game).GetRulesVersion(), Table: h.table, State: held})
	if err != nil {
		return "", nil, s.internal("seal", err)
	}
	return token, view, nil
}

// passes returns the pass of every seat at h's table, in seat order.
func (h openedGame) passes() []string {
	passes := make([]string, h.pos.Seats())
	for i := range passes {
		passes[i] = h.table.Pass(h.game, i+1)
	}
	return passes
}

// checkSeat refuses a seat that is not NoPlayer or one of the table's seats.
func (h openedGame) checkSeat(seat engine.Player, field string) error {
	n := h.pos.Seats()
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

// versionUnsupported is the error for an authentic token whose state this build cannot read.
func versionUnsupported() error {
	return tokenRefused(&seal.Error{Reason: seal.ReasonTokenVersionUnsupported})
}

// tokenRefused is the error for a token or a seat pass that package seal (or openHeld) refused: INVALID_ARGUMENT
// on the field token (TOKEN_VERSION_UNSUPPORTED among them), but for the refusals of a seat or a scope.
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
