package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// trickler holds one REST connection that sends a request of a 1,000-byte body a byte at a time, and opens
// another whenever the server ends it (at the call's deadline), until ctx is done.
func trickler(ctx context.Context, addr string, started *atomic.Int32, failures *atomic.Int32) {
	const head = "POST /v1/games/exploze:apply HTTP/1.1\r\nHost: rulebook\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
	for counted := false; ctx.Err() == nil; {
		conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		if err != nil {
			if ctx.Err() == nil {
				failures.Add(1)
			}
			return
		}
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		_, err = io.WriteString(conn, head+"{")
		for err == nil && ctx.Err() == nil {
			if !counted {
				started.Add(1)
				counted = true
			}
			time.Sleep(50 * time.Millisecond)
			_, err = io.WriteString(conn, " ")
		}
		stop()
		conn.Close()
	}
}

// TestTricklingBodiesDoNotStarveOthers runs rulebookd with its defaults and holds 600 REST connections that each
// trickle a body a byte at a time (reopened when the server cuts them at the call's deadline); meanwhile, other REST
// and gRPC calls must all be answered, and answered well.
func TestTricklingBodiesDoNotStarveOthers(t *testing.T) {
	p := startProcess(t, map[string]string{stateKeysEnv: servertest.StateKeys})
	addr := strings.TrimPrefix(p.URL, "http://")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	const tricklers = 600
	var started, failures atomic.Int32
	for range tricklers {
		wg.Go(func() { trickler(ctx, addr, &started, &failures) })
	}
	for i := 0; started.Load() < tricklers; i++ { // until every trickler has its connection and sends its body
		if i == 60_000 || failures.Load() > 0 {
			t.Fatalf("%d of %d tricklers started, %d could not connect", started.Load(), tricklers, failures.Load())
		}
		time.Sleep(time.Millisecond)
	}

	sealed := servertest.Succeeded(p.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "exploze", Seal: true}))(t)
	for i := range 50 {
		score := &rulebookv1.ScoreRequest{Game: "exploze", Token: sealed.GetToken()}
		if _, err := p.RPC.Score(servertest.CallContext(t), score); err != nil {
			t.Fatalf("gRPC call %d beside %d trickling bodies: %v", i, tricklers, err)
		}
		if code, body := p.Post(t, "/v1/games/exploze:score", fmt.Sprintf(`{"token": %q}`, sealed.GetToken())); code != http.StatusOK {
			t.Fatalf("REST call %d beside %d trickling bodies: HTTP %d %s", i, tricklers, code, body)
		}
		if code, body := p.Get(t, "/v1/games"); code != http.StatusOK {
			t.Fatalf("REST GET %d beside %d trickling bodies: HTTP %d %s", i, tricklers, code, body)
		}
	}
	if n := failures.Load(); n > 0 {
		t.Errorf("%d tricklers could not connect", n)
	}
}
