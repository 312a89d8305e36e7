package polyomino

import (
	"context"
	"fmt"
	"testing"
)

// benchRects are the rectangles of 60 cells with their tilings by the 12 pentominoes.
var benchRects = []struct{ w, h, tilings int }{{10, 6, 9356}, {12, 5, 4040}, {15, 4, 1472}, {20, 3, 8}}

// BenchmarkCount counts every tiling of each pentomino rectangle with the default workers (one per CPU) and with one,
// reporting the tilings.
func BenchmarkCount(b *testing.B) {
	for _, r := range benchRects {
		for _, workers := range []int{0, 1} {
			name := fmt.Sprintf("%dx%d", r.h, r.w)
			if workers == 1 {
				name += "/workers=1"
			}
			b.Run(name, func(b *testing.B) {
				var n int
				for b.Loop() {
					var err error
					if n, err = Count(context.Background(), Rect(r.w, r.h), Pentominoes(), Options{Workers: workers}); err != nil || n != r.tilings {
						b.Fatalf("Count = %d, %v", n, err)
					}
				}
				b.ReportMetric(float64(n), "tilings")
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

// BenchmarkBaseline counts the tilings of a 5 x 6 rectangle by six pentominoes (4) and of a 4 x 10 one by eight
// (60) with the plain exhaustive search of plain_test.go and with Count on one worker, so that the ratio of the two is
// the speed-up of the bit-board search on the same work.
func BenchmarkBaseline(b *testing.B) {
	p := Pentominoes()
	for _, c := range []struct {
		name  string
		shape Cells
		set   Set
	}{
		{"5x6-FLPTWY", Rect(5, 6), p.Subset(0, 2, 4, 5, 8, 10)},
		{"4x10-FILNPTUV", Rect(10, 4), p.Subset(0, 1, 2, 3, 4, 5, 6, 7)},
	} {
		b.Run(c.name+"/plain", func(b *testing.B) {
			var n int
			for b.Loop() {
				n = plainCount(c.shape, plainPieces(c.set), c.set.Mirror, 0)
			}
			b.ReportMetric(float64(n), "tilings")
		})
		b.Run(c.name+"/count", func(b *testing.B) {
			var n int
			for b.Loop() {
				n, _ = Count(context.Background(), c.shape, c.set, Options{Workers: 1})
			}
			b.ReportMetric(float64(n), "tilings")
		})
	}
}
