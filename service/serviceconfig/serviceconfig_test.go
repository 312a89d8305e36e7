package serviceconfig_test

import (
	"context"
	"net"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/service/serviceconfig"
)

// flakyService fails its first calls of ListGames with UNAVAILABLE, then answers.
type flakyService struct {
	rulebookv1grpc.UnimplementedRulesServiceServer
	failures atomic.Int32 // failures left
	calls    atomic.Int32
}

// ListGames fails with UNAVAILABLE while failures are left.
func (s *flakyService) ListGames(context.Context, *rulebookv1.ListGamesRequest) (*rulebookv1.ListGamesResponse, error) {
	s.calls.Add(1)
	if s.failures.Add(-1) >= 0 {
		return nil, status.Error(codes.Unavailable, "going away")
	}
	return &rulebookv1.ListGamesResponse{}, nil
}

// TestRetriesUnavailable checks that a client with the service config retries a call failing with UNAVAILABLE, up
// to 4 attempts in all, and never one failing otherwise.
func TestRetriesUnavailable(t *testing.T) {
	tests := []struct {
		name      string
		failures  int32
		wantCode  codes.Code
		wantCalls int32
	}{
		{"answered at the first attempt", 0, codes.OK, 1},
		{"answered at the fourth", 3, codes.OK, 4},
		{"unavailable four times", 4, codes.Unavailable, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := &flakyService{}
			svc.failures.Store(tt.failures)
			lis, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv := grpc.NewServer()
			rulebookv1grpc.RegisterRulesServiceServer(srv, svc)
			go func() { _ = srv.Serve(lis) }()
			t.Cleanup(srv.Stop)
			conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
				grpc.WithDefaultServiceConfig(serviceconfig.JSON))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close() })
			_, err = rulebookv1grpc.NewRulesServiceClient(conn).ListGames(context.Background(), &rulebookv1.ListGamesRequest{})
			if status.Code(err) != tt.wantCode || svc.calls.Load() != tt.wantCalls {
				t.Errorf("%v after %d calls, want %v after %d", err, svc.calls.Load(), tt.wantCode, tt.wantCalls)
			}
		})
	}
}
