// Package service implements rulebook.v1.RulesService over the rule engines. For each request it finds the game's
// engine, lets the engine decode and check the state and the move, and turns the engine's refusals into
// google.rpc.Status errors with a stable reason code. It keeps nothing between calls.
package service

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Service is the RulesService server.
type Service struct {
	rulebookv1.UnimplementedRulesServiceServer
	log *zap.Logger
	now func() time.Time // stamps the moves of engine.Clocked games
	// puzzleNodeLimit bounds the search of one SolvePuzzle call (see defaultPuzzleNodeLimit).
	puzzleNodeLimit int64
	games           map[string]engine.Game
	infos           []*rulebookv1.GameInfo
}

// New returns a Service hosting games, which logs its internal failures to log.
func New(log *zap.Logger, games ...engine.Game) *Service {
	s := &Service{log: log, now: time.Now, puzzleNodeLimit: defaultPuzzleNodeLimit,
		games: make(map[string]engine.Game, len(games))}
	for _, g := range games {
		info := g.Info()
		s.games[info.GetId()] = g
		s.infos = append(s.infos, info)
	}
	slices.SortFunc(s.infos, func(a, b *rulebookv1.GameInfo) int { return strings.Compare(a.GetId(), b.GetId()) })
	return s
}

// ListGames describes every hosted game.
func (s *Service) ListGames(context.Context, *rulebookv1.ListGamesRequest) (*rulebookv1.ListGamesResponse, error) {
	return &rulebookv1.ListGamesResponse{Games: s.infos}, nil
}

// NewGame sets up a game, from the caller's seed or, without one, from a random seed nobody knows.
func (s *Service) NewGame(_ context.Context, req *rulebookv1.NewGameRequest) (*rulebookv1.NewGameResponse, error) {
	g, err := s.game(req.GetGame())
	if err != nil {
		return nil, err
	}
	seed := req.GetSeed()
	if req.Seed == nil {
		seed = randomSeed()
	}
	state, err := g.New(req.GetOptions(), seed)
	if err != nil {
		return nil, s.refuse("NewGame", err)
	}
	return &rulebookv1.NewGameResponse{State: state}, nil
}

// ValidateMove answers a legal move with OK and an illegal one with the error ApplyMove would give.
func (s *Service) ValidateMove(_ context.Context, req *rulebookv1.ValidateMoveRequest) (*rulebookv1.ValidateMoveResponse, error) {
	g, err := s.gameWithMove(req.GetGame(), req.GetState(), req.GetMove())
	if err != nil {
		return nil, err
	}
	if err := g.Validate(req.GetState(), s.stamp(g, req.GetState(), req.GetMove())); err != nil {
		return nil, s.refuse("ValidateMove", err)
	}
	return &rulebookv1.ValidateMoveResponse{}, nil
}

// ApplyMove plays a move.
func (s *Service) ApplyMove(_ context.Context, req *rulebookv1.ApplyMoveRequest) (*rulebookv1.ApplyMoveResponse, error) {
	g, err := s.gameWithMove(req.GetGame(), req.GetState(), req.GetMove())
	if err != nil {
		return nil, err
	}
	state, events, err := g.Apply(req.GetState(), s.stamp(g, req.GetState(), req.GetMove()))
	if err != nil {
		return nil, s.refuse("ApplyMove", err)
	}
	return &rulebookv1.ApplyMoveResponse{State: state, Events: events}, nil
}

// ListLegalMoves lists a player's legal moves; player 0 means the player to move.
func (s *Service) ListLegalMoves(_ context.Context, req *rulebookv1.ListLegalMovesRequest) (*rulebookv1.ListLegalMovesResponse, error) {
	g, err := s.gameWithState(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	moves, err := g.Legal(req.GetState(), engine.Player(req.GetPlayer()))
	if err != nil {
		return nil, s.refuse("ListLegalMoves", err)
	}
	return &rulebookv1.ListLegalMovesResponse{Moves: moves}, nil
}

// Score gives the standings.
func (s *Service) Score(_ context.Context, req *rulebookv1.ScoreRequest) (*rulebookv1.ScoreResponse, error) {
	g, err := s.gameWithState(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	score, err := g.Score(req.GetState())
	if err != nil {
		return nil, s.refuse("Score", err)
	}
	return &rulebookv1.ScoreResponse{Score: score}, nil
}

// GetView returns what a player, or a spectator (viewer 0), may see.
func (s *Service) GetView(_ context.Context, req *rulebookv1.GetViewRequest) (*rulebookv1.GetViewResponse, error) {
	g, err := s.gameWithState(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	view, err := g.View(req.GetState(), engine.Player(req.GetViewer()))
	if err != nil {
		return nil, s.refuse("GetView", err)
	}
	return &rulebookv1.GetViewResponse{View: view}, nil
}

// randomSeed returns a seed from the operating system's cryptographic random source.
func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return binary.LittleEndian.Uint64(b[:])
}

// game finds the engine of the game named id.
func (s *Service) game(id string) (engine.Game, error) {
	if id == "" {
		return nil, missingField("game")
	}
	g, ok := s.games[id]
	if !ok {
		return nil, unknownGame(id)
	}
	return g, nil
}

// gameWithState finds the engine of the game named id and checks that a state was sent.
func (s *Service) gameWithState(id string, state *rulebookv1.GameState) (engine.Game, error) {
	g, err := s.game(id)
	if err != nil {
		return nil, err
	}
	if state == nil {
		return nil, missingField("state")
	}
	return g, nil
}

// gameWithMove finds the engine of the game named id and checks that a state and a move were sent.
func (s *Service) gameWithMove(id string, state *rulebookv1.GameState, move *rulebookv1.Move) (engine.Game, error) {
	g, err := s.gameWithState(id, state)
	if err != nil {
		return nil, err
	}
	if move == nil {
		return nil, missingField("move")
	}
	return g, nil
}

// stamp returns move with the time the service received it, for the games whose rules need it (engine.Clocked); a
// receive time sent by the caller is replaced.
func (s *Service) stamp(g engine.Game, state *rulebookv1.GameState, move *rulebookv1.Move) *rulebookv1.Move {
	if c, ok := g.(engine.Clocked); ok {
		return c.Stamp(state, move, s.now())
	}
	return move
}

// refuse turns an engine's error into the status the caller receives, logging the ones that are the service's fault.
func (s *Service) refuse(method string, err error) error {
	st, internal := toStatus(err)
	if internal {
		s.log.Error("engine failed", zap.String("method", method), zap.Error(err))
	}
	return st
}
