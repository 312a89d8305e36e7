package polyomino

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCongruent checks each Ubongo piece and pentomino against its own images, moved and listed in a random order
// (congruent with turning over; without it, only when the image is a rotation or the piece is symmetric), and against
// every other piece (never congruent).
func TestCongruent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []Set{Ubongo(), Pentominoes()} {
		for i, p := range s.Pieces {
			chiral := len(p.Orientations(true)) == 2*len(p.Orientations(false))
			for tr := range 8 {
				img := image(p.Cells, tr)
				dx, dy := rng.IntN(21)-10, rng.IntN(21)-10
				for k := range img {
					img[k].X += dx
					img[k].Y += dy
				}
				rng.Shuffle(len(img), func(a, b int) { img[a], img[b] = img[b], img[a] })
				if !Congruent(p.Cells, img, true) {
					t.Errorf("%s %s: image %d not congruent with mirror", s.Name, p.Name, tr)
				}
				wantRot := tr < 4 || !chiral
				if got := Congruent(p.Cells, img, false); got != wantRot {
					t.Errorf("%s %s (chiral %v): image %d congruent without mirror = %v", s.Name, p.Name, chiral, tr, got)
				}
			}
			for j, q := range s.Pieces {
				if j != i && (Congruent(p.Cells, q.Cells, true) || Congruent(p.Cells, q.Cells, false)) {
					t.Errorf("%s %s congruent to %s", s.Name, p.Name, q.Name)
				}
			}
		}
	}
}

// TestCongruentEdgeCases checks sizes that differ, duplicate cells and empty lists.
func TestCongruentEdgeCases(t *testing.T) {
	f := Pentominoes().Pieces[0].Cells
	for _, c := range []struct {
		name string
		a, b Cells
		want bool
	}{
		{"smaller", f, f[:4], false},
		{"a cell listed twice", f, append(slices.Clone(f[:4]), f[0]), false},
		{"both empty", nil, Cells{}, true},
		{"one empty", nil, f, false},
	} {
		if got := Congruent(c.a, c.b, true); got != c.want {
			t.Errorf("%s: Congruent = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestOrientationsMatchPlain compares Orientations with the plain reference on every small piece, both ways.
func TestOrientationsMatchPlain(t *testing.T) {
	for _, p := range append(append(smallPieces(), Pentominoes().Pieces...), Ubongo().Pieces...) {
		for _, mirror := range []bool{false, true} {
			got := p.Orientations(mirror)
			want := plainOrients(p.Cells, mirror)
			if len(got) != len(want) {
				t.Errorf("%s mirror %v: %d orientations, plain %d", p.Name, mirror, len(got), len(want))
			}
			for _, o := range want {
				if !slices.ContainsFunc(got, func(g Cells) bool { return plainKey(g) == plainKey(o) }) {
					t.Errorf("%s mirror %v: orientation %v missing", p.Name, mirror, o)
				}
			}
			if !slices.Equal(got[0], Normalize(p.Cells)) {
				t.Errorf("%s: first orientation %v is not the normal form", p.Name, got[0])
			}
		}
	}
}
