package admission

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/service/caller"
)

// TestCallerLimit checks that a caller with a share has at most that many calls at once, and that the others, with
// no share or with their own, are served meanwhile.
func TestCallerLimit(t *testing.T) {
	l := NewCallerLimit(map[string]int{"bot": 2, AnonymousCaller: 1}, nil)
	as := func(name string) context.Context {
		return caller.NewContext(context.Background(), caller.Caller{Name: name})
	}
	info := &grpc.UnaryServerInfo{FullMethod: "/rulebook.v1.RulesService/ApplyMove"}
	// call makes a call of name, inside the calls already open, and returns its refusal reason ("" if served).
	call := func(name string, inside func()) string {
		_, err := l.Intercept(as(name), nil, info, func(context.Context, any) (any, error) {
			inside()
			return nil, nil
		})
		return refusal.Reason(err)
	}
	var got []string
	record := func(name string) func() { return func() { got = append(got, name+":"+call(name, func() {})) } }
	call("bot", func() {
		call("bot", func() {
			record("bot")()    // a third call of bot: refused
			record("player")() // a caller without a share: served
			record("")()       // the first anonymous call: served
		})
	})
	call("", record("")) // a second anonymous call while one is open: refused
	record("bot")()      // bot's calls are over: served again
	want := []string{"bot:SERVER_BUSY", "player:", ":", ":SERVER_BUSY", "bot:"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
