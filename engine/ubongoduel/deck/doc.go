// Package deck is the Ubongo Duel deck: 9 sheets of side A (tasks of 4 pieces) and 9 of side B (tasks of 5 pieces),
// each side one shape and the 20 piece sets of the die's faces, every set with a witness tiling.
//
// The published sheets are not available, so the deck is generated (docs/rules ubongo-duel.md, "The deck"): Generate
// builds it deterministically from fixed seeds with the solver of package polyomino, the command internal/gendeck
// writes its canonical encoding to deck.json, and the package embeds that file. Default returns the embedded deck;
// its Version names the data, and the tests check that Generate reproduces deck.json byte for byte and re-solve all
// 360 tasks.
//
// # Shapes
//
// Sheet n of a side has a shape of a fixed size, rising with the sheet number (side A: 20, 21, 21, 22, 22, 22, 23, 23,
// 24 cells; side B: 25, 26, 27, 27, 28, 28, 29, 29, 30), so a sheet never has fewer cells than the one before it. A
// shape is cut from a box: a random box of at least 4 rows that fits the side's frame (side A within 6 x 5, side B
// within 7 x 5 or 6 x 6) and has 2 to 6 (side A) or 2 to 7 (side B) cells more than the shape, from which cells are removed one by one, each drawn among the cells touching the outside whose removal
// keeps the shape connected, corners and ends (at most two neighbours) first. The shape is thus connected, hole-free
// and a compact, near-rectangular blob, though never a bare rectangle (one is discarded); it is drawn landscape (at least as wide as tall) with its top-left at (0, 0). A
// candidate congruent to an earlier shape of either side is discarded, as is one that fewer than 20 piece sets tile;
// the next draw of the same generator is tried instead. The generator is math/rand/v2's PCG seeded with fixed numbers
// per side and sheet.
//
// # Piece sets
//
// For a shape of n cells, polyomino.TilingSubsets lists every set of 4 (side A) or 5 (side B) of the 21 pieces that
// tiles it, and polyomino.Count counts each set's tilings (every tiling, symmetric images included). The sets are
// ranked by tiling count ascending, then by their letters, so puzzles with few solutions come first (most tasks of the
// deck have a single tiling, or one per symmetry of the shape). The 20 are taken in that order, skipping a set when
// one of its pieces is already in as many taken sets as a cap allows, so that the sets vary: the cap starts at the
// fair share (the 20 sets' pieces divided by the number of different pieces the candidates use, rounded up) and
// rises by one until 20 sets are taken. The 20 sets are then listed in the order of their letters: face 1 is the
// first. A task's witness is the tiling polyomino.Find meets first.
package deck

//go:generate go run ./internal/gendeck -o deck.json
