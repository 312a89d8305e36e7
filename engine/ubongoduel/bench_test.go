package ubongoduel

import "testing"

// benchState returns a side-B game (5-piece tasks, the larger shapes) and player 1's witness submission.
func benchState(b *testing.B) (*State, Move) {
	s := newGame(b, Options{Side: SideB}, 1)
	return s, mustWitness(b, s, 1, 10)
}

// BenchmarkValidateSubmission checks a correct 5-piece solution completely: the cost of judging a claim.
func BenchmarkValidateSubmission(b *testing.B) {
	s, m := benchState(b)
	for b.Loop() {
		if err := s.Validate(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplySubmission applies a winning solution: the check, a new state and the next duel's roll.
func BenchmarkApplySubmission(b *testing.B) {
	s, m := benchState(b)
	for b.Loop() {
		if _, _, err := s.Apply(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCellSetBaseline builds the set of the shape's cells and looks up every cell of the submission once: the
// least any complete check must do, as a baseline for BenchmarkValidateSubmission.
func BenchmarkCellSetBaseline(b *testing.B) {
	s, m := benchState(b)
	shape := s.side().Shape
	for b.Loop() {
		in := make(map[[2]int]bool, len(shape))
		for _, c := range shape {
			in[[2]int{c.X, c.Y}] = true
		}
		for _, p := range m.Placements {
			for _, c := range p.Cells {
				if !in[[2]int{c.X, c.Y}] {
					b.Fatal("outside")
				}
			}
		}
	}
}

// BenchmarkCloneBaseline copies the state: the copy every Apply makes, as a baseline for Apply.
func BenchmarkCloneBaseline(b *testing.B) {
	s, _ := benchState(b)
	for b.Loop() {
		s.clone()
	}
}

// BenchmarkRollDie rolls one face from a die kept in the state: decode the ChaCha8 generator, draw, encode it again
// (what every duel's start costs per roll).
func BenchmarkRollDie(b *testing.B) {
	die := newDie(1)
	for b.Loop() {
		die, _ = rollDie(die, 1)
	}
}
