package enginetest

import (
	"fmt"

	"google.golang.org/protobuf/proto"
)

// probe is what one state answered: its legal moves and, for every move tried, what Validate and Apply said. The
// checks read it, so that each engine call is made once per state however many checks look at its answer.
type probe[S, M any] struct {
	state    S
	snapshot proto.Message // the encoded state before any call
	over     bool
	legal    []M
	keys     []string // the keys of legal, in order
	again    []string // the keys of a second call of Legal
	tries    []try[S, M]
	mutated  string // the call that changed state, or ""
}

// try is one move tried in a probed state.
type try[S, M any] struct {
	move                  M
	candidate, legal      bool // among the candidates; listed by Legal
	validateErr, applyErr error
	next                  S      // the state Apply made, when it made one
	nextWire              []byte // next, encoded as Apply returned it, for the first keptNexts tries that apply
}

// keptNexts is how many of the states made by the tries of a probe are kept encoded, to check that later tries do
// not change them: the first ones, which every later Apply may have overwritten.
const keptNexts = 4

// probe asks s for its legal moves (twice) and tries every candidate (once) and legal move with Validate and
// Apply.
func (h *Harness[S, M]) probe(s S) *probe[S, M] {
	p := &probe[S, M]{state: s, snapshot: proto.Clone(h.Encode(s)), over: h.Over(s)}
	p.legal = h.Legal(s)
	p.keys = h.moveKeys(p.legal)
	p.again = h.moveKeys(h.Legal(s))
	index := map[string]int{}
	if h.Candidates != nil {
		for _, m := range h.Candidates(s) {
			if k := h.moveKey(m); !has(index, k) {
				p.tries = append(p.tries, try[S, M]{move: m, candidate: true})
				index[k] = len(p.tries) - 1
			}
		}
	}
	for i, m := range p.legal {
		if j, ok := index[p.keys[i]]; ok {
			p.tries[j].legal = true
			continue
		}
		p.tries = append(p.tries, try[S, M]{move: m, legal: true})
	}
	kept := 0
	for i := range p.tries {
		t := &p.tries[i]
		t.validateErr = h.Validate(s, t.move)
		next, err := h.Apply(s, t.move)
		if t.applyErr = err; err == nil {
			t.next = next
			if kept < keptNexts {
				t.nextWire, kept = h.wire(next), kept+1
			}
		}
	}
	if !proto.Equal(h.Encode(s), p.snapshot) {
		p.mutated = h.blame(p)
	}
	return p
}

// has reports whether m has the key k.
func has[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}

// blame finds which call changed a probed state, by making each call again on a fresh copy of it.
func (h *Harness[S, M]) blame(p *probe[S, M]) string {
	type call struct {
		name string
		do   func(s S)
	}
	calls := []call{{"Legal", func(s S) { h.Legal(s) }}}
	for _, t := range p.tries {
		calls = append(calls,
			call{fmt.Sprintf("Validate(%+v)", t.move), func(s S) { _ = h.Validate(s, t.move) }},
			call{fmt.Sprintf("Apply(%+v)", t.move), func(s S) { _, _ = h.Apply(s, t.move) }})
	}
	for _, c := range calls {
		fresh, err := h.Decode(proto.Clone(p.snapshot))
		if err != nil {
			break
		}
		c.do(fresh)
		if !proto.Equal(h.Encode(fresh), p.snapshot) {
			return c.name
		}
	}
	return "Legal, Validate or Apply"
}

// wire returns s encoded in deterministic wire form: a cheap snapshot, for states that are many.
func (h *Harness[S, M]) wire(s S) []byte {
	b, err := deterministic.Marshal(h.Encode(s))
	if err != nil {
		panic(fmt.Sprintf("enginetest: an encoded state does not marshal: %v", err))
	}
	return b
}

// deterministic marshals messages so that equal messages give equal bytes (in one binary).
var deterministic = proto.MarshalOptions{Deterministic: true}

// moveKey returns m's deterministic wire encoding, by which the suite compares moves.
func (h *Harness[S, M]) moveKey(m M) string {
	b, err := deterministic.Marshal(h.EncodeMove(m))
	if err != nil {
		panic(fmt.Sprintf("enginetest: EncodeMove(%+v) does not marshal: %v", m, err))
	}
	return string(b)
}

// moveKeys returns the keys of moves.
func (h *Harness[S, M]) moveKeys(moves []M) []string {
	keys := make([]string, len(moves))
	for i, m := range moves {
		keys[i] = h.moveKey(m)
	}
	return keys
}
