// Package polyomino tiles shapes with polyominoes: cell sets, free pieces and their fixed orientations, congruence,
// the named piece sets of the rule books (the 12 pentominoes, the 21 Ubongo pieces), and an exact-cover solver that
// counts the tilings of a shape, finds one, or lists the k-subsets of a piece set that tile it.
//
// The package is pure and deterministic: no clock, no randomness, no state shared between calls, standard library
// only. Every result (counts, the tiling Find returns, the order of TilingSubsets) is the same on every run and for
// every number of workers.
//
// # Cells
//
// A cell is (X, Y): X is the column and Y the row, from the top-left, as in docs and rule books. A Cells value is a
// list of cells; a shape is any set of cells (it may be disconnected or have holes), a piece is a connected one (cells
// sharing an edge). Reading order is by row, then by column. Normalize translates a cell set to the origin and sorts it
// in reading order; two cell sets are equal as shapes when their normal forms are equal.
//
// # Pieces and orientations
//
// A Piece is a free polyomino. Its fixed orientations are the distinct normal forms of its images under the four
// rotations, and under the four reflections too when turning over is allowed. Turning over is an option of a piece
// Set (Set.Mirror): physical pieces such as Ubongo's may be turned over, and then a chiral piece and its mirror image
// are the same piece. Congruent tells whether two cell sets are images of each other, the check a game makes of a
// placement against a piece's definition.
//
// # Solver
//
// Count, Find and TilingSubsets map the shape to the bits of a uint64 (so a shape has at most MaxShapeCells = 64
// cells; larger ones are refused): the cells of its bounding rectangle when that has at most 64 (cells outside the
// shape are walls), else the shape's own cells. They precompute every placement of every orientation of every piece
// as a mask anchored at its first cell in scan order (for a cell and a piece, at most one per orientation), and search
// depth first, covering the first empty cell in scan order with each unused piece in turn. The scan runs along
// the shorter side of the bounding rectangle (by columns when the shape is wider than tall), a byte per pattern of the
// next few cells selects the placements that leave its filled cells alone, and a branch that leaves an empty region
// of one or two cells that no piece can fill is cut at once. Count also uses the shape's symmetries: the tilings with
// the piece that has the fewest placements at P are as many as those with it at any symmetric image of P, so it
// searches one placement per orbit and weights it by the orbit's size. A tiling covers every cell exactly once and
// uses each piece at most once; Count and Find use every piece of the set, so they require the pieces' total area to
// equal the shape's, while TilingSubsets picks k pieces.
//
// On a shape that does not fill its bounding rectangle of at most 64 cells, for a set of at least 8 pieces, Count first
// places the piece with the fewest placements, at each of them, as it does on a symmetric shape, then goes on as
// Knuth's S heuristic does: until six pieces are placed, it finds every placement that still fits (bit-parallel, a few
// shifts and ANDs per orientation), counts them per empty cell and per piece, and covers the cell with the fewest or
// places the piece with the fewest, cutting at once a branch where a cell or a piece has none. Deeper, where the nodes
// are many and each would cost several times a node of the scan, it covers a pocket first when there is one: an empty
// cell with a single empty neighbour, which few placements fit (those through that neighbour, listed per cell, piece
// and direction), so that the dead ends it would leave behind are cut before the scan reaches it; else the first empty
// cell. Counting stays exact whatever the cell covered, since every placement covering it is tried once. Find,
// TilingSubsets and Count on other shapes (rectangles, shapes whose bounding rectangle has more than 64 cells, and
// small puzzles such as Ubongo Duel's, where most of the time goes into building the tables) keep the first empty cell,
// so Find's tiling is the same as before.
//
// Against a plain dancing-links search with the S heuristic at every node, Count is over 100 times faster on the
// pentomino rectangles and 12 to 19 times on 60-cell shapes without symmetry (BENCHMARKS.md, 2026-12-01).
//
// Tilings are counted as they are, not up to symmetry: the 6 x 10 rectangle has 9,356 tilings by the 12 pentominoes,
// 4 x the 2,339 distinct ones. Two congruent pieces in one set are still two pieces, and swapping them gives another
// tiling.
//
// # Limits
//
// A search checks its context every few thousand nodes (a node is a piece placed) and stops with ctx.Err() once the
// context is done. Options.NodeLimit caps the nodes: a search that needs more returns an *Error with reason
// NODE_LIMIT_REACHED, whatever the number of workers. Input the package refuses (an empty shape, a duplicate cell, a
// disconnected piece, ...) gives an *Error with an UPPER_SNAKE_CASE reason code; see the Reason constants.
package polyomino
