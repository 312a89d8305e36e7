package polyomino

// Pentominoes returns the 12 pentominoes F I L N P T U V W X Y Z, in that order, which may be turned over (60 cells,
// 63 fixed orientations). Each call returns a new Set.
func Pentominoes() Set {
	return Set{Name: "pentominoes", Mirror: true, Pieces: []Piece{
		{Name: "F", Cells: Cells{{1, 0}, {2, 0}, {0, 1}, {1, 1}, {1, 2}}},
		{Name: "I", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}}},
		{Name: "L", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 3}}},
		{Name: "N", Cells: Cells{{1, 0}, {1, 1}, {0, 2}, {1, 2}, {0, 3}}},
		{Name: "P", Cells: Cells{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}}},
		{Name: "T", Cells: Cells{{0, 0}, {1, 0}, {2, 0}, {1, 1}, {1, 2}}},
		{Name: "U", Cells: Cells{{0, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}}},
		{Name: "V", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 2}}},
		{Name: "W", Cells: Cells{{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 2}}},
		{Name: "X", Cells: Cells{{1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}}},
		{Name: "Y", Cells: Cells{{1, 0}, {0, 1}, {1, 1}, {1, 2}, {1, 3}}},
		{Name: "Z", Cells: Cells{{0, 0}, {1, 0}, {1, 1}, {1, 2}, {2, 2}}},
	}}
}

// Ubongo returns the 21 pieces of Ubongo Duel, A to U in that order, exactly as docs/rules (ubongo-duel.md, "The 21
// pieces") gives them: 10 pentominoes and 11 hexominoes, 116 cells, which may be turned over. Read as the rules say,
// "132 distinct placements under rotation and reflection" is the number of distinct fixed orientations summed over
// the pieces (Set.Placements), and it is 132: 60 for the pentominoes and 72 for the hexominoes. Each call returns a
// new Set.
func Ubongo() Set {
	return Set{Name: "ubongo", Mirror: true, Pieces: []Piece{
		{Name: "A", Cells: Cells{{0, 2}, {1, 2}, {2, 0}, {2, 1}, {2, 2}}},         // V-pentomino
		{Name: "B", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}}},         // P-pentomino
		{Name: "C", Cells: Cells{{0, 2}, {0, 3}, {1, 0}, {1, 1}, {1, 2}}},         // N-pentomino
		{Name: "D", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 1}}},         // Y-pentomino
		{Name: "E", Cells: Cells{{0, 2}, {1, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}}}, // hexomino
		{Name: "F", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 1}, {1, 2}}}, // hexomino
		{Name: "G", Cells: Cells{{0, 0}, {1, 0}, {1, 1}, {1, 2}, {2, 2}}},         // Z-pentomino
		{Name: "H", Cells: Cells{{0, 0}, {0, 2}, {0, 3}, {1, 0}, {1, 1}, {1, 2}}}, // hexomino
		{Name: "I", Cells: Cells{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 1}}}, // hexomino
		{Name: "J", Cells: Cells{{0, 0}, {1, 0}, {1, 1}, {1, 2}, {2, 0}}},         // T-pentomino
		{Name: "K", Cells: Cells{{0, 1}, {0, 2}, {1, 1}, {2, 0}, {2, 1}, {2, 2}}}, // hexomino
		{Name: "L", Cells: Cells{{0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 0}}},         // F-pentomino
		{Name: "M", Cells: Cells{{0, 2}, {0, 3}, {1, 0}, {1, 1}, {1, 2}, {1, 3}}}, // hexomino
		{Name: "N", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}}}, // hexomino
		{Name: "O", Cells: Cells{{0, 3}, {1, 0}, {1, 1}, {1, 2}, {1, 3}}},         // L-pentomino
		{Name: "P", Cells: Cells{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 2}}}, // hexomino
		{Name: "Q", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 0}, {1, 2}}}, // hexomino
		{Name: "R", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 1}, {2, 2}}}, // hexomino
		{Name: "S", Cells: Cells{{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {1, 3}}}, // hexomino
		{Name: "T", Cells: Cells{{0, 0}, {0, 1}, {1, 1}, {2, 0}, {2, 1}}},         // U-pentomino
		{Name: "U", Cells: Cells{{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 2}}},         // W-pentomino
	}}
}
