package enginetest

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// seatCheck is CheckSeatAnswers for a game seen through its Positions; reveals is Hidden.Reveals.
type seatCheck struct {
	reveals func(events []*rulebookv1.Event) bool
}

// seatCounts counts what CheckSeatAnswers compared. The last three count (move, viewer, re-deal) triples: a legal
// move of another seat than the viewer, in a state re-dealt for the viewer.
type seatCounts struct {
	dealt     int // re-dealt states whose Score and, for a seat, Legal were compared
	validated int // answers of Validate to a move of the viewer's seat compared
	told      int // what the viewer is shown of the move (the new state's view and the events) compared
	illegal   int // not compared: the re-deal refuses the move
	revealing int // not compared: the move makes something hidden public (Hidden.Reveals)
	suggested int // bot's suggestions of a seat that may move compared
}

// add adds d to c.
func (c *seatCounts) add(d seatCounts) {
	c.dealt += d.dealt
	c.validated += d.validated
	c.told += d.told
	c.illegal += d.illegal
	c.revealing += d.revealing
	c.suggested += d.suggested
}

// applied is a legal move of a probed state with what Apply made of it.
type applied struct {
	from   engine.Position
	move   *rulebookv1.Move
	next   engine.Position
	events []*rulebookv1.Event
}

// mover returns the player of the applied move.
func (a applied) mover() engine.Player { return engine.Player(a.move.GetPlayer()) }

// shown is what a viewer is shown of an applied move: the view of the new state (or View's error) and of the events.
type shown struct {
	view   *rulebookv1.GameState
	err    error
	events []*rulebookv1.Event
}

// check re-deals the probed state s for each viewer (NoPlayer, then each seat) and fails if anything the game tells
// that viewer changes: Score; for a seat, Legal, the answers of Validate to every probed move of the seat and the
// bot's suggestion (Suggest, searching botBudget: the bot never uses what its seat may not see); and,
// for every legal move of another seat that the re-deal accepts too, the viewer's View of the new state and
// ViewEvents of the move's events (unless the move reveals what was hidden). It also fails if ViewEvents changes its
// input or gives not one event for each.
func (c seatCheck) check(h *Harness[engine.Position, *rulebookv1.Move],
	p *probe[engine.Position, *rulebookv1.Move]) (n seatCounts, err error) {
	s := p.state
	score := s.Score()
	moves, revealing := c.applyLegal(p)
	for _, viewer := range h.viewers(s) {
		var legal []*rulebookv1.Move
		var legalErr, suggestErr error
		var suggestion []*rulebookv1.SuggestMoveResponse
		if viewer != engine.NoPlayer {
			legal, legalErr = s.Legal(viewer)
			suggestion, suggestErr = c.suggest(s, viewer)
		}
		var others []applied
		var want []shown
		for _, a := range moves {
			if a.mover() != viewer {
				w, err := c.show(a, viewer)
				if err != nil {
					return n, err
				}
				others, want = append(others, a), append(want, w)
			}
		}
		for _, a := range revealing {
			if a.mover() != viewer {
				n.revealing += redeals
			}
		}
		for k := range uint64(redeals) {
			seed := redealSeed(viewer, k)
			dealt := h.Redeal(s, viewer, seed)
			after := fmt.Sprintf("after Redeal(s, %d, %d)", viewer, seed)
			n.dealt++
			if d := answerDiff([]*rulebookv1.Score{score}, nil, []*rulebookv1.Score{dealt.Score()}, nil); d != "" {
				return n, fmt.Errorf("Score depends on what viewer %d may not see: %s, %s", viewer, after, d)
			}
			if viewer != engine.NoPlayer {
				l, err := dealt.Legal(viewer)
				if d := answerDiff(legal, legalErr, l, err); d != "" {
					return n, fmt.Errorf("Legal(s, %d) depends on what seat %d may not see: %s, %s", viewer, viewer,
						after, d)
				}
				if err := c.compareValidate(p, viewer, dealt, after, &n); err != nil {
					return n, err
				}
				got, err := c.suggest(dealt, viewer)
				if d := answerDiff(suggestion, suggestErr, got, err); d != "" {
					return n, fmt.Errorf("Suggest(s, %d) depends on what seat %d may not see: %s, %s", viewer, viewer,
						after, d)
				}
				if suggestErr == nil {
					n.suggested++
				}
			}
			for i, a := range others {
				if err := c.compareTold(a, want[i], viewer, dealt, after, &n); err != nil {
					return n, err
				}
			}
		}
	}
	return n, nil
}

// botBudget is the budget of the bot's searches that the seat check compares: a few iterations, as any number of
// them reads the same view.
var botBudget = engine.Budget{Level: engine.Medium, Iterations: 8, Seed: 1}

// suggest returns the bot's suggestion for seat in s, searching botBudget, as the message SuggestMove answers.
func (c seatCheck) suggest(s engine.Position, seat engine.Player) ([]*rulebookv1.SuggestMoveResponse, error) {
	sg, err := s.Suggest(seat, botBudget)
	if err != nil {
		return nil, err
	}
	return []*rulebookv1.SuggestMoveResponse{{Move: sg.Move, Evaluation: sg.Evaluation,
		PrincipalVariation: sg.PrincipalVariation, Iterations: sg.Iterations, Delay: durationpb.New(sg.Delay)}}, nil
}

// applyLegal applies every legal move of the probed state, and parts them into those whose events reveal what was
// hidden and the others.
func (c seatCheck) applyLegal(p *probe[engine.Position, *rulebookv1.Move]) (moves, revealing []applied) {
	for _, t := range p.tries {
		if !t.legal {
			continue
		}
		next, events, err := p.state.Apply(t.move)
		switch {
		case err != nil: // LegalMovesApply reports it
		case c.reveal(events):
			revealing = append(revealing, applied{p.state, t.move, next, events})
		default:
			moves = append(moves, applied{p.state, t.move, next, events})
		}
	}
	return moves, revealing
}

// compareValidate fails if Validate answers a probed move of seat otherwise in dealt, a re-deal for seat, than in the
// probed state.
func (c seatCheck) compareValidate(p *probe[engine.Position, *rulebookv1.Move], seat engine.Player,
	dealt engine.Position, after string, n *seatCounts) error {
	for _, t := range p.tries {
		if engine.Player(t.move.GetPlayer()) != seat {
			continue
		}
		n.validated++
		if err := dealt.Validate(t.move); !sameRefusal(t.validateErr, err) {
			return fmt.Errorf("Validate(%v) depends on what seat %d may not see: %s, %s then %s", t.move, seat,
				after, describe(t.validateErr), describe(err))
		}
	}
	return nil
}

// compareTold fails if viewer is shown otherwise move a applied in dealt, a re-deal for viewer, than want, what they
// are shown of it in the probed state. A move that dealt refuses or whose events there reveal what was hidden is only
// counted.
func (c seatCheck) compareTold(a applied, want shown, viewer engine.Player, dealt engine.Position,
	after string, n *seatCounts) error {
	next, events, err := dealt.Apply(a.move)
	switch {
	case err != nil:
		n.illegal++
		return nil
	case c.reveal(events):
		n.revealing++
		return nil
	}
	n.told++
	got, err := c.show(applied{dealt, a.move, next, events}, viewer)
	if err != nil {
		return err
	}
	views := func(s shown) []*rulebookv1.GameState { return []*rulebookv1.GameState{s.view} }
	if d := answerDiff(views(want), want.err, views(got), got.err); d != "" {
		return fmt.Errorf("the view of viewer %d after %v depends on what they may not see: %s, %s", viewer, a.move,
			after, d)
	}
	if d := answerDiff(want.events, nil, got.events, nil); d != "" {
		return fmt.Errorf("the events of %v shown to viewer %d depend on what they may not see: %s, %s", a.move,
			viewer, after, d)
	}
	return nil
}

// reveal reports whether events make something hidden public.
func (c seatCheck) reveal(events []*rulebookv1.Event) bool {
	return c.reveals != nil && c.reveals(events)
}

// show returns what viewer is shown of the applied move, failing if ViewEvents changes the events or gives not one
// event for each.
func (c seatCheck) show(a applied, viewer engine.Player) (shown, error) {
	var state *rulebookv1.GameState
	view, err := a.next.View(viewer)
	if err == nil {
		state = view.Encode()
	}
	before := cloneAll(a.events)
	events := a.from.ViewEvents(a.events, viewer)
	if d := answerDiff(before, nil, a.events, nil); d != "" {
		return shown{}, fmt.Errorf("ViewEvents(events of %v, %d) changed its input: %s", a.move, viewer, d)
	}
	if len(events) != len(a.events) {
		return shown{}, fmt.Errorf("ViewEvents(events of %v, %d) gives %d events for %d", a.move, viewer,
			len(events), len(a.events))
	}
	return shown{state, err, events}, nil
}

// cloneAll returns deep copies of ms.
func cloneAll[T proto.Message](ms []T) []T {
	out := make([]T, len(ms))
	for i, m := range ms {
		out[i] = proto.Clone(m).(T)
	}
	return out
}

// answerDiff returns how two answers of a game, each messages and an error, differ, or "" when they are equal.
func answerDiff[T proto.Message](a []T, errA error, b []T, errB error) string {
	switch {
	case !sameRefusal(errA, errB):
		return fmt.Sprintf("%s, then %s", describe(errA), describe(errB))
	case len(a) != len(b):
		return fmt.Sprintf("%d messages, then %d", len(a), len(b))
	}
	for i := range a {
		if d := diff(a[i], b[i]); d != "" {
			return fmt.Sprintf("message %d: %s", i+1, d)
		}
	}
	return ""
}
