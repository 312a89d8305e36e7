package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"

	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/servertest"
)

// TestRESTBodiesLimited checks that no more than max-concurrent-calls REST requests with a body are read at once
// (they are read before the limits on gRPC calls apply): one more is refused at once with 429 and SERVER_BUSY, while
// requests without a body, such as health checks, are still served.
func TestRESTBodiesLimited(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			entered <- struct{}{}
			<-release
		}
		w.WriteHeader(http.StatusOK)
	})
	handler := limitBodies(next, runtime.NewServeMux(), &runtime.JSONPb{}, 1024, 1)
	post := func() *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/games/exploze:new", strings.NewReader("{}")))
		return w
	}
	held := make(chan *httptest.ResponseRecorder)
	go func() { held <- post() }()
	servertest.Await(t, entered, "the first call")

	second := make(chan *httptest.ResponseRecorder, 1)
	go func() { second <- post() }()
	select {
	case busy := <-second:
		if busy.Code != http.StatusTooManyRequests || !strings.Contains(busy.Body.String(), admission.ReasonServerBusy) {
			t.Errorf("a second body while one is read: HTTP %d %s, want 429 %s", busy.Code, busy.Body, admission.ReasonServerBusy)
		}
	case <-entered:
		close(release)
		t.Fatal("a second body was let in while one was read")
	case <-time.After(10 * time.Second):
		t.Fatal("a second body was neither served nor refused")
	}
	health := httptest.NewRecorder()
	handler.ServeHTTP(health, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if health.Code != http.StatusOK {
		t.Errorf("a health check while the bodies are all taken: HTTP %d", health.Code)
	}
	close(release)
	if first := <-held; first.Code != http.StatusOK {
		t.Errorf("the first call: HTTP %d", first.Code)
	}
	go func() { held <- post() }() // the slot is free again
	servertest.Await(t, entered, "a call after the first ended")
	if again := <-held; again.Code != http.StatusOK {
		t.Errorf("a call after the first ended: HTTP %d", again.Code)
	}
}
