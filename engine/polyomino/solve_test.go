package polyomino

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestCountPentominoRectangles checks the known numbers of tilings of the rectangles of 60 cells by the 12
// pentominoes (4 x the tilings up to symmetry), given both ways round and with 1, 2 and 3 workers.
func TestCountPentominoRectangles(t *testing.T) {
	for _, c := range []struct {
		w, h, want int
	}{
		{10, 6, 9356}, {12, 5, 4040}, {15, 4, 1472}, {20, 3, 8},
		{6, 10, 9356}, {3, 20, 8},
	} {
		t.Run(fmt.Sprintf("%dx%d", c.w, c.h), func(t *testing.T) {
			if testing.Short() && c.w*c.h == 60 && min(c.w, c.h) == 6 {
				t.Skip("the 6 x 10 rectangle is slow under -race")
			}
			for _, workers := range []int{1, 2, 3} {
				n, err := Count(context.Background(), Rect(c.w, c.h), Pentominoes(), Options{Workers: workers})
				if err != nil || n != c.want {
					t.Errorf("workers %d: Count = %d, %v; want %d", workers, n, err, c.want)
				}
			}
		})
	}
}

// TestCountMatchesPlain compares Count and Find with the plain search on random shapes and piece sets, and the
// dancing-links search of dlx_test.go with the plain search: the same count, and a tiling from Find exactly when
// there is one, checked cell by cell. Some shapes are rectangles (often symmetric), and some are cut in two far
// apart, so that their bounding rectangle has more than 64 cells (the compact layout). The test fails if too few
// cases tile, tile more than one way, or tile on the compact layout, for then the comparison proves little.
func TestCountMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pool := smallPieces()
	cases, tiled, several, compact := 600, 0, 0, 0
	for i := range cases {
		s := randomSet(rng, pool, 4)
		w, h := 2+rng.IntN(5), 2+rng.IntN(5)
		if s.Area() > w*h {
			w, h = s.Area(), 1+rng.IntN(2)
		}
		shape := randomShape(rng, s.Area(), w, h)
		spread := false
		switch i % 5 {
		case 0: // a rectangle, often symmetric
			if w, h := rectangleOf(s.Area(), rng); w > 0 {
				shape = Rect(w, h)
			}
		case 1, 2: // the cells right of the middle moved far away
			for k, c := range shape {
				if 2*c.X >= w {
					shape[k].X += 64
					spread = true
				}
			}
		}
		want := plainCount(shape, plainPieces(s), s.Mirror, 0)
		if d, _ := dlxCount(shape, s); d != want {
			t.Fatalf("case %d: dancing links %d, plain search %d\nshape:\n%s\npieces %v mirror %v",
				i, d, want, shape.Grid(), s.Pieces, s.Mirror)
		}
		for _, workers := range []int{1, 2} {
			got, err := Count(context.Background(), shape, s, Options{Workers: workers})
			if err != nil || got != want {
				t.Fatalf("case %d, workers %d: Count = %d, %v; plain search %d\nshape:\n%s\npieces %v mirror %v",
					i, workers, got, err, want, shape.Grid(), s.Pieces, s.Mirror)
			}
		}
		sol, ok, err := Find(context.Background(), shape, s, Options{})
		if err != nil || ok != (want > 0) {
			t.Fatalf("case %d: Find = %v, %v; plain search counts %d", i, ok, err, want)
		}
		if ok {
			tiled++
			checkSolution(t, shape, s, sol, nil)
		}
		if want > 1 {
			several++
		}
		if spread && want > 0 {
			compact++
		}
	}
	if tiled < cases/10 || several < cases/20 || compact < cases/50 {
		t.Errorf("of %d random cases, %d tile, %d more than one way, %d on the compact layout: the test is too weak",
			cases, tiled, several, compact)
	}
	t.Logf("of %d random cases, %d tile, %d more than one way, %d on the compact layout", cases, tiled, several, compact)
}

// rectangleOf returns a random rectangle of area cells with both sides at least 2, or 0, 0 if there is none.
func rectangleOf(area int, rng *rand.Rand) (w, h int) {
	var sides []int
	for d := 2; d*2 <= area; d++ {
		if area%d == 0 {
			sides = append(sides, d)
		}
	}
	if len(sides) == 0 {
		return 0, 0
	}
	d := sides[rng.IntN(len(sides))]
	return d, area / d
}

// TestFindPentominoes checks Find's tiling of each pentomino rectangle cell by cell, and that it is the same tiling
// every time.
func TestFindPentominoes(t *testing.T) {
	for _, r := range [][2]int{{10, 6}, {12, 5}, {15, 4}, {20, 3}} {
		shape := Rect(r[0], r[1])
		sol, ok, err := Find(context.Background(), shape, Pentominoes(), Options{})
		if err != nil || !ok {
			t.Fatalf("%v: Find = %v, %v", r, ok, err)
		}
		checkSolution(t, shape, Pentominoes(), sol, nil)
		again, _, _ := Find(context.Background(), shape, Pentominoes(), Options{Workers: 2})
		if !slices.EqualFunc(sol, again, slices.Equal) {
			t.Errorf("%v: Find gave two tilings", r)
		}
	}
}

// TestFindNone checks that Find reports no tiling when there is none: the 2 x 30 rectangle, too narrow for most
// pentominoes.
func TestFindNone(t *testing.T) {
	sol, ok, err := Find(context.Background(), Rect(30, 2), Pentominoes(), Options{})
	if err != nil || ok || sol != nil {
		t.Errorf("Find = %v, %v, %v; want no tiling", sol, ok, err)
	}
}

// TestCancel checks that a done context stops a search at once, and that a deadline stops a long one promptly with
// ctx.Err(). The long search is the 8 x 8 square without four cells, which breaks its symmetry.
func TestCancel(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Count(done, Rect(10, 6), Pentominoes(), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Count on a cancelled context: %v", err)
	}
	if _, _, err := Find(done, Rect(10, 6), Pentominoes(), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Find on a cancelled context: %v", err)
	}
	if _, err := TilingSubsets(done, Rect(5, 4), Ubongo(), 4, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("TilingSubsets on a cancelled context: %v", err)
	}
	long := mustGrid(t, "..######|.#######|########|########|########|########|########|#######.")
	for _, workers := range []int{1, 2} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		start := time.Now()
		_, err := Count(ctx, long, Pentominoes(), Options{Workers: workers})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("workers %d: Count past its deadline returned %v", workers, err)
		}
		// Not a timing assertion on the solver's speed: the full search takes seconds, so a stop within a minute
		// only shows that the deadline was honoured at all.
		if time.Since(start) > time.Minute {
			t.Errorf("workers %d: Count took %v to notice its deadline", workers, time.Since(start))
		}
	}
}

// TestNodeLimit checks that a search needing more nodes than the limit fails with NODE_LIMIT_REACHED, that a limit
// it stays within changes nothing, and that the outcome does not depend on the workers.
func TestNodeLimit(t *testing.T) {
	shape := Rect(15, 4)
	for _, c := range []struct {
		limit   int64
		wantErr bool
	}{
		{1, true}, {1000, true}, {50_000, true}, {100_000_000, false},
	} {
		for _, workers := range []int{1, 2} {
			n, err := Count(context.Background(), shape, Pentominoes(), Options{NodeLimit: c.limit, Workers: workers})
			if c.wantErr {
				if reasonOf(err) != ReasonNodeLimitReached {
					t.Errorf("limit %d, workers %d: Count = %d, %v; want %s", c.limit, workers, n, err, ReasonNodeLimitReached)
				}
			} else if err != nil || n != 1472 {
				t.Errorf("limit %d, workers %d: Count = %d, %v", c.limit, workers, n, err)
			}
		}
	}
	// The exact number of nodes: the limit it needs passes, one less fails, for any number of workers.
	need := nodesNeeded(t, shape, Pentominoes())
	for _, workers := range []int{1, 2, 3} {
		if _, err := Count(context.Background(), shape, Pentominoes(), Options{NodeLimit: need, Workers: workers}); err != nil {
			t.Errorf("workers %d, limit %d (the nodes needed): %v", workers, need, err)
		}
		if _, err := Count(context.Background(), shape, Pentominoes(), Options{NodeLimit: need - 1, Workers: workers}); reasonOf(err) != ReasonNodeLimitReached {
			t.Errorf("workers %d, limit %d: %v; want %s", workers, need-1, err, ReasonNodeLimitReached)
		}
	}
	if _, _, err := Find(context.Background(), Rect(30, 2), Pentominoes(), Options{NodeLimit: 1}); reasonOf(err) != ReasonNodeLimitReached {
		t.Errorf("Find with limit 1: %v", err)
	}
}

// TestExplored checks that a search reports the nodes it explored: Count exactly the nodes it needs (found by
// bisection on the node limit), whatever its workers; Find and TilingSubsets some; a search stopped by the limit
// more than the limit.
func TestExplored(t *testing.T) {
	shape := Rect(15, 4)
	need := nodesNeeded(t, shape, Pentominoes())
	for _, workers := range []int{1, 2, 3} {
		var explored int64
		if _, err := Count(context.Background(), shape, Pentominoes(), Options{Workers: workers, Explored: &explored}); err != nil || explored != need {
			t.Errorf("workers %d: Count explored %d nodes (%v), want %d", workers, explored, err, need)
		}
	}
	var found, subsets, stopped int64
	if _, ok, err := Find(context.Background(), shape, Pentominoes(), Options{Explored: &found}); !ok || err != nil || found <= 0 || found > need {
		t.Errorf("Find explored %d nodes (%v, %v), want between 1 and %d", found, ok, err, need)
	}
	if _, err := TilingSubsets(context.Background(), Rect(5, 2), Pentominoes(), 2, Options{Explored: &subsets}); err != nil || subsets <= 0 {
		t.Errorf("TilingSubsets explored %d nodes (%v), want some", subsets, err)
	}
	if _, err := Count(context.Background(), shape, Pentominoes(), Options{NodeLimit: 1000, Workers: 1, Explored: &stopped}); reasonOf(err) != ReasonNodeLimitReached || stopped <= 1000 {
		t.Errorf("a search stopped at the limit of 1000 explored %d nodes (%v)", stopped, err)
	}
}

// nodesNeeded returns the nodes Count spends on shape, found by bisection on the node limit.
func nodesNeeded(t *testing.T, shape Cells, s Set) int64 {
	t.Helper()
	lo, hi := int64(0), int64(1)<<40 // the limit lo fails, hi passes
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if _, err := Count(context.Background(), shape, s, Options{NodeLimit: mid, Workers: 1}); err != nil {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// TestInvalidInput checks that input the solver refuses gives an *Error with the right reason from Count, Find and
// TilingSubsets, never a panic.
func TestInvalidInput(t *testing.T) {
	big := Rect(13, 5)
	domino := Piece{"d", Cells{{0, 0}, {1, 0}}}
	for _, c := range []struct {
		name   string
		shape  Cells
		set    Set
		reason string
	}{
		{"empty shape", nil, Pentominoes(), ReasonEmptyShape},
		{"65 cells", big, Pentominoes(), ReasonShapeTooLarge},
		{"duplicate shape cell", Cells{{0, 0}, {1, 0}, {0, 0}}, Set{Pieces: []Piece{domino}}, ReasonDuplicateCell},
		{"coordinate", Cells{{0, 0}, {MaxCoord + 1, 0}}, Set{Pieces: []Piece{domino}}, ReasonCoordinateOutOfRange},
		{"no pieces", Rect(2, 1), Set{}, ReasonNoPieces},
		{"empty piece", Rect(2, 1), Set{Pieces: []Piece{domino, {Name: "e"}}}, ReasonEmptyPiece},
		{"disconnected piece", Rect(2, 1), Set{Pieces: []Piece{{"x", Cells{{0, 0}, {2, 0}}}}}, ReasonPieceDisconnected},
		{"diagonal piece", Rect(2, 1), Set{Pieces: []Piece{{"x", Cells{{0, 0}, {1, 1}}}}}, ReasonPieceDisconnected},
		{"duplicate piece cell", Rect(2, 1), Set{Pieces: []Piece{{"x", Cells{{0, 0}, {1, 0}, {0, 0}}}}}, ReasonDuplicateCell},
		{"huge piece", Rect(2, 1), Set{Pieces: []Piece{{"x", Rect(65, 1)}}}, ReasonPieceTooLarge},
		{"65 pieces", Rect(2, 1), Set{Pieces: slices.Repeat([]Piece{domino}, 65)}, ReasonTooManyPieces},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			if _, err := Count(ctx, c.shape, c.set, Options{}); reasonOf(err) != c.reason {
				t.Errorf("Count: %v; want %s", err, c.reason)
			}
			if _, _, err := Find(ctx, c.shape, c.set, Options{}); reasonOf(err) != c.reason {
				t.Errorf("Find: %v; want %s", err, c.reason)
			}
			if _, err := TilingSubsets(ctx, c.shape, c.set, 1, Options{}); reasonOf(err) != c.reason {
				t.Errorf("TilingSubsets: %v; want %s", err, c.reason)
			}
		})
	}
	if _, err := Count(context.Background(), Rect(5, 5), Pentominoes(), Options{}); reasonOf(err) != ReasonAreaMismatch {
		t.Errorf("Count with 60 cells of pieces on 25: %v", err)
	}
	if _, _, err := Find(context.Background(), Rect(5, 5), Pentominoes(), Options{}); reasonOf(err) != ReasonAreaMismatch {
		t.Errorf("Find with 60 cells of pieces on 25: %v", err)
	}
	for _, k := range []int{0, -1, 13} {
		if _, err := TilingSubsets(context.Background(), Rect(5, 2), Pentominoes(), k, Options{}); reasonOf(err) != ReasonSubsetSizeOutOfRange {
			t.Errorf("TilingSubsets with k = %d: %v", k, err)
		}
	}
}

// TestIdenticalPiecesAndSpreadShape checks that congruent pieces are distinct pieces (eight I-tetrominoes tile the
// 32 x 1 strip in 8! ways), and a shape whose bounding rectangle has more than 64 cells (the compact bit layout):
// three separate strips.
func TestIdenticalPiecesAndSpreadShape(t *testing.T) {
	strip := Set{Mirror: true, Pieces: slices.Repeat([]Piece{{"I4", Cells{{0, 0}, {1, 0}, {2, 0}, {3, 0}}}}, 8)}
	n, err := Count(context.Background(), Rect(32, 1), strip, Options{})
	if err != nil || n != 40320 {
		t.Errorf("Count 32 x 1 = %d, %v; want 8!", n, err)
	}
	var spread Cells
	for k := range 3 {
		for x := range 4 {
			spread = append(spread, Cell{x + 20*k, 20 * k})
		}
	}
	s := Set{Mirror: false, Pieces: slices.Repeat(strip.Pieces[:1], 3)}
	n, err = Count(context.Background(), spread, s, Options{})
	if err != nil || n != 6 {
		t.Errorf("Count spread = %d, %v; want 3! = 6", n, err)
	}
	sol, ok, err := Find(context.Background(), spread, s, Options{})
	if err != nil || !ok {
		t.Fatalf("Find spread = %v, %v", ok, err)
	}
	checkSolution(t, spread, s, sol, nil)
}

// mustGrid returns ParseGrid of s, failing t on an error.
func mustGrid(t testing.TB, s string) Cells {
	t.Helper()
	c, err := ParseGrid(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
