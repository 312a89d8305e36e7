package engine

import "testing"

// TestSquare names squares and reads them back, across the columns that take two letters.
func TestSquare(t *testing.T) {
	for _, tt := range []struct {
		col, row int
		want     string
	}{{0, 0, "a1"}, {25, 9, "z10"}, {26, 0, "aa1"}, {51, 0, "az1"}, {52, 63, "ba64"}, {-1, 0, "[-1,0]"}} {
		if got := Square(tt.col, tt.row); got != tt.want {
			t.Errorf("Square(%d, %d) = %q, want %q", tt.col, tt.row, got, tt.want)
		}
	}
	for col := range 64 {
		for row := range 64 {
			c, r, err := ParseSquare(Square(col, row), 64)
			if err != nil || c != col || r != row {
				t.Fatalf("ParseSquare(%q) = %d, %d, %v", Square(col, row), c, r, err)
			}
		}
	}
}
