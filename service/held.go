package service

import (
	"errors"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service/refusal"
	"github.com/rulebook/rulebook/service/seal"
)

// held is a game as a request brings it: a plain state from a trusted caller, or a state opened from a token, with
// the seat its seat pass proves (NoPlayer: a spectator).
type held struct {
	g      engine.Game
	game   string
	state  *rulebookv1.GameState
	sealed bool
	table  seal.Table
	seat   engine.Player
}

// start checks req's structure and finds the engine of the game it names.
func (s *Service) start(req proto.Message, game string) (engine.Game, error) {
	if err := s.validate(req); err != nil {
		return nil, err
	}
	return s.game(game)
}

// hold checks req's structure and opens the game it brings: the plain state (if the server accepts plain states),
// or the token and the seat pass.
func (s *Service) hold(req proto.Message, game string, state *rulebookv1.GameState, token, pass string) (held, error) {
	g, err := s.start(req, game)
	if err != nil {
		return held{}, err
	}
	if token == "" {
		if !s.cfg.AcceptPlainStates {
			return held{}, plainStateRefused()
		}
		if pass != "" {
			return held{}, refusal.Field(ReasonPassWithoutToken, "seatPass", "a seat pass goes with a token, not with a plain state")
		}
		return held{g: g, game: game, state: state}, nil
	}
	table, bytes, err := s.open(game, token)
	if err != nil {
		return held{}, tokenRefused(err)
	}
	opened := &rulebookv1.GameState{}
	if err := proto.Unmarshal(bytes, opened); err != nil {
		return held{}, s.internal("open token", err) // a token the service sealed always holds a state
	}
	h := held{g: g, game: game, state: opened, sealed: true, table: table}
	if pass != "" {
		seat, err := table.CheckPass(game, pass)
		if err != nil {
			return held{}, tokenRefused(err)
		}
		h.seat = engine.Player(seat)
	}
	return h, nil
}

// open opens a token of game, telling the observer how it went.
func (s *Service) open(game, token string) (seal.Table, []byte, error) {
	table, bytes, err := s.cfg.Keys.Open(game, token)
	result := "ok"
	if err != nil {
		result = seal.Reason(err)
	}
	s.cfg.Observer.TokenOpened(result)
	return table, bytes, err
}

// answer seals next into a token of h's table and returns it with the view of h's seat.
func (s *Service) answer(h held, next *rulebookv1.GameState) (token string, view *rulebookv1.GameState, err error) {
	bytes, err := proto.MarshalOptions{Deterministic: true}.Marshal(next)
	if err != nil {
		return "", nil, s.internal("seal", err)
	}
	if token, err = s.cfg.Keys.Seal(h.game, h.table, bytes); err != nil {
		return "", nil, s.internal("seal", err)
	}
	if view, err = h.g.View(next, h.seat); err != nil {
		return "", nil, s.refuse("view", err)
	}
	return token, view, nil
}

// seats returns the number of seats at h's table.
func (h held) seats() (int, error) {
	score, err := h.g.Score(h.state)
	return len(score.GetStandings()), err
}

// passes returns the pass of every seat at h's table, in seat order.
func (h held) passes() ([]string, error) {
	n, err := h.seats()
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
func (h held) checkSeat(seat engine.Player, field string) error {
	n, err := h.seats()
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
func (h held) checkMover(move *rulebookv1.Move) error {
	if !h.sealed || engine.Player(move.GetPlayer()) == h.seat && h.seat != engine.NoPlayer {
		return nil
	}
	return notYourSeat(h.seat, "move.player", move.GetPlayer())
}

// asker returns whose moves or view a request asks for: asked itself for a trusted caller; for a token caller its own
// seat, which asked must be (or 0, meaning it).
func (h held) asker(asked engine.Player, field string) (engine.Player, error) {
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
	}
	return refusal.Field(e.Reason, "token", e.Error())
}
