package admission

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/servertest"
)

// Methods as the limiter sees them.
var (
	heavyCall = &grpc.UnaryServerInfo{FullMethod: rulebookv1grpc.RulesService_SolvePuzzle_FullMethodName}
	lightCall = &grpc.UnaryServerInfo{FullMethod: rulebookv1grpc.RulesService_ApplyMove_FullMethodName}
)

// heldCall is a call through a limiter whose handler, once it runs, waits for release.
type heldCall struct {
	running chan struct{} // closed when the handler runs
	release chan struct{} // closed to let the handler return
	done    chan error    // the call's error, once it returns
}

// hold makes a call of info through l in a goroutine, under ctx.
func hold(ctx context.Context, l *Limiter, info *grpc.UnaryServerInfo) *heldCall {
	c := &heldCall{running: make(chan struct{}), release: make(chan struct{}), done: make(chan error, 1)}
	go func() {
		_, err := l.Intercept(ctx, nil, info, func(context.Context, any) (any, error) {
			close(c.running)
			<-c.release
			return nil, nil
		})
		c.done <- err
	}()
	return c
}

// wait returns the call's error, failing the test if it does not return within a generous bound.
func (c *heldCall) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-c.done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("a call never returned")
		return nil
	}
}

// awaitWaiting fails the test unless a heavy call (what) waits in l's waiting room within a generous bound: the only
// way to see a call wait.
func awaitWaiting(t *testing.T, l *Limiter, what string) {
	t.Helper()
	for i := 0; len(l.waiting) == 0; i++ {
		if i == 10_000 {
			t.Fatalf("%s never waited", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// callThrough makes a call of info through l that returns at once, and returns its error.
func callThrough(l *Limiter, info *grpc.UnaryServerInfo) error {
	_, err := l.Intercept(context.Background(), nil, info, func(context.Context, any) (any, error) { return nil, nil })
	return err
}

// wantBusy fails the test unless err is RESOURCE_EXHAUSTED with reason SERVER_BUSY.
func wantBusy(t testing.TB, err error, what string) {
	t.Helper()
	if !isBusy(err) {
		t.Errorf("%s: %v, want RESOURCE_EXHAUSTED SERVER_BUSY", what, err)
	}
}

// isBusy reports whether err is RESOURCE_EXHAUSTED with reason SERVER_BUSY.
func isBusy(err error) bool {
	return status.Code(err) == codes.ResourceExhausted && refusal.Reason(err) == ReasonServerBusy
}

// TestLimiter walks a limiter of 2 calls, 1 of them heavy, through each of its states with calls held in flight:
// a second heavy call waits and a third is refused; waiting heavy calls hold no general slot; light calls are refused
// only when every slot is taken; a waiting call leaves when its caller does, and is refused as busy when its turn
// does not come before its deadline less its margin (or its deadline, whichever the goroutine sees first); a panic
// gives its slots back; and every slot is free at the end.
func TestLimiter(t *testing.T) {
	l := NewLimiter(2, 1, nil)
	first := hold(context.Background(), l, heavyCall)
	servertest.Await(t, first.running, "the first heavy call")
	waiting := hold(context.Background(), l, heavyCall)
	awaitWaiting(t, l, "the second heavy call")
	wantBusy(t, callThrough(l, heavyCall), "a third heavy call, with one running and one waiting")
	if err := callThrough(l, lightCall); err != nil {
		t.Errorf("a light call beside a running and a waiting heavy call: %v", err)
	}
	light := hold(context.Background(), l, lightCall)
	servertest.Await(t, light.running, "the held light call")
	wantBusy(t, callThrough(l, lightCall), "a light call with every slot taken")

	close(light.release)
	close(first.release)
	for _, c := range []*heldCall{light, first} {
		if err := c.wait(t); err != nil {
			t.Errorf("a held call: %v", err)
		}
	}
	servertest.Await(t, waiting.running, "the waiting heavy call's turn")
	close(waiting.release)
	if err := waiting.wait(t); err != nil {
		t.Errorf("the heavy call that waited: %v", err)
	}

	again := hold(context.Background(), l, heavyCall)
	servertest.Await(t, again.running, "a heavy call")
	ctx, cancel := context.WithCancel(context.Background())
	late := hold(ctx, l, heavyCall)
	awaitWaiting(t, l, "the late heavy call")
	cancel()
	if err := late.wait(t); status.Code(err) != codes.Canceled {
		t.Errorf("a heavy call whose caller left while it waited: %v, want CANCELED", err)
	}
	for _, timeout := range []time.Duration{time.Millisecond, 100 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		wantBusy(t, hold(ctx, l, heavyCall).wait(t), "a heavy call whose turn did not come in time (a deadline of "+
			timeout.String()+")")
		cancel()
	}
	close(again.release)
	if err := again.wait(t); err != nil {
		t.Errorf("a held call: %v", err)
	}

	func() {
		defer func() { _ = recover() }()
		_, _ = l.Intercept(context.Background(), nil, heavyCall, func(context.Context, any) (any, error) { panic("engine bug") })
	}()
	if len(l.calls) != 0 || len(l.heavy) != 0 || len(l.waiting) != 0 {
		t.Errorf("slots still taken after every call returned: %d calls, %d heavy, %d waiting", len(l.calls), len(l.heavy), len(l.waiting))
	}
}
