package main

import (
	"net"
	"testing"
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

// listen returns a listener on a free port of 127.0.0.1.
func listen(t *testing.T) net.Listener {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return lis
}
