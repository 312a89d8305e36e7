package polyomino

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// benchRects are the rectangles of 60 cells with their tilings by the 12 pentominoes.
var benchRects = []struct{ w, h, tilings int }{{10, 6, 9356}, {12, 5, 4040}, {15, 4, 1472}, {20, 3, 8}}

// BenchmarkCount counts every tiling of each pentomino rectangle with the default workers (one per CPU) and with one,
// reporting the tilings, the nodes and the CPU time.
func BenchmarkCount(b *testing.B) {
	for _, r := range benchRects {
		for _, workers := range []int{0, 1} {
			name := fmt.Sprintf("%dx%d", r.h, r.w)
			if workers == 1 {
				name += "/workers=1"
			}
			b.Run(name, func(b *testing.B) {
				if n := benchCount(b, Rect(r.w, r.h), Pentominoes(), workers); n != r.tilings {
					b.Fatalf("Count = %d, want %d", n, r.tilings)
				}
			})
		}
	}
}

// BenchmarkFind finds the first tiling of the 6 x 10 rectangle.
func BenchmarkFind(b *testing.B) {
	for b.Loop() {
		if _, ok, err := Find(context.Background(), Rect(10, 6), Pentominoes(), Options{}); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkTilingSubsets lists the 4-subsets of the Ubongo pieces that tile a 22-cell shape (a side-A task), with the
// default workers and with one.
func BenchmarkTilingSubsets(b *testing.B) {
	shape := mustGrid(b, "####.|#####|#####|#####|.###.")
	for _, workers := range []int{0, 1} {
		b.Run(fmt.Sprintf("ubongo-22cells-k4/workers=%d", workers), func(b *testing.B) {
			var n int
			for b.Loop() {
				ts, err := TilingSubsets(context.Background(), shape, Ubongo(), 4, Options{Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				n = len(ts)
			}
			b.ReportMetric(float64(n), "subsets")
		})
	}
}

// irregular are shapes without symmetry, each with a piece set that covers it: two of 60 cells for the 12 pentominoes
// (the 8 x 8 square less four cells, the 7 x 9 rectangle less three) and three sheets of the Ubongo Duel deck
// (engine/ubongoduel/deck) with the pieces of one of their tasks.
var irregular = []struct {
	name, grid string
	set        Set
	plain      bool // the plain search finishes in seconds
}{
	{"8x8-less-4", "...#####|########|########|########|########|########|########|#######.", Pentominoes(), false},
	{"7x9-less-3", "..#####|#######|#######|#######|#######|#######|#######|#######|######.", Pentominoes(), false},
	{"ubongo-A9-EFKQ", ".###..|######|######|.#####|..####", ubongoPieces("EFKQ"), true},
	{"ubongo-B1-ABCGL", ".#####|######|######|######|..##..", ubongoPieces("ABCGL"), true},
	{"ubongo-B9-IKNPQ", ".####.|.####.|######|######|.#####|.#####", ubongoPieces("IKNPQ"), true},
}

// ubongoPieces returns the Ubongo pieces with the given letters, in that order.
func ubongoPieces(letters string) Set {
	all := Ubongo()
	var indexes []int
	for _, l := range letters {
		indexes = append(indexes, int(l-'A'))
	}
	return all.Subset(indexes...)
}

// BenchmarkBaseline counts the tilings of a puzzle with the plain exhaustive search of plain_test.go and with Count
// on one worker, so that the ratio of the two is the speed-up of the bit-board search on the same work: a 5 x 6
// rectangle by six pentominoes (4 tilings), a 4 x 10 one by eight (60), and the irregular shapes on which the plain
// search finishes. Besides the time it reports cpu-ns/op, the CPU time of the process, steadier than wall time on a
// shared machine.
func BenchmarkBaseline(b *testing.B) {
	p := Pentominoes()
	cases := []struct {
		name  string
		shape Cells
		set   Set
	}{
		{"5x6-FLPTWY", Rect(5, 6), p.Subset(0, 2, 4, 5, 8, 10)},
		{"4x10-FILNPTUV", Rect(10, 4), p.Subset(0, 1, 2, 3, 4, 5, 6, 7)},
	}
	for _, c := range irregular {
		if c.plain {
			cases = append(cases, struct {
				name  string
				shape Cells
				set   Set
			}{c.name, mustGrid(b, c.grid), c.set})
		}
	}
	for _, c := range cases {
		b.Run(c.name+"/plain", func(b *testing.B) {
			benchPlain(b, c.shape, c.set)
		})
		b.Run(c.name+"/count", func(b *testing.B) {
			benchCount(b, c.shape, c.set, 1)
		})
	}
}

// BenchmarkIrregular counts the tilings of the irregular shapes with Count, on one worker and with the default
// workers.
func BenchmarkIrregular(b *testing.B) {
	for _, c := range irregular {
		for _, workers := range []int{1, 0} {
			b.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(b *testing.B) {
				benchCount(b, mustGrid(b, c.grid), c.set, workers)
			})
		}
	}
}

// BenchmarkIrregularPlain counts the tilings of the irregular shapes of 60 cells with the plain search, the
// baseline of BenchmarkIrregular. It takes minutes per shape: run it with -benchtime 1x.
func BenchmarkIrregularPlain(b *testing.B) {
	for _, c := range irregular {
		if !c.plain {
			b.Run(c.name, func(b *testing.B) { benchPlain(b, mustGrid(b, c.grid), c.set) })
		}
	}
}

// BenchmarkDancingLinks counts the tilings of the irregular shapes and of the pentomino rectangles with the
// dancing-links search of dlx_test.go (Knuth's Algorithm X with the S heuristic), the baseline of BenchmarkIrregular
// and BenchmarkCount on one worker: the sub-benchmarks have the same names. The 60-cell puzzles take seconds to
// minutes each: run it with -benchtime 1x.
func BenchmarkDancingLinks(b *testing.B) {
	for _, c := range irregular {
		b.Run(c.name, func(b *testing.B) { benchDLX(b, mustGrid(b, c.grid), c.set) })
	}
	for _, r := range benchRects {
		b.Run(fmt.Sprintf("%dx%d", r.h, r.w), func(b *testing.B) {
			if n := benchDLX(b, Rect(r.w, r.h), Pentominoes()); n != r.tilings {
				b.Fatalf("dancing links count %d, want %d", n, r.tilings)
			}
		})
	}
}

// benchDLX runs the dancing-links search on shape and set, reporting the tilings, the nodes and the CPU time, and
// returns the tilings.
func benchDLX(b *testing.B, shape Cells, set Set) int {
	done := reportCPU(b)
	var n int
	var nodes int64
	for b.Loop() {
		n, nodes = dlxCount(shape, set)
	}
	done()
	b.ReportMetric(float64(n), "tilings")
	b.ReportMetric(float64(nodes), "nodes")
	return n
}

// benchPlain runs the plain search on shape and set, reporting the tilings and the CPU time.
func benchPlain(b *testing.B, shape Cells, set Set) {
	done := reportCPU(b)
	var n int
	for b.Loop() {
		n = plainCount(shape, plainPieces(set), set.Mirror, 0)
	}
	done()
	b.ReportMetric(float64(n), "tilings")
}

// benchCount runs Count on shape and set with workers, reporting the tilings, the nodes and the CPU time, and returns
// the tilings.
func benchCount(b *testing.B, shape Cells, set Set, workers int) int {
	done := reportCPU(b)
	var n int
	var nodes int64
	for b.Loop() {
		var err error
		if n, err = Count(context.Background(), shape, set, Options{Workers: workers, Explored: &nodes}); err != nil {
			b.Fatal(err)
		}
	}
	done()
	b.ReportMetric(float64(n), "tilings")
	b.ReportMetric(float64(nodes), "nodes")
	return n
}

// reportCPU returns a function that reports, as cpu-ns/op, the CPU time the process spent per iteration of b since
// reportCPU was called.
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var u syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
			b.Fatal(err)
		}
		return time.Duration(u.Utime.Nano() + u.Stime.Nano())
	}
	start := cpu()
	return func() { b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op") }
}
