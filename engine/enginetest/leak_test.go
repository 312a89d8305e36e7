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

// leak is a way for leakyMicropul to tell a seat what it may not see.
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
)

// leakyMicropul is Micropul as an engine.Game (a game with hidden tiles: the core, the supplies, the hands), leaking
// hidden information in the way leak says: the suite must catch each.
type leakyMicropul struct {
	micropul.Game
	leak leak
}

// coreTop returns the top tile of the core of s, which nobody may see.
func coreTop(s *rulebookv1.GameState) uint32 {
	core := s.GetMicropul().GetCore()
	if len(core) == 0 {
		return 0
	}
	return core[0]
}

// Suggest is Micropul's bot, unless it leaks.
func (g leakyMicropul) Suggest(s *rulebookv1.GameState, seat engine.Player, b engine.Budget) (engine.Suggestion, error) {
	if g.leak == leakySuggest {
		b.Seed += uint64(coreTop(s))
	}
	return g.Game.Suggest(s, seat, b)
}

// ViewEvents is Micropul's, unless it leaks.
func (g leakyMicropul) ViewEvents(events []*rulebookv1.Event, viewer engine.Player) []*rulebookv1.Event {
	switch g.leak {
	case leakyViewEvents:
		return events
	case mutatingViewEvents:
		for _, e := range events {
			if d := e.GetMicropul().GetTilesDrawn(); d != nil {
				d.Tiles, d.Hidden = nil, true
			}
		}
	}
	return g.Game.ViewEvents(events, viewer)
}

// Legal is Micropul's, unless it leaks.
func (g leakyMicropul) Legal(s *rulebookv1.GameState, player engine.Player) ([]*rulebookv1.Move, error) {
	moves, err := g.Game.Legal(s, player)
	if g.leak == leakyLegal && coreTop(s)%2 == 1 {
		slices.Reverse(moves)
	}
	return moves, err
}

// Score is Micropul's, unless it leaks.
func (g leakyMicropul) Score(s *rulebookv1.GameState) (*rulebookv1.Score, error) {
	score, err := g.Game.Score(s)
	if g.leak == leakyScore && err == nil {
		score.GetStandings()[0].Points += int32(coreTop(s))
	}
	return score, err
}

// Validate is Micropul's, unless it leaks.
func (g leakyMicropul) Validate(s *rulebookv1.GameState, m *rulebookv1.Move) error {
	return g.refusal(s, g.Game.Validate(s, m))
}

// Apply is Micropul's, unless it leaks.
func (g leakyMicropul) Apply(s *rulebookv1.GameState, m *rulebookv1.Move) (*rulebookv1.GameState,
	[]*rulebookv1.Event, error) {
	next, events, err := g.Game.Apply(s, m)
	return next, events, g.refusal(s, err)
}

// refusal returns err, naming the top tile of the core of s if it leaks.
func (g leakyMicropul) refusal(s *rulebookv1.GameState, err error) error {
	e, ok := engine.AsError(err)
	if g.leak != leakyValidate || !ok {
		return err
	}
	leaked := *e
	leaked.Facts = map[string]string{"coreTop": strconv.Itoa(int(coreTop(s)))}
	return &leaked
}

// View is Micropul's, unless it leaks.
func (g leakyMicropul) View(s *rulebookv1.GameState, viewer engine.Player) (*rulebookv1.GameState, error) {
	if g.leak == leakyGameView {
		return s, nil
	}
	return g.Game.View(s, viewer)
}

// leakyHarness adapts leakyMicropul, two-player, to the suite. Its candidates are each player's pass and take, which
// the player not to move sees refused.
func leakyHarness(l leak) Harness[*rulebookv1.GameState, *rulebookv1.Move] {
	hidden := &Hidden{Redeal: redealMicropul}
	if l == revealsAll {
		hidden.Reveals = func([]*rulebookv1.Event) bool { return true }
	}
	h := GameHarness(leakyMicropul{leak: l}, nil, func(*rulebookv1.GameState) []*rulebookv1.Move {
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
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := leakyHarness(c.leak)
			wantCaught(t, h.run(seeds(1)), c.check)
		})
	}
}
