package polyomino_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/rulebook/rulebook/engine/polyomino"
)

// Count all the tilings of the 6 x 10 rectangle by the 12 pentominoes: 4 x 2,339, every reflection and half turn
// counted.
func ExampleCount() {
	n, err := polyomino.Count(context.Background(), polyomino.Rect(10, 6), polyomino.Pentominoes(), polyomino.Options{})
	fmt.Println(n, err)
	// Output: 9356 <nil>
}

// Check a placement against a piece's definition, as a game checks a claimed solution.
func ExampleCongruent() {
	f := polyomino.Ubongo().Pieces[5] // hexomino F: (0,0)(0,1)(0,2)(0,3)(1,1)(1,2)
	placed := polyomino.Cells{{4, 7}, {5, 7}, {6, 7}, {7, 7}, {5, 6}, {6, 6}}
	fmt.Println(polyomino.Congruent(f.Cells, placed, true))
	fmt.Println(polyomino.Congruent(f.Cells, placed[:5], true))
	// Output:
	// true
	// false
}

// Find which 4 of the 21 Ubongo pieces tile a 5 x 4 rectangle, with a witness each.
func ExampleTilingSubsets() {
	p := polyomino.Ubongo()
	ts, err := polyomino.TilingSubsets(context.Background(), polyomino.Rect(5, 4), p, 4, polyomino.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(ts), "subsets; the first:")
	for _, i := range ts[0].Pieces {
		fmt.Println(p.Pieces[i].Name, ts[0].Solution[i])
	}
	// Output:
	// 19 subsets; the first:
	// A (0,0)(0,1)(0,2)(1,2)(2,2)
	// B (1,0)(2,0)(3,0)(1,1)(2,1)
	// D (4,0)(3,1)(4,1)(4,2)(4,3)
	// O (3,2)(0,3)(1,3)(2,3)(3,3)
}

// Find returns one tiling, the same on every call; a shape the pieces cannot cover, or a search larger than its node
// limit, is refused with an *Error and its reason code.
func ExampleFind() {
	shape, err := polyomino.ParseGrid("###\n#.#\n###") // a ring of 8 cells
	if err != nil {
		panic(err)
	}
	ring := polyomino.Set{Pieces: []polyomino.Piece{
		{Name: "L1", Cells: polyomino.Cells{{0, 0}, {1, 0}, {2, 0}, {2, 1}}},
		{Name: "L2", Cells: polyomino.Cells{{0, 0}, {1, 0}, {2, 0}, {2, 1}}},
	}}
	solution, found, err := polyomino.Find(context.Background(), shape, ring, polyomino.Options{})
	fmt.Println(found, solution, err)

	_, _, err = polyomino.Find(context.Background(), polyomino.Rect(5, 5), polyomino.Pentominoes(), polyomino.Options{})
	var refusal *polyomino.Error
	if errors.As(err, &refusal) {
		fmt.Println(refusal.Reason+":", refusal)
	}
	_, err = polyomino.Count(context.Background(), polyomino.Rect(10, 6), polyomino.Pentominoes(),
		polyomino.Options{NodeLimit: 1000})
	if errors.As(err, &refusal) {
		fmt.Println(refusal.Reason+":", refusal)
	}
	// Output:
	// true [(0,0)(1,0)(2,0)(2,1) (0,1)(0,2)(1,2)(2,2)] <nil>
	// AREA_MISMATCH: polyomino: the pieces of "pentominoes" cover 60 cells but the shape has 25
	// NODE_LIMIT_REACHED: polyomino: the search needs more than the node limit of 1000
}
