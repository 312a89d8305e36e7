package polyomino

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTilingSubsetsMatchesPlain compares TilingSubsets with the plain search on random shapes and piece sets: the
// same subsets in the same order, for 1 and 2 workers, each with a witness checked cell by cell.
func TestTilingSubsetsMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pool := smallPieces()
	found := 0
	for i := range 150 {
		s := randomSet(rng, pool, 7)
		k := 1 + rng.IntN(len(s.Pieces))
		area := 0
		for _, p := range rng.Perm(len(s.Pieces))[:k] {
			area += len(s.Pieces[p].Cells)
		}
		w := 2 + rng.IntN(4)
		shape := randomShape(rng, area, w, max(2+rng.IntN(4), (area+w-1)/w))
		want := plainSubsets(shape, s, k)
		for _, workers := range []int{1, 2} {
			got, err := TilingSubsets(context.Background(), shape, s, k, Options{Workers: workers})
			if err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			var gotSets [][]int
			for _, tl := range got {
				gotSets = append(gotSets, tl.Pieces)
				checkSolution(t, shape, s, tl.Solution, tl.Pieces)
			}
			if !slices.EqualFunc(gotSets, want, slices.Equal) {
				t.Fatalf("case %d, workers %d, k %d: TilingSubsets %v, plain %v\nshape:\n%s\npieces %v", i, workers, k,
					gotSets, want, shape.Grid(), s.Pieces)
			}
		}
		found += len(want)
	}
	if found < 50 {
		t.Errorf("only %d tiling subsets in all cases: the test is too weak", found)
	}
}

// TestTilingSubsetsUbongo lists the 4-subsets of the 21 Ubongo pieces that tile a 5 x 4 rectangle and a 22-cell
// shape, checks each witness, checks a sample against the plain search, and checks that the result does not depend
// on the workers.
func TestTilingSubsetsUbongo(t *testing.T) {
	shapes := []Cells{Rect(5, 4), mustGrid(t, "####.|#####|#####|#####|.###.")}
	s := Ubongo()
	for _, shape := range shapes {
		one, err := TilingSubsets(context.Background(), shape, s, 4, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		two, err := TilingSubsets(context.Background(), shape, s, 4, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(one) == 0 || len(one) != len(two) {
			t.Fatalf("%d and %d tiling subsets", len(one), len(two))
		}
		for i, tl := range one {
			if !slices.Equal(tl.Pieces, two[i].Pieces) || !slices.EqualFunc(tl.Solution, two[i].Solution, slices.Equal) {
				t.Fatalf("subset %d differs between 1 and 2 workers", i)
			}
			if i > 0 && slices.Compare(one[i-1].Pieces, tl.Pieces) >= 0 {
				t.Fatalf("subsets %v and %v out of order", one[i-1].Pieces, tl.Pieces)
			}
			checkSolution(t, shape, s, tl.Solution, tl.Pieces)
		}
		// Every subset of the right area whose index sum is a multiple of 7 against the plain search.
		tiles := map[[4]int]bool{}
		for _, tl := range one {
			tiles[[4]int(tl.Pieces)] = true
		}
		checked := 0
		for _, m := range combinations(func() []int {
			var sz []int
			for _, p := range s.Pieces {
				sz = append(sz, len(p.Cells))
			}
			return sz
		}(), 4, len(shape)) {
			var idx []int
			for p := range 21 {
				if m&(1<<p) != 0 {
					idx = append(idx, p)
				}
			}
			if (idx[0]+idx[1]+idx[2]+idx[3])%7 != 0 {
				continue
			}
			checked++
			want := plainCount(shape, plainPieces(s.Subset(idx...)), true, 1) > 0
			if tiles[[4]int(idx)] != want {
				t.Errorf("subset %v: TilingSubsets says %v, plain search %v", idx, tiles[[4]int(idx)], want)
			}
		}
		t.Logf("%d cells: %d of the 4-subsets tile; %d checked against the plain search", len(shape), len(one), checked)
	}
}
