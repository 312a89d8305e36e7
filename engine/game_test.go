package engine_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
)

// TestHeldForms checks that Open reads what Held writes, and refuses what no Held writes: a private form of a game
// without one (Kipicot), bytes that are no message, the state of another game; and that a view has no held form.
func TestHeldForms(t *testing.T) {
	p, err := micropul.Spec.New(nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	held, _, err := p.Held(engine.NoPlayer)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := micropul.Spec.Open(held)
	if err != nil || !proto.Equal(opened.Encode(), p.Encode()) {
		t.Fatalf("Open(Held()) = %v, %v; want %v", opened, err, p.Encode())
	}
	for name, b := range map[string][]byte{
		"a private form":   {engine.PrivateForm, 1, 2},
		"no message":       {0xff, 0xff},
		"another game's":   held,
		"no state":         nil,
		"a form cut short": held[:len(held)/2],
	} {
		if _, err := kipicot.Spec.Open(b); err == nil {
			t.Errorf("Kipicot opens %s: % x", name, b)
		}
	}
	view, err := p.View(1)
	if err != nil {
		t.Fatal(err)
	}
	if b, _, err := view.Held(engine.NoPlayer); err == nil {
		t.Errorf("a view's held form is % x", b)
	}
	if _, err := micropul.Spec.Open(mustMarshal(t, view.Encode())); err == nil {
		t.Error("Open reads a view")
	}
}

// mustMarshal returns the wire form of m.
func mustMarshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
