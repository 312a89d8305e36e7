package jsapi

import (
	"context"
	"testing"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/internal/restjson"
	"github.com/rulebook/rulebook/service"
)

// TestPanic checks that a panic of the service is answered INTERNAL, as a server answers it, and not passed on (in
// WebAssembly, it would end the module).
func TestPanic(t *testing.T) {
	panicking := method("score", func(*service.Service, context.Context, *rulebookv1.ScoreRequest) (*rulebookv1.ScoreResponse, error) {
		panic("a bug")
	}, game, state)
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	f := Function{Name: panicking.name, m: m, spec: &panicking}
	answer := f.Call(Value{Kind: String, String: "exploze"}, Value{Kind: String, String: "{}"})
	if want := string(restjson.StatusBody(service.ErrInternal)); answer != want {
		t.Errorf("got %s, want %s", answer, want)
	}
}
