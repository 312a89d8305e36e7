package enginetest

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/micropul"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// leak is a way for leakyMicropul to tell a seat what it may not see, or (lossyHeld) to lose what a token holds.
type leak int

const (
	noLeak             leak = iota
	leakyViewEvents         // ViewEvents shows the drawn and taken tiles to everyone
	mutatingViewEvents      // ViewEvents hides the drawn tiles in its input
	leakyLegal              // Legal orders the moves by the top tile of the core
	leakyScore              // Score counts the top tile of the core
	leakyValidate           // Validate and Apply name the top tile of the core in their refusals
	leakyGameView           // View shows the whole state
	revealsAll              // Hidden.Reveals says that every move reveals what was hidden
	leakySuggest            // Suggest seeds its search with the top tile of the core
	lossyHeld               // Held holds the core in reverse order
)

// leakyMicropul is Micropul as an engine.Game (a game with hidden tiles: the core, the supplies, the hands), whose
// positions leak hidden information in the way leak says: the suite must catch each.
type leakyMicropul struct {
	micropul.Game
	leak leak
}

// New is Micropul's, with a leaky position.
func (g leakyMicropul) New(options *rulebookv1.GameOptions, seed uint64) (engine.Position, error) {
	return g.wrap(g.Game.New(options, seed))
}

// Decode is Micropul's, with a leaky position.
func (g leakyMicropul) Decode(state *rulebookv1.GameState) (engine.Position, error) {
	return g.wrap(g.Game.Decode(state))
}

// Open is Micropul's, with a leaky position.
func (g leakyMicropul) Open(held []byte) (engine.Position, error) { return g.wrap(g.Game.Open(held)) }

// wrap returns p as a leaky position, or err.
func (g leakyMicropul) wrap(p engine.Position, err error) (engine.Position, error) {
	if err != nil {
		return nil, err
	}
	return leakyPosition{p, g.leak}, nil
}

// leakyPosition is a position of Micropul, leaking as leak says.
type leakyPosition struct {
	engine.Position
	leak leak
}

// coreTop returns the top tile of the core, which nobody may see.
func (p leakyPosition) coreTop() uint32 {
	core := p.Encode().GetMicropul().GetCore()
	if len(core) == 0 {
		return 0
	}
	return core[0]
}

// Suggest is Micropul's bot, unless it leaks.
func (p leakyPosition) Suggest(seat engine.Player, b engine.Budget) (engine.Suggestion, error) {
	if p.leak == leakySuggest {
		b.Seed += uint64(p.coreTop())
	}
	return p.Position.Suggest(seat, b)
}

// ViewEvents is Micropul's, unless it leaks.
func (p leakyPosition) ViewEvents(events []*rulebookv1.Event, viewer engine.Player) []*rulebookv1.Event {
	switch p.leak {
	case leakyViewEvents:
		return events
	case mutatingViewEvents:
		for _, e := range events {
			if d := e.GetMicropul().GetTilesDrawn(); d != nil {
				d.Tiles, d.Hidden = nil, true
			}
		}
	}
	return p.Position.ViewEvents(events, viewer)
}

// Legal is Micropul's, unless it leaks.
func (p leakyPosition) Legal(player engine.Player) ([]*rulebookv1.Move, error) {
	moves, err := p.Position.Legal(player)
	if p.leak == leakyLegal && p.coreTop()%2 == 1 {
		slices.Reverse(moves)
	}
	return moves, err
}

// Score is Micropul's, unless it leaks.
func (p leakyPosition) Score() *rulebookv1.Score {
	score := p.Position.Score()
	if p.leak == leakyScore {
		score.GetStandings()[0].Points += int32(p.coreTop())
	}
	return score
}

// Validate is Micropul's, unless it leaks.
func (p leakyPosition) Validate(m *rulebookv1.Move) error { return p.refusal(p.Position.Validate(m)) }

// Apply is Micropul's, with a leaky position, unless it leaks.
func (p leakyPosition) Apply(m *rulebookv1.Move) (engine.Position, []*rulebookv1.Event, error) {
	next, events, err := p.Position.Apply(m)
	if err != nil {
		return nil, nil, p.refusal(err)
	}
	return leakyPosition{next, p.leak}, events, nil
}

// refusal returns err, naming the top tile of the core if it leaks.
func (p leakyPosition) refusal(err error) error {
	e, ok := engine.AsError(err)
	if p.leak != leakyValidate || !ok {
		return err
	}
	leaked := *e
	leaked.Facts = map[string]string{"coreTop": strconv.Itoa(int(p.coreTop()))}
	return &leaked
}

// Held is Micropul's, unless it loses the core's order.
func (p leakyPosition) Held(viewer engine.Player) ([]byte, *rulebookv1.GameState, error) {
	held, view, err := p.Position.Held(viewer)
	if p.leak != lossyHeld || err != nil {
		return held, view, err
	}
	s := p.Encode()
	slices.Reverse(s.GetMicropul().GetCore())
	held, err = proto.Marshal(s)
	return held, view, err
}

// View is Micropul's, unless it leaks.
func (p leakyPosition) View(viewer engine.Player) (engine.Position, error) {
	if p.leak == leakyGameView {
		return p, nil
	}
	return p.Position.View(viewer)
}

// leakyHarness adapts leakyMicropul, two-player, to the suite. Its candidates are each player's pass and take, which
// the player not to move sees refused.
func leakyHarness(l leak) Harness[engine.Position, *rulebookv1.Move] {
	hidden := &Hidden{Redeal: redealMicropul}
	if l == revealsAll {
		hidden.Reveals = func([]*rulebookv1.Event) bool { return true }
	}
	h := GameHarness(leakyMicropul{leak: l}, nil, func(engine.Position) []*rulebookv1.Move {
		var moves []*rulebookv1.Move
		for p := engine.Player(1); p <= 2; p++ {
			moves = append(moves, micropul.Move{Player: p, Action: micropul.Pass}.Proto(),
				micropul.Move{Player: p, Action: micropul.TakeTile}.Proto())
		}
		return moves
	}, hidden)
	h.MaxPlies = 1000
	return h
}

// redealMicropul deals anew every tile of a Micropul state that viewer may not see: the core, the supplies and the
// other players' hands are pooled, shuffled and dealt back with the same sizes. A game that ended blocked has shown
// that no tile of any hand could be placed, so there the hands stay.
func redealMicropul(s *rulebookv1.GameState, viewer engine.Player, seed uint64) *rulebookv1.GameState {
	dealt := proto.Clone(s).(*rulebookv1.GameState)
	m := dealt.GetMicropul()
	redealsHand := func(i int) bool {
		return engine.Player(i+1) != viewer && m.GetEnd() != rulebookv1.MicropulEnd_MICROPUL_END_BLOCKED
	}
	pool := slices.Clone(m.GetCore())
	for i, p := range m.GetPlayers() {
		pool = append(pool, p.GetSupply()...)
		if redealsHand(i) {
			pool = append(pool, p.GetHand()...)
		}
	}
	rand.New(rand.NewPCG(seed, 7)).Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	deal := func(n int) []uint32 {
		out := slices.Clone(pool[:n])
		pool = pool[n:]
		return out
	}
	m.Core = deal(len(m.Core))
	for i, p := range m.GetPlayers() {
		p.Supply = deal(len(p.Supply))
		if redealsHand(i) {
			p.Hand = deal(len(p.Hand))
			slices.Sort(p.Hand)
		}
	}
	return dealt
}

// TestSeatChecksCatchLeaks shows that the seat and view checks of a GameHarness catch each way of leaking hidden
// information to a seat, and that no check fails on the game that leaks nothing.
func TestSeatChecksCatchLeaks(t *testing.T) {
	for _, c := range []struct {
		name  string
		leak  leak
		check string // "" for none
	}{
		{"noLeak", noLeak, ""},
		{"leakyViewEvents", leakyViewEvents, CheckSeatAnswers},
		{"mutatingViewEvents", mutatingViewEvents, CheckSeatAnswers},
		{"leakyLegal", leakyLegal, CheckSeatAnswers},
		{"leakyScore", leakyScore, CheckSeatAnswers},
		{"leakyValidate", leakyValidate, CheckSeatAnswers},
		{"leakyGameView", leakyGameView, CheckViews},
		{"revealsAll", revealsAll, CheckSeatAnswers},
		{"leakySuggest", leakySuggest, CheckSeatAnswers},
		{"lossyHeld", lossyHeld, CheckPosition},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := leakyHarness(c.leak)
			wantCaught(t, h.run(seeds(1)), c.check)
		})
	}
}
