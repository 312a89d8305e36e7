package server

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
)

// restRules is RulesService as the REST gateway calls it, in process: each call goes through admit (the limiter,
// panic recovery and the count of refusals, as a gRPC call does), but not through the gRPC call log and metrics,
// since its REST request has an access line and HTTP metrics of its own. Its workers serve the calls. It embeds the
// unsafe interface so that a method added to the service fails to compile until it is served here too.
type restRules struct {
	rulebookv1grpc.UnsafeRulesServiceServer
	rules   rulebookv1grpc.RulesServiceServer
	admit   grpc.UnaryServerInterceptor
	workers workers
}

// ListGames calls rules' ListGames through admit.
func (r restRules) ListGames(ctx context.Context, req *rulebookv1.ListGamesRequest) (*rulebookv1.ListGamesResponse, error) {
	return admitted(ctx, r, "ListGames", req, r.rules.ListGames)
}

// NewGame calls rules' NewGame through admit.
func (r restRules) NewGame(ctx context.Context, req *rulebookv1.NewGameRequest) (*rulebookv1.NewGameResponse, error) {
	return admitted(ctx, r, "NewGame", req, r.rules.NewGame)
}

// ValidateMove calls rules' ValidateMove through admit.
func (r restRules) ValidateMove(ctx context.Context, req *rulebookv1.ValidateMoveRequest) (*rulebookv1.ValidateMoveResponse, error) {
	return admitted(ctx, r, "ValidateMove", req, r.rules.ValidateMove)
}

// ApplyMove calls rules' ApplyMove through admit.
func (r restRules) ApplyMove(ctx context.Context, req *rulebookv1.ApplyMoveRequest) (*rulebookv1.ApplyMoveResponse, error) {
	return admitted(ctx, r, "ApplyMove", req, r.rules.ApplyMove)
}

// ListLegalMoves calls rules' ListLegalMoves through admit.
func (r restRules) ListLegalMoves(ctx context.Context, req *rulebookv1.ListLegalMovesRequest) (*rulebookv1.ListLegalMovesResponse, error) {
	return admitted(ctx, r, "ListLegalMoves", req, r.rules.ListLegalMoves)
}

// Score calls rules' Score through admit.
func (r restRules) Score(ctx context.Context, req *rulebookv1.ScoreRequest) (*rulebookv1.ScoreResponse, error) {
	return admitted(ctx, r, "Score", req, r.rules.Score)
}

// GetView calls rules' GetView through admit.
func (r restRules) GetView(ctx context.Context, req *rulebookv1.GetViewRequest) (*rulebookv1.GetViewResponse, error) {
	return admitted(ctx, r, "GetView", req, r.rules.GetView)
}

// SolvePuzzle calls rules' SolvePuzzle through admit.
func (r restRules) SolvePuzzle(ctx context.Context, req *rulebookv1.SolvePuzzleRequest) (*rulebookv1.SolvePuzzleResponse, error) {
	return admitted(ctx, r, "SolvePuzzle", req, r.rules.SolvePuzzle)
}

// ListPieceSets calls rules' ListPieceSets through admit.
func (r restRules) ListPieceSets(ctx context.Context, req *rulebookv1.ListPieceSetsRequest) (*rulebookv1.ListPieceSetsResponse, error) {
	return admitted(ctx, r, "ListPieceSets", req, r.rules.ListPieceSets)
}

// Replay calls rules' Replay through admit.
func (r restRules) Replay(ctx context.Context, req *rulebookv1.ReplayRequest) (*rulebookv1.ReplayResponse, error) {
	return admitted(ctx, r, "Replay", req, r.rules.Replay)
}

// SuggestMove calls rules' SuggestMove through admit.
func (r restRules) SuggestMove(ctx context.Context, req *rulebookv1.SuggestMoveRequest) (*rulebookv1.SuggestMoveResponse, error) {
	return admitted(ctx, r, "SuggestMove", req, r.rules.SuggestMove)
}

// admitted serves req, of the RulesService method named method, with serve through r's admit, and answers by the
// call's deadline even if serve goes on (as a gRPC server answers DEADLINE_EXCEEDED when a call's time is up), with
// serve's answer if it is in by then: serve runs on one of r's workers. Its error is a status, as a gRPC client would
// have received it.
func admitted[Req, Resp any](ctx context.Context, r restRules, method string, req Req, serve func(context.Context, Req) (Resp, error)) (Resp, error) {
	call := &callInfo{}
	if named, ok := any(req).(interface{ GetGame() string }); ok {
		call.game = named.GetGame()
	}
	info := &grpc.UnaryServerInfo{Server: r.rules, FullMethod: rulesServicePrefix + method}
	type answer struct {
		resp any
		err  error
	}
	answered := make(chan answer, 1)
	r.workers.run(func() {
		resp, err := r.admit(context.WithValue(ctx, callKey{}, call), req, info, func(ctx context.Context, req any) (any, error) {
			return serve(ctx, req.(Req))
		})
		answered <- answer{resp, err}
	})
	var none Resp
	var a answer
	select {
	case a = <-answered:
	case <-ctx.Done():
		select {
		case a = <-answered: // an answer that came as the deadline passed is still the answer
		default:
			return none, status.FromContextError(ctx.Err()).Err()
		}
	}
	if a.err == nil {
		return a.resp.(Resp), nil
	}
	if _, ok := status.FromError(a.err); !ok {
		return none, status.FromContextError(a.err).Err()
	}
	return none, a.err
}

// workers run functions on goroutines that live as long as the server serves, each keeping the stack it has grown;
// a function that finds them all busy gets a goroutine of its own.
type workers chan func()

// run runs f on a worker, or on a new goroutine if none is free.
func (w workers) run(f func()) {
	select {
	case w <- f:
	default:
		go f()
	}
}

// serve runs functions sent to w on n goroutines until stop is done.
func (w workers) serve(n int, stop <-chan struct{}) {
	for range n {
		go func() {
			for {
				select {
				case f := <-w:
					f()
				case <-stop:
					return
				}
			}
		}()
	}
}

// localHealth is the health service as a client in process, for the gateway's /healthz.
type localHealth struct{ srv *health.Server }

// Check asks the health service.
func (h localHealth) Check(ctx context.Context, req *healthpb.HealthCheckRequest, _ ...grpc.CallOption) (*healthpb.HealthCheckResponse, error) {
	return h.srv.Check(ctx, req)
}

// List asks the health service.
func (h localHealth) List(ctx context.Context, req *healthpb.HealthListRequest, _ ...grpc.CallOption) (*healthpb.HealthListResponse, error) {
	return h.srv.List(ctx, req)
}

// Watch is not served in process: the gateway only checks.
func (localHealth) Watch(context.Context, *healthpb.HealthCheckRequest, ...grpc.CallOption) (grpc.ServerStreamingClient[healthpb.HealthCheckResponse], error) {
	return nil, status.Error(codes.Unimplemented, "watch the health service over gRPC")
}
