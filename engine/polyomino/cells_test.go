package polyomino

import (
	"slices"
	"testing"
)

// TestNormalize checks translation to the origin and reading order.
func TestNormalize(t *testing.T) {
	got := Normalize(Cells{{5, 3}, {4, 4}, {3, 3}})
	want := Cells{{0, 0}, {2, 0}, {1, 1}}
	if !slices.Equal(got, want) {
		t.Errorf("Normalize = %v, want %v", got, want)
	}
	if n := Normalize(nil); n == nil || len(n) != 0 {
		t.Errorf("Normalize(nil) = %#v", n)
	}
}

// TestGrid checks ParseGrid and Grid on a drawing and its round trip.
func TestGrid(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Cells
		grid string
	}{
		{"##.\n.##", Cells{{0, 0}, {1, 0}, {1, 1}, {2, 1}}, "##.\n.##"},
		{"\n.#|##\n", Cells{{1, 0}, {0, 1}, {1, 1}}, ".#\n##"},
		{"X X", Cells{{0, 0}, {2, 0}}, "#.#"},
	} {
		got, err := ParseGrid(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseGrid(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
		if g := got.Grid(); g != c.grid {
			t.Errorf("Grid of %v = %q, want %q", got, g, c.grid)
		}
	}
	if _, err := ParseGrid("#?"); err == nil {
		t.Error("ParseGrid accepted '?'")
	}
}

// TestConnected checks edge connectivity.
func TestConnected(t *testing.T) {
	for _, c := range []struct {
		cells Cells
		want  bool
	}{
		{nil, false},
		{Cells{{0, 0}}, true},
		{Cells{{0, 0}, {1, 1}}, false},
		{Cells{{0, 0}, {1, 0}, {1, 1}}, true},
		{Cells{{0, 0}, {2, 0}, {1, 0}}, true},
	} {
		if got := c.cells.Connected(); got != c.want {
			t.Errorf("%v.Connected() = %v, want %v", c.cells, got, c.want)
		}
	}
}
