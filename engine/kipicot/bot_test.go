package kipicot

import (
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
)

// botBoards are arranged positions for player 1 at step 1: twoCatches holds a ready fishing square of 4 singles
// (top left) and one of 4 stacks (bottom right, 8 tokens); lastToken lets player 1, who leads, end the game with the
// last red token.
const (
	twoCatches = "r y . . . | y r . . . | . . r1 . . | y2 . . ry yr | . . . yr ry"
	lastToken  = "r y r y r | y r y r y | r y r1 y r | y r y r y | . . . . y2"
)

// TestBotTactics checks, with a fixed budget of iterations, that the bot's turn (its principal variation, played
// out) catches what each arranged position offers, and that its first step is its variation's.
func TestBotTactics(t *testing.T) {
	for _, tc := range []struct {
		name       string
		board      string
		caught     []Catch
		iterations int
		catch      int
		over       bool
	}{
		{"the biggest catch", twoCatches, nil, 20, 8, false},
		{"the biggest catch, searched long", twoCatches, nil, 400, 8, false},
		{"the end of the game while ahead", lastToken, []Catch{{Red: 7, Yellow: 3}, {Red: 0, Yellow: 3}}, 50, 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := position(t, DefaultOptions(), 1, PhaseOptionalMove, tc.board, tc.caught...)
			if tc.over {
				s = withSupply(t, s, 1)
			}
			plan, err := definition{}.Suggest(s, 1, engine.Budget{Iterations: tc.iterations, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.PrincipalVariation) == 0 || plan.PrincipalVariation[0].String() != plan.Move.String() {
				t.Fatalf("move %v, variation %v", plan.Move, plan.PrincipalVariation)
			}
			at := s
			for _, m := range plan.PrincipalVariation {
				if at, _, err = at.Apply(m); err != nil {
					t.Fatalf("variation %v: %v", plan.PrincipalVariation, err)
				}
			}
			if got := at.Caught(1).Total() - s.Caught(1).Total(); got < tc.catch || at.Over() != tc.over ||
				at.ToMove() == 1 {
				t.Errorf("variation %v catches %d (game over %v), want %d (%v)", plan.PrincipalVariation, got,
					at.Over(), tc.catch, tc.over)
			}
		})
	}
}

// withSupply returns s with n red tokens left in the supply and the rest of the red ones caught by player 2.
func withSupply(t *testing.T, s *State, n int) *State {
	t.Helper()
	p := s.Parts()
	p.Caught[1].Red += p.SupplyRed - n
	p.SupplyRed = n
	next, err := NewState(s.opts, p)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// TestBotPlan checks that the bot's suggestions are the same for the same seed, that the calls inside one turn
// complete a turn as good as the first call's plan, and that a search stopped at once still answers a legal step.
func TestBotPlan(t *testing.T) {
	s := position(t, DefaultOptions(), 1, PhaseOptionalMove, twoCatches)
	budget := engine.Budget{Iterations: 60, Seed: 9}
	first, err := definition{}.Suggest(s, 1, budget)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := definition{}.Suggest(s, 1, budget)
	if !slices.EqualFunc(first.PrincipalVariation, again.PrincipalVariation, func(a, b Move) bool {
		return a.String() == b.String()
	}) {
		t.Errorf("the same seed gave %v, then %v", first.PrincipalVariation, again.PrincipalVariation)
	}
	at := s
	var played []Move
	for at.ToMove() == 1 && len(played) < MaxTurnSteps {
		plan, err := definition{}.Suggest(at, 1, budget)
		if err != nil {
			t.Fatal(err)
		}
		played = append(played, plan.Move)
		if at, _, err = at.Apply(plan.Move); err != nil {
			t.Fatal(err)
		}
	}
	if got := at.Caught(1).Total(); got != 8 || at.ToMove() != 2 {
		t.Errorf("the steps suggested one at a time, %v, catch %d; the first plan, %v, catches 8", played, got,
			first.PrincipalVariation)
	}
	stopped, err := definition{}.Suggest(s, 1, engine.Budget{Stop: func() bool { return true }})
	if err != nil || stopped.Move.Player != 1 || s.Validate(stopped.Move) != nil {
		t.Errorf("stopped at once: %v, %v", stopped.Move, err)
	}
}
