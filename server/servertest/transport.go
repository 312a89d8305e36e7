package servertest

import (
	"testing"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Transport plays the RulesService calls a full-game test needs, over gRPC or over REST.
type Transport struct {
	Name     string
	NewGame  func(t testing.TB, c *Client, req *rulebookv1.NewGameRequest) *rulebookv1.NewGameResponse
	Legal    func(t testing.TB, c *Client, req *rulebookv1.ListLegalMovesRequest) *rulebookv1.ListLegalMovesResponse
	Validate func(t testing.TB, c *Client, req *rulebookv1.ValidateMoveRequest)
	Apply    func(t testing.TB, c *Client, req *rulebookv1.ApplyMoveRequest) *rulebookv1.ApplyMoveResponse
	Score    func(t testing.TB, c *Client, req *rulebookv1.ScoreRequest) *rulebookv1.ScoreResponse
	View     func(t testing.TB, c *Client, req *rulebookv1.GetViewRequest) *rulebookv1.GetViewResponse
	Solve    func(t testing.TB, c *Client, req *rulebookv1.SolvePuzzleRequest) *rulebookv1.SolvePuzzleResponse
}

// Transports are gRPC and REST.
var Transports = []Transport{
	{
		Name: "gRPC",
		NewGame: func(t testing.TB, c *Client, req *rulebookv1.NewGameRequest) *rulebookv1.NewGameResponse {
			return Succeeded(c.RPC.NewGame(CallContext(t), req))(t)
		},
		Legal: func(t testing.TB, c *Client, req *rulebookv1.ListLegalMovesRequest) *rulebookv1.ListLegalMovesResponse {
			return Succeeded(c.RPC.ListLegalMoves(CallContext(t), req))(t)
		},
		Validate: func(t testing.TB, c *Client, req *rulebookv1.ValidateMoveRequest) {
			Succeeded(c.RPC.ValidateMove(CallContext(t), req))(t)
		},
		Apply: func(t testing.TB, c *Client, req *rulebookv1.ApplyMoveRequest) *rulebookv1.ApplyMoveResponse {
			return Succeeded(c.RPC.ApplyMove(CallContext(t), req))(t)
		},
		Score: func(t testing.TB, c *Client, req *rulebookv1.ScoreRequest) *rulebookv1.ScoreResponse {
			return Succeeded(c.RPC.Score(CallContext(t), req))(t)
		},
		View: func(t testing.TB, c *Client, req *rulebookv1.GetViewRequest) *rulebookv1.GetViewResponse {
			return Succeeded(c.RPC.GetView(CallContext(t), req))(t)
		},
		Solve: func(t testing.TB, c *Client, req *rulebookv1.SolvePuzzleRequest) *rulebookv1.SolvePuzzleResponse {
			return Succeeded(c.RPC.SolvePuzzle(CallContext(t), req))(t)
		},
	},
	{
		Name: "REST",
		NewGame: func(t testing.TB, c *Client, req *rulebookv1.NewGameRequest) *rulebookv1.NewGameResponse {
			resp := &rulebookv1.NewGameResponse{}
			c.PostProto(t, "/v1/games/"+req.GetGame()+":new", req, resp)
			return resp
		},
		Legal: func(t testing.TB, c *Client, req *rulebookv1.ListLegalMovesRequest) *rulebookv1.ListLegalMovesResponse {
			resp := &rulebookv1.ListLegalMovesResponse{}
			c.PostProto(t, "/v1/games/"+req.GetGame()+":legalMoves", req, resp)
			return resp
		},
		Validate: func(t testing.TB, c *Client, req *rulebookv1.ValidateMoveRequest) {
			c.PostProto(t, "/v1/games/"+req.GetGame()+":validate", req, &rulebookv1.ValidateMoveResponse{})
		},
		Apply: func(t testing.TB, c *Client, req *rulebookv1.ApplyMoveRequest) *rulebookv1.ApplyMoveResponse {
			resp := &rulebookv1.ApplyMoveResponse{}
			c.PostProto(t, "/v1/games/"+req.GetGame()+":apply", req, resp)
			return resp
		},
		Score: func(t testing.TB, c *Client, req *rulebookv1.ScoreRequest) *rulebookv1.ScoreResponse {
			resp := &rulebookv1.ScoreResponse{}
			c.PostProto(t, "/v1/games/"+req.GetGame()+":score", req, resp)
			return resp
		},
		View: func(t testing.TB, c *Client, req *rulebookv1.GetViewRequest) *rulebookv1.GetViewResponse {
			resp := &rulebookv1.GetViewResponse{}
			c.PostProto(t, "/v1/games/"+req.GetGame()+":view", req, resp)
			return resp
		},
		Solve: func(t testing.TB, c *Client, req *rulebookv1.SolvePuzzleRequest) *rulebookv1.SolvePuzzleResponse {
			resp := &rulebookv1.SolvePuzzleResponse{}
			c.PostProto(t, "/v1/puzzles:solve", req, resp)
			return resp
		},
	},
}
