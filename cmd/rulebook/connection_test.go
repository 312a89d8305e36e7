package main

import (
	"context"
	"net"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestAddressFromEnvironment checks that RULEBOOK_ADDR gives the address when -addr does not, and that -addr wins.
func TestAddressFromEnvironment(t *testing.T) {
	addr := tokenServer(t).addr
	t.Setenv("RULEBOOK_ADDR", addr)
	want{golden: "games.txt"}.check(t, rulebook(t, "", "games"))

	t.Setenv("RULEBOOK_ADDR", "127.0.0.1:1")
	want{golden: "games.txt"}.check(t, rulebook(t, "", "-addr", addr, "games"))
}

// TestUnreachableServer checks the errors of calls that reach no server: a closed port, and a listener that accepts
// connections but never answers, which only -timeout ends.
func TestUnreachableServer(t *testing.T) {
	closed := listen(t)
	closed.Close()
	silent := listen(t) // never accepts: the kernel completes the handshake, nobody speaks
	defer silent.Close()

	tests := []struct {
		name string
		args []string
		want want
	}{
		{"closed port", []string{"-addr", closed.Addr().String(), "-timeout", "5s", "games"},
			want{code: 1, stderrPrefix: "rulebook: Unavailable: "}},
		{"silent server", []string{"-addr", silent.Addr().String(), "-timeout", "200ms", "new", "exploze"},
			want{code: 1, stderrPrefix: "rulebook: DeadlineExceeded: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, rulebook(t, "", tt.args...))
		})
	}
}

// TestRetriesUnavailable checks that the client retries a call that fails with UNAVAILABLE (a replica going away),
// as the service config says: a server that fails the first three calls so is answered at the fourth attempt.
func TestRetriesUnavailable(t *testing.T) {
	var failures atomic.Int32
	failures.Store(3)
	failFirst := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if failures.Add(-1) >= 0 {
			return nil, status.Error(codes.Unavailable, "going away")
		}
		return handler(ctx, req)
	}
	addr := startServer(t, false, grpc.UnaryInterceptor(failFirst))
	want{golden: "games.txt"}.check(t, rulebook(t, "", "-addr", addr, "games"))
}

// listen returns a listener on a free port of 127.0.0.1.
func listen(t *testing.T) net.Listener {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return lis
}
