package deck

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rulebook/rulebook/engine/polyomino"
)

// Generate builds the deck from scratch, deterministically: the same deck, with Version, on every run and machine
// (the package comment says how shapes and piece sets are chosen). It takes a few seconds; deck.json holds its
// canonical encoding, which Default returns without a search. It returns ctx.Err() if ctx is done first.
func Generate(ctx context.Context) (*Deck, error) {
	d := &Deck{Version: Version}
	var seen []polyomino.Cells
	for i, spec := range specs {
		for sheet := 1; sheet <= Sheets; sheet++ {
			s, err := generateSide(ctx, spec, sheet, &seen)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				d.A = append(d.A, s)
			} else {
				d.B = append(d.B, s)
			}
		}
	}
	if err := d.Check(); err != nil {
		return nil, fmt.Errorf("deck: the generated deck is invalid: %w", err)
	}
	return d, nil
}

// generateSide draws shapes for one sheet until one is new (not congruent to a shape in seen) and tiled by at least
// 20 piece sets, and deals its 20 tasks.
func generateSide(ctx context.Context, spec sideSpec, sheet int, seen *[]polyomino.Cells) (Side, error) {
	name := fmt.Sprintf("%s%d", spec.letter, sheet)
	n := spec.sizes[sheet-1]
	boxes := boxesFor(spec, n)
	rng := rand.New(rand.NewPCG(spec.seed, uint64(sheet)))
	var tried []polyomino.Cells
	for range spec.maxShapeAttempts {
		if err := ctx.Err(); err != nil {
			return Side{}, err
		}
		shape := cutShape(rng, boxes[rng.IntN(len(boxes))], n)
		if w, h := shape.Bounds(); w*h == len(shape) {
			continue // a bare rectangle
		}
		c := canonical(shape)
		same := func(o polyomino.Cells) bool { return slices.Equal(o, c) }
		if slices.ContainsFunc(*seen, same) || slices.ContainsFunc(tried, same) {
			continue
		}
		tried = append(tried, c)
		tasks, err := dealTasks(ctx, shape, spec)
		if err != nil {
			return Side{}, err
		}
		if tasks == nil {
			continue
		}
		*seen = append(*seen, c)
		return Side{Name: name, Shape: shape, Tasks: tasks}, nil
	}
	return Side{}, fmt.Errorf("deck: no shape for side %s in %d attempts", name, spec.maxShapeAttempts)
}

// boxesFor lists the boxes (width, height) a shape of n cells may be cut from: landscape, at least 4 rows, within the
// side's frame, with n to n + spec.maxRemoved cells; by width, then height.
func boxesFor(spec sideSpec, n int) [][2]int {
	var out [][2]int
	for w := 1; w <= 8; w++ {
		for h := 4; h <= w; h++ {
			if fits(w, h, spec.frames) && w*h >= n+spec.minRemoved && w*h <= n+spec.maxRemoved {
				out = append(out, [2]int{w, h})
			}
		}
	}
	return out
}

// cutShape removes cells from a full box until n are left, each drawn among the cells touching the outside whose
// removal keeps the rest connected, those with at most two neighbours first. It returns the shape normalised and
// landscape.
func cutShape(rng *rand.Rand, box [2]int, n int) polyomino.Cells {
	w, h := box[0], box[1]
	in := make(map[polyomino.Cell]bool, w*h)
	for _, c := range polyomino.Rect(w, h) {
		in[c] = true
	}
	dirs := [4]polyomino.Cell{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}
	for left := w * h; left > n; left-- {
		var rim, ends []polyomino.Cell
		for _, c := range polyomino.Rect(w, h) { // reading order: no dependence on map order
			if !in[c] {
				continue
			}
			outside, neighbours := false, 0
			for _, d := range dirs {
				if in[polyomino.Cell{X: c.X + d.X, Y: c.Y + d.Y}] {
					neighbours++
				} else {
					outside = true // off the box, or a removed cell, which reaches the outside
				}
			}
			if !outside {
				continue
			}
			in[c] = false
			ok := cellsOf(in, w, h).Connected()
			in[c] = true
			if !ok {
				continue
			}
			rim = append(rim, c)
			if neighbours <= 2 {
				ends = append(ends, c)
			}
		}
		pick := rim
		if len(ends) > 0 {
			pick = ends
		}
		in[pick[rng.IntN(len(pick))]] = false
	}
	shape := polyomino.Normalize(cellsOf(in, w, h))
	if sw, sh := shape.Bounds(); sw < sh {
		for i, c := range shape {
			shape[i] = polyomino.Cell{X: c.Y, Y: c.X}
		}
		shape = polyomino.Normalize(shape)
	}
	return shape
}

// cellsOf lists the cells of a w x h box that are in, in reading order.
func cellsOf(in map[polyomino.Cell]bool, w, h int) polyomino.Cells {
	var out polyomino.Cells
	for _, c := range polyomino.Rect(w, h) {
		if in[c] {
			out = append(out, c)
		}
	}
	return out
}

// candidate is a piece set that tiles a shape, with a witness and its number of tilings.
type candidate struct {
	tiling  polyomino.Tiling
	tilings int
}

// dealTasks returns the 20 tasks of a shape, or nil if fewer than 20 piece sets tile it: every set of spec.pieces
// pieces that tiles the shape, ranked by tilings ascending and then by letters, taken in that order with at most
// spec.maxPieceUses sets per piece (then without the cap if that leaves fewer than 20), listed by letters.
func dealTasks(ctx context.Context, shape polyomino.Cells, spec sideSpec) ([]Task, error) {
	set := polyomino.Ubongo()
	tilings, err := polyomino.TilingSubsets(ctx, shape, set, spec.pieces, polyomino.Options{})
	if err != nil {
		return nil, err
	}
	if len(tilings) < Faces {
		return nil, nil
	}
	cands, err := countTilings(ctx, shape, set, tilings)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.tilings, b.tilings), slices.Compare(a.tiling.Pieces, b.tiling.Pieces))
	})
	chosen := spread(cands, len(set.Pieces))
	slices.SortFunc(chosen, func(a, b candidate) int { return slices.Compare(a.tiling.Pieces, b.tiling.Pieces) })
	tasks := make([]Task, len(chosen))
	for i, c := range chosen {
		t := Task{Tilings: c.tilings}
		for _, p := range c.tiling.Pieces {
			letter := set.Pieces[p].Name
			t.Pieces = append(t.Pieces, letter)
			t.Witness = append(t.Witness, Placement{Piece: letter, Cells: c.tiling.Solution[p]})
		}
		tasks[i] = t
	}
	return tasks, nil
}

// countTilings counts the tilings of shape by each subset, on one goroutine per usable CPU (each count is small, and
// the time goes into setting the searches up). The result is in the order of tilings, whatever the scheduling.
func countTilings(ctx context.Context, shape polyomino.Cells, set polyomino.Set, tilings []polyomino.Tiling) ([]candidate, error) {
	cands := make([]candidate, len(tilings))
	errs := make([]error, len(tilings))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(tilings)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tilings) {
					return
				}
				count, err := polyomino.Count(ctx, shape, set.Subset(tilings[i].Pieces...), polyomino.Options{Workers: 1})
				cands[i], errs[i] = candidate{tiling: tilings[i], tilings: count}, err
				if err != nil {
					next.Store(int64(len(tilings)))
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return cands, nil
}

// spread takes 20 of the ranked candidates: in rank order, each unless one of its pieces is already in cap of the sets
// taken. The cap starts at the fair share, the 20 sets' pieces divided by the number of pieces the candidates use
// (rounded up), and grows by one until 20 are taken, so that no piece crowds a side while few-tiling sets come first.
// pieces is the size of the whole piece set.
func spread(cands []candidate, pieces int) []candidate {
	used := make([]bool, pieces)
	distinct := 0
	for _, c := range cands {
		for _, p := range c.tiling.Pieces {
			if !used[p] {
				used[p] = true
				distinct++
			}
		}
	}
	k := len(cands[0].tiling.Pieces)
	for limit := (Faces*k + distinct - 1) / distinct; ; limit++ {
		uses := make([]int, pieces)
		var chosen []candidate
		for _, c := range cands {
			if slices.ContainsFunc(c.tiling.Pieces, func(p int) bool { return uses[p] >= limit }) {
				continue
			}
			for _, p := range c.tiling.Pieces {
				uses[p]++
			}
			chosen = append(chosen, c)
			if len(chosen) == Faces {
				return chosen
			}
		}
	}
}
