// Package service implements rulebook.v1.RulesService over the rule engines. For each request it checks the
// request's structure (the protovalidate rules of the API), opens the game (a plain state, or a sealed token with a
// seat pass), lets the game's engine decode and check the state and the move, and turns the engine's refusals into
// google.rpc.Status errors with a stable reason code. It keeps nothing between calls.
package service

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"buf.build/go/protovalidate"
	"go.uber.org/zap"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/service/caller"
	"github.com/rulebook/rulebook/service/seal"
)

// Config is how a Service treats its callers.
type Config struct {
	// Keys seal and open state tokens: the first key seals, every key opens. Required.
	Keys *seal.Keyring
	// AcceptPlainStates lets every caller send and receive plain game states and choose seeds: only for a server
	// whose every caller is trusted (a game server), never for one that players reach directly.
	AcceptPlainStates bool
	// PlainStateCallers are the callers (by name, see package caller) that may send and receive plain game states
	// and choose seeds, the others holding only tokens; with AcceptPlainStates, every caller may.
	PlainStateCallers []string
	// AcceptPlainScopedTokens lets callers that hold only tokens open tokens of seal.ScopePlain, whose boards a caller
	// chose (a plain state, a chosen seed); without it they are refused (TOKEN_SCOPE_REFUSED).
	AcceptPlainScopedTokens bool
	// SealTokenFormat is the format of the tokens the service seals: seal.CurrentFormat (0 means it), or seal.Format1
	// while it runs beside a build that reads only format 1 (a rolling update), whose tokens then hold the wire form
	// of a GameState, which such a build reads of every game. Tokens of either format open whatever it is.
	SealTokenFormat seal.Format
	// PuzzleNodeLimit bounds the search of one SolvePuzzle call; 0 means defaultPuzzleNodeLimit.
	PuzzleNodeLimit int64
	// Now tells the time at which moves are received (for Ubongo Duel's same-moment finishes); nil means time.Now.
	Now func() time.Time
	// Observer is told what the service does, for metrics; nil tells no one.
	Observer Observer
}

// Observer is told what a Service does, for metrics. Its methods are called concurrently, on the calls' paths.
type Observer interface {
	// TokenOpened is told of each token the service tried to open: result is "ok", or the reason it was refused.
	TokenOpened(result string)
	// MoveApplied is told of each move of game applied, ApplyMove's or Replay's, with its events as the engine
	// gave them.
	MoveApplied(game string, events []*rulebookv1.Event)
	// PuzzleSearched is told of each SolvePuzzle search, with the nodes (pieces placed) it explored.
	PuzzleSearched(nodes int64)
}

// noObserver observes nothing.
type noObserver struct{}

// TokenOpened does nothing.
func (noObserver) TokenOpened(string) {}

// MoveApplied does nothing.
func (noObserver) MoveApplied(string, []*rulebookv1.Event) {}

// PuzzleSearched does nothing.
func (noObserver) PuzzleSearched(int64) {}

// Service is the RulesService server: it has every method of rulebookv1grpc.RulesServiceServer, as which
// rulesserver.New serves it (this package does not import the stubs, so that a program calling the service in process
// links neither gRPC nor the gateway).
type Service struct {
	log       *zap.Logger
	cfg       Config
	validator protovalidate.Validator
	games     map[string]engine.Game
	infos     []*rulebookv1.GameInfo
	plain     map[string]bool // the names of PlainStateCallers
}

// New returns a Service hosting games, which logs its internal failures to log.
func New(log *zap.Logger, cfg Config, games ...engine.Game) (*Service, error) {
	if cfg.Keys == nil {
		return nil, errors.New("service: no keys to seal states with")
	}
	if cfg.SealTokenFormat == 0 {
		cfg.SealTokenFormat = seal.CurrentFormat
	} else if cfg.SealTokenFormat > seal.CurrentFormat {
		return nil, fmt.Errorf("service: no token format %d to seal (1 to %d)", cfg.SealTokenFormat, seal.CurrentFormat)
	}
	if cfg.PuzzleNodeLimit <= 0 {
		cfg.PuzzleNodeLimit = defaultPuzzleNodeLimit
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Observer == nil {
		cfg.Observer = noObserver{}
	}
	validator, err := protovalidate.New(protovalidate.WithFailFast()) // one violation: a list of a million bad items costs one
	if err != nil {
		return nil, err
	}
	s := &Service{log: log, cfg: cfg, validator: validator, games: make(map[string]engine.Game, len(games)),
		plain: make(map[string]bool, len(cfg.PlainStateCallers))}
	for _, name := range cfg.PlainStateCallers {
		if name == caller.Anonymous {
			return nil, errors.New("service: an empty name among the plain-state callers")
		}
		s.plain[name] = true
	}
	for _, g := range games {
		info := g.Info()
		s.games[info.GetId()] = g
		s.infos = append(s.infos, info)
	}
	slices.SortFunc(s.infos, func(a, b *rulebookv1.GameInfo) int { return strings.Compare(a.GetId(), b.GetId()) })
	return s, nil
}

// ListGames describes every hosted game.
func (s *Service) ListGames(context.Context, *rulebookv1.ListGamesRequest) (*rulebookv1.ListGamesResponse, error) {
	return &rulebookv1.ListGamesResponse{Games: s.infos}, nil
}

// NewGame sets up a game, from the caller's seed or, without one, from a random seed nobody knows. A sealed game
// comes back as a token, the view of the requested seat and every seat's pass.
func (s *Service) NewGame(ctx context.Context, req *rulebookv1.NewGameRequest) (*rulebookv1.NewGameResponse, error) {
	g, err := s.engineFor(req, req.GetGame())
	if err != nil {
		return nil, err
	}
	trusted := s.trusts(ctx)
	seed := req.GetSeed()
	if req.Seed == nil {
		seed = randomSeed()
	} else if !trusted {
		return nil, seedRefused()
	}
	pos, err := g.New(req.GetOptions(), seed)
	if err != nil {
		return nil, s.refuse("NewGame", err)
	}
	if !req.GetSeal() && req.GetSeat() == 0 && trusted {
		return &rulebookv1.NewGameResponse{State: pos.Encode()}, nil
	}
	table, err := seal.NewTable(rand.Reader)
	if err != nil {
		return nil, s.internal("NewGame", err)
	}
	h := openedGame{g: g, game: req.GetGame(), pos: pos, sealed: true, table: table, seat: engine.Player(req.GetSeat()),
		trusted: trusted, chosen: req.Seed != nil}
	if err := h.checkSeat(h.seat, "seat"); err != nil {
		return nil, s.refuse("NewGame", err)
	}
	token, view, err := s.sealWithView(h, pos)
	if err != nil {
		return nil, err
	}
	return &rulebookv1.NewGameResponse{Token: token, View: view, SeatPasses: h.passes()}, nil
}

// ValidateMove answers a legal move with OK and an illegal one with the error ApplyMove would give.
func (s *Service) ValidateMove(ctx context.Context, req *rulebookv1.ValidateMoveRequest) (*rulebookv1.ValidateMoveResponse, error) {
	h, err := s.openGame(ctx, req, req.GetGame(), req.GetState(), req.GetToken(), req.GetSeatPass())
	if err != nil {
		return nil, err
	}
	if err := h.checkMover(req.GetMove()); err != nil {
		return nil, err
	}
	if err := h.pos.Validate(s.receive(h.pos, req.GetMove())); err != nil {
		return nil, s.refuse("ValidateMove", err)
	}
	return &rulebookv1.ValidateMoveResponse{}, nil
}

// ApplyMove plays a move. A token caller gets the new token, the view of its seat and the events that seat may see;
// every caller gets the events, their counts by kind, or neither, as the request's events asks.
func (s *Service) ApplyMove(ctx context.Context, req *rulebookv1.ApplyMoveRequest) (*rulebookv1.ApplyMoveResponse, error) {
	h, err := s.openGame(ctx, req, req.GetGame(), req.GetState(), req.GetToken(), req.GetSeatPass())
	if err != nil {
		return nil, err
	}
	if err := h.checkMover(req.GetMove()); err != nil {
		return nil, err
	}
	move := s.receive(h.pos, req.GetMove())
	next, events, err := h.pos.Apply(move)
	if err != nil {
		return nil, s.refuse("ApplyMove", err)
	}
	s.cfg.Observer.MoveApplied(h.game, events)
	resp := &rulebookv1.ApplyMoveResponse{Move: move}
	if h.sealed {
		if resp.Token, resp.View, err = s.sealWithView(h, next); err != nil {
			return nil, err
		}
		events = h.pos.ViewEvents(events, h.seat)
	} else {
		resp.State = next.Encode()
	}
	resp.Events, resp.EventCounts = eventsAs(req.GetEvents(), events)
	return resp, nil
}

// ListLegalMoves lists a player's legal moves; player 0 means every player who may move now (for a token caller,
// its own seat).
func (s *Service) ListLegalMoves(ctx context.Context, req *rulebookv1.ListLegalMovesRequest) (*rulebookv1.ListLegalMovesResponse, error) {
	h, err := s.openGame(ctx, req, req.GetGame(), req.GetState(), req.GetToken(), req.GetSeatPass())
	if err != nil {
		return nil, err
	}
	player, err := h.askedSeat(engine.Player(req.GetPlayer()), "player")
	if err != nil {
		return nil, err
	}
	if h.sealed && player == engine.NoPlayer { // a spectator has no moves to learn about
		return &rulebookv1.ListLegalMovesResponse{}, nil
	}
	moves, err := h.pos.Legal(player)
	if err != nil {
		return nil, s.refuse("ListLegalMoves", err)
	}
	return &rulebookv1.ListLegalMovesResponse{Moves: moves}, nil
}

// Score gives the standings, which show no hidden fact (a hand's value is a count every seat may see).
func (s *Service) Score(ctx context.Context, req *rulebookv1.ScoreRequest) (*rulebookv1.ScoreResponse, error) {
	h, err := s.openGame(ctx, req, req.GetGame(), req.GetState(), req.GetToken(), req.GetSeatPass())
	if err != nil {
		return nil, err
	}
	return &rulebookv1.ScoreResponse{Score: h.pos.Score()}, nil
}

// GetView returns what a player, or a spectator (viewer 0), may see; a token caller sees its own seat's view.
func (s *Service) GetView(ctx context.Context, req *rulebookv1.GetViewRequest) (*rulebookv1.GetViewResponse, error) {
	h, err := s.openGame(ctx, req, req.GetGame(), req.GetState(), req.GetToken(), req.GetSeatPass())
	if err != nil {
		return nil, err
	}
	viewer, err := h.askedSeat(engine.Player(req.GetViewer()), "viewer")
	if err != nil {
		return nil, err
	}
	view, err := h.pos.View(viewer)
	if err != nil {
		return nil, s.refuse("GetView", err)
	}
	return &rulebookv1.GetViewResponse{View: view.Encode()}, nil
}

// randomSeed returns a seed from the operating system's cryptographic random source.
func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return binary.LittleEndian.Uint64(b[:])
}

// trusts reports whether the caller of ctx may send and receive plain states and choose seeds.
func (s *Service) trusts(ctx context.Context) bool {
	return s.cfg.AcceptPlainStates || s.plain[caller.Name(ctx)]
}

// game finds the engine of the game named id.
func (s *Service) game(id string) (engine.Game, error) {
	g, ok := s.games[id]
	if !ok {
		return nil, unknownGame(id)
	}
	return g, nil
}

// receive returns move as the game of pos records it when received now (engine.Position's Receive): in the one form
// of a move with several, and with the time the service received it where the rules need it (a receive time sent by
// the caller is replaced).
func (s *Service) receive(pos engine.Position, move *rulebookv1.Move) *rulebookv1.Move {
	return pos.Receive(move, s.cfg.Now())
}

// refuse turns an engine's error into the status the caller receives, logging the ones that are the service's fault.
func (s *Service) refuse(method string, err error) error {
	st, internal := toStatus(err)
	if internal {
		s.log.Error("engine failed", zap.String("method", method), zap.Error(err))
	}
	return st
}

// internal logs a failure of the service's own and returns what the caller sees of it.
func (s *Service) internal(method string, err error) error {
	s.log.Error("internal failure", zap.String("method", method), zap.Error(err))
	return ErrInternal
}
