package polyomino

import (
	"context"
	"testing"
)

// FuzzCount builds a shape of up to 16 cells in a 4 x 4 box from the bits of cells and a piece set from pieces (each
// byte picks a piece of the small pool; at most five), then compares Count and Find with the plain search. Whatever
// the input, they must not panic; when the areas differ they must refuse with AREA_MISMATCH.
func FuzzCount(f *testing.F) {
	f.Add(uint16(0xffff), []byte{4, 4, 4, 4}, true)
	f.Add(uint16(0x0f0f), []byte{5, 1}, false)
	f.Add(uint16(0x00ff), []byte{9, 3}, true)
	f.Add(uint16(0), []byte{}, false)
	pool := smallPieces()
	f.Fuzz(func(t *testing.T, cells uint16, pieces []byte, mirror bool) {
		var shape Cells
		for k := range 16 {
			if cells&(1<<k) != 0 {
				shape = append(shape, Cell{k % 4, k / 4})
			}
		}
		s := Set{Name: "fuzz", Mirror: mirror}
		for _, b := range pieces[:min(len(pieces), 5)] {
			s.Pieces = append(s.Pieces, pool[int(b)%len(pool)])
		}
		ctx := context.Background()
		n, err := Count(ctx, shape, s, Options{Workers: 2})
		sol, ok, ferr := Find(ctx, shape, s, Options{})
		switch {
		case len(shape) == 0 || len(s.Pieces) == 0:
			if err == nil || ferr == nil {
				t.Fatalf("no shape or no pieces accepted: %v, %v", err, ferr)
			}
			return
		case s.Area() != len(shape):
			if reasonOf(err) != ReasonAreaMismatch || reasonOf(ferr) != ReasonAreaMismatch {
				t.Fatalf("area %d on %d cells: %v, %v", s.Area(), len(shape), err, ferr)
			}
			return
		case err != nil || ferr != nil:
			t.Fatalf("Count: %v, Find: %v", err, ferr)
		}
		if want := plainCount(shape, plainPieces(s), mirror, 0); n != want {
			t.Fatalf("Count = %d, plain search %d\n%s\n%v", n, want, shape.Grid(), s.Pieces)
		}
		if ok != (n > 0) {
			t.Fatalf("Find = %v with %d tilings", ok, n)
		}
		if ok {
			checkSolution(t, shape, s, sol, nil)
		}
	})
}
