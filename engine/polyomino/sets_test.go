package polyomino

import (
	"slices"
	"testing"
)

// TestUbongoPieces checks the 21 Ubongo pieces against the rules: 10 pentominoes and 11 hexominoes, 116 cells, all
// connected and pairwise distinct as free polyominoes, and 132 distinct placements under rotation and reflection,
// read as the distinct fixed orientations summed over the pieces (60 for the pentominoes, 72 for the hexominoes).
func TestUbongoPieces(t *testing.T) {
	s := Ubongo()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	sizes := map[int]int{}
	orients := map[int]int{}
	for i, p := range s.Pieces {
		if want := string(rune('A' + i)); p.Name != want {
			t.Errorf("piece %d is named %q, want %q", i, p.Name, want)
		}
		sizes[len(p.Cells)]++
		orients[len(p.Cells)] += len(p.Orientations(true))
		if got, want := len(p.Orientations(true)), len(plainOrients(p.Cells, true)); got != want {
			t.Errorf("piece %s: %d orientations, plain count %d", p.Name, got, want)
		}
		for j, q := range s.Pieces[:i] {
			if Congruent(p.Cells, q.Cells, true) {
				t.Errorf("pieces %s and %s are the same free polyomino", p.Name, s.Pieces[j].Name)
			}
		}
	}
	if sizes[5] != 10 || sizes[6] != 11 || len(sizes) != 2 {
		t.Errorf("piece sizes %v, want 10 of 5 cells and 11 of 6", sizes)
	}
	if s.Area() != 116 {
		t.Errorf("area %d, want 116", s.Area())
	}
	if s.Placements() != 132 || orients[5] != 60 || orients[6] != 72 {
		t.Errorf("placements %d (%v by size), want 132 (60 + 72)", s.Placements(), orients)
	}
}

// TestUbongoPentominoes checks that the pentominoes among the Ubongo pieces are the ones the rules name.
func TestUbongoPentominoes(t *testing.T) {
	names := map[string]string{"A": "V", "B": "P", "C": "N", "D": "Y", "G": "Z", "J": "T", "L": "F", "O": "L", "T": "U", "U": "W"}
	pent := Pentominoes()
	for _, p := range Ubongo().Pieces {
		want, ok := names[p.Name]
		if ok != (len(p.Cells) == 5) {
			t.Errorf("piece %s has %d cells", p.Name, len(p.Cells))
			continue
		}
		if !ok {
			continue
		}
		k := slices.IndexFunc(pent.Pieces, func(q Piece) bool { return q.Name == want })
		if !Congruent(p.Cells, pent.Pieces[k].Cells, true) {
			t.Errorf("piece %s is not the %s-pentomino", p.Name, want)
		}
	}
}

// TestPentominoes checks the 12 pentominoes: distinct, 60 cells, and 63 fixed orientations with turning over
// (F I L N P T U V W X Y Z have 8 2 8 8 8 4 4 4 4 1 8 4).
func TestPentominoes(t *testing.T) {
	s := Pentominoes()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	want := []int{8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4}
	for i, p := range s.Pieces {
		if got := len(p.Orientations(true)); got != want[i] {
			t.Errorf("%s: %d orientations, want %d", p.Name, got, want[i])
		}
		for _, q := range s.Pieces[:i] {
			if Congruent(p.Cells, q.Cells, true) {
				t.Errorf("%s and %s are the same pentomino", p.Name, q.Name)
			}
		}
	}
	if s.Area() != 60 || s.Placements() != 63 {
		t.Errorf("area %d, placements %d; want 60, 63", s.Area(), s.Placements())
	}
}

// TestSetsAreFresh checks that changing a returned set does not change the next one.
func TestSetsAreFresh(t *testing.T) {
	s := Ubongo()
	s.Pieces[0].Cells[0] = Cell{9, 9}
	if Ubongo().Pieces[0].Cells[0] == (Cell{9, 9}) {
		t.Error("Ubongo shares its pieces between calls")
	}
}
