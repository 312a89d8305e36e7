package micropul

import (
	"fmt"
	"slices"

	"github.com/rulebook/rulebook/engine"
)

// Coord is a tile position relative to the start tile at (0, 0): X grows to the right, Y downwards.
type Coord struct {
	X, Y int
}

// String returns the position as "(x,y)".
func (c Coord) String() string { return fmt.Sprintf("(%d,%d)", c.X, c.Y) }

// MaxCoord bounds the coordinates: 47 tiles in a line from the start tile reach no farther.
const MaxCoord = NumTiles - 1

// Placed is a tile in play: its id, its position and its rotation in clockwise quarter turns.
type Placed struct {
	Tile     int
	At       Coord
	Rotation int
}

// Quads returns the quadrants of the placed tile as they lie on the board.
func (p Placed) Quads() [4]Symbol { return orientations[p.Tile][p.Rotation] }

// canonicalRotation returns the rotation the game records for tile id turned r quarter turns (0 to 3): the smallest
// that gives it the same look.
func canonicalRotation(id, r int) int {
	for k := range r {
		if orientations[id][k] == orientations[id][r] {
			return k
		}
	}
	return r
}

// Stone is a player's stone on the micropul in quadrant Quadrant of the tile at At.
type Stone struct {
	Player   engine.Player
	At       Coord
	Quadrant Quadrant
}

// direction is a side of a tile: north, east, south, west.
type direction int

// step is the offset of the neighbour on each side.
var step = [4]Coord{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

// edgePairs lists, for each side, the two pairs of quadrants that touch across it: this tile's, then the
// neighbour's.
var edgePairs = [4][2][2]Quadrant{
	{{TL, BL}, {TR, BR}}, // north
	{{TR, TL}, {BR, BL}}, // east
	{{BL, TL}, {BR, TR}}, // south
	{{TL, TR}, {BL, BR}}, // west
}

// externalSides lists the two sides of its tile that each quadrant lies on.
var externalSides = [4][2]direction{{0, 3}, {0, 1}, {1, 2}, {2, 3}}

// add returns c moved by d.
func (c Coord) add(d Coord) Coord { return Coord{c.X + d.X, c.Y + d.Y} }

// inRange reports whether c is within MaxCoord of the start tile on both axes.
func (c Coord) inRange() bool {
	return c.X >= -MaxCoord && c.X <= MaxCoord && c.Y >= -MaxCoord && c.Y <= MaxCoord
}

// compareCoords orders positions row by row: by Y, then X.
func compareCoords(a, b Coord) int {
	if a.Y != b.Y {
		return a.Y - b.Y
	}
	return a.X - b.X
}

// fit is what placing an oriented tile at a position would do with the tiles around it.
type fit struct {
	touches  bool
	match    bool
	conflict bool
	// where is the first conflict: the neighbour's position and the quadrants of the new tile and the neighbour.
	where        Coord
	mine, theirs Quadrant
}

// fitAt returns how quads at at would fit the tiles that lookup finds (ok false where there is none).
func fitAt(quads [4]Symbol, at Coord, lookup func(Coord) (Placed, bool)) fit {
	var f fit
	for d := range 4 {
		n, ok := lookup(at.add(step[d]))
		if !ok {
			continue
		}
		f.touches = true
		theirs := n.Quads()
		for _, pair := range edgePairs[d] {
			a, b := quads[pair[0]], theirs[pair[1]]
			if !a.IsMicropul() || !b.IsMicropul() {
				continue
			}
			if a == b {
				f.match = true
			} else if !f.conflict {
				f.conflict, f.where, f.mine, f.theirs = true, n.At, pair[0], pair[1]
			}
		}
	}
	return f
}

// activation is a catalyst that a placement fired: on the tile at At, in quadrant Quadrant or (Centre) in the centre
// of a big micropul.
type activation struct {
	At       Coord
	Quadrant Quadrant
	Centre   bool
	Catalyst Symbol
}

// activations returns the catalysts that placing p fires, each once, ordered by position (row by row) and then
// quadrant, the centre last. A catalyst fires when the placement makes it touch a micropul across an edge, one of the
// two being on the new tile; a big micropul's centre catalyst touches all 8 external quadrant sides of its tile.
func activations(p Placed, lookup func(Coord) (Placed, bool)) []activation {
	return appendActivations(nil, p, lookup)
}

// appendActivations appends the activations of placing p to out, as activations returns them, and returns the
// extended slice: a caller that replays many placements reuses one buffer.
func appendActivations(out []activation, p Placed, lookup func(Coord) (Placed, bool)) []activation {
	start := len(out)
	add := func(a activation) {
		if !slices.Contains(out[start:], a) {
			out = append(out, a)
		}
	}
	mine := p.Quads()
	newTile := tiles[p.Tile]
	for d := range 4 {
		n, ok := lookup(p.At.add(step[d]))
		if !ok {
			continue
		}
		theirs, theirTile := n.Quads(), tiles[n.Tile]
		for _, pair := range edgePairs[d] {
			a, b := mine[pair[0]], theirs[pair[1]]
			if b.IsMicropul() {
				if newTile.Big {
					add(activation{At: p.At, Centre: true, Catalyst: newTile.Centre})
				} else if a.IsCatalyst() {
					add(activation{At: p.At, Quadrant: pair[0], Catalyst: a})
				}
			}
			if a.IsMicropul() {
				if theirTile.Big {
					add(activation{At: n.At, Centre: true, Catalyst: theirTile.Centre})
				} else if b.IsCatalyst() {
					add(activation{At: n.At, Quadrant: pair[1], Catalyst: b})
				}
			}
		}
	}
	slices.SortFunc(out[start:], func(a, b activation) int {
		if c := compareCoords(a.At, b.At); c != 0 {
			return c
		}
		return a.rank() - b.rank()
	})
	return out
}

// rank orders the catalysts of one tile: quadrants clockwise, then the centre.
func (a activation) rank() int {
	if a.Centre {
		return 4
	}
	return int(a.Quadrant)
}

// group is a maximal set of same-coloured micropuls connected by quadrant adjacency.
type group struct {
	color Symbol
	// nodes are the micropuls as board index x 4 + quadrant, ascending.
	nodes []int16
	// micropuls counts them with a big micropul as 1; tiles counts the tiles the group spans.
	micropuls, tiles int
	closed           bool
	// stones are the indices of the stones on the group, in the order they were placed.
	stones []int16
}

// forest is a union-find forest over the nodes of a board (board index x 4 + quadrant): each node's parent, a root
// its own. As an array it stays on the stack of whoever checks the groups.
type forest [4 * NumTiles]int16

// find returns the root of node i, halving the path to it.
func (f *forest) find(i int) int {
	for int(f[i]) != i {
		f[i] = f[f[i]]
		i = int(f[i])
	}
	return i
}

// union joins the trees of nodes a and b under the smaller root.
func (f *forest) union(a, b int) {
	ra, rb := f.find(a), f.find(b)
	switch {
	case ra < rb:
		f[rb] = int16(ra)
	case rb < ra:
		f[ra] = int16(rb)
	}
}

// connect sets f to the forest of the board's groups: the micropuls of a group in one tree, whose root is the group's
// smallest node; every other node (no micropul) a root alone.
func (s *State) connect(f *forest) {
	for i := range len(s.board) * 4 {
		f[i] = int16(i)
	}
	for i, p := range s.board {
		q := p.Quads()
		for k := range 4 {
			if q[k].IsMicropul() && q[k] == q[(k+1)&3] {
				f.union(i*4+k, i*4+(k+1)&3)
			}
		}
		for _, d := range [...]direction{1, 2} { // east and south: each edge once
			j, ok := s.index.at(p.At.add(step[d]))
			if !ok {
				continue
			}
			r := s.board[j].Quads()
			for _, pair := range edgePairs[d] {
				if a := q[pair[0]]; a.IsMicropul() && a == r[pair[1]] {
					f.union(i*4+int(pair[0]), j*4+int(pair[1]))
				}
			}
		}
	}
}

// isMicropul reports whether node (board index x 4 + quadrant) holds a micropul.
func (s *State) isMicropul(node int) bool { return s.board[node/4].Quads()[node%4].IsMicropul() }

// groups returns the groups of the board and, for each node (board index x 4 + quadrant), its group's index or -1.
// Groups are ordered by their first node. The lists of every group, and of, share one array.
func (s *State) groups() ([]group, []int16) {
	var f forest
	s.connect(&f)
	n := len(s.board) * 4
	roots := 0
	for node := range n {
		if s.isMicropul(node) && f.find(node) == node {
			roots++
		}
	}
	gs := make([]group, 0, roots)
	buf := make([]int16, 2*n+len(s.stones))
	of, nodes, stones := buf[:n:n], buf[n:n:2*n], buf[2*n:2*n]
	// A root, the smallest node of its group, comes first: a group's index is given at its root and looked up there
	// for the later nodes. Meanwhile count each group's nodes and stones, in the fields that later count micropuls
	// and tiles.
	for node := range n {
		switch root := f.find(node); {
		case !s.isMicropul(node):
			of[node] = -1
		case root != node:
			of[node] = of[root]
		default:
			of[node] = int16(len(gs))
			gs = append(gs, group{color: s.board[node/4].Quads()[node%4], closed: true})
		}
		if g := of[node]; g >= 0 {
			gs[g].micropuls++
		}
	}
	for _, st := range s.stones {
		if g := of[s.stoneNode(st)]; g >= 0 {
			gs[g].tiles++
		}
	}
	for g := range gs {
		gr := &gs[g]
		gr.nodes, nodes = nodes[len(nodes):len(nodes):len(nodes)+gr.micropuls], nodes[:len(nodes)+gr.micropuls]
		gr.stones, stones = stones[len(stones):len(stones):len(stones)+gr.tiles], stones[:len(stones)+gr.tiles]
		gr.micropuls, gr.tiles = 0, 0
	}
	for node := range n {
		g := of[node]
		if g < 0 {
			continue
		}
		p, gr := s.board[node/4], &gs[g]
		gr.nodes = append(gr.nodes, int16(node))
		// Count a tile (and a big micropul) on its first node: nodes come tile by tile.
		first := len(gr.nodes) == 1 || int(gr.nodes[len(gr.nodes)-2])/4 != node/4
		if first {
			gr.tiles++
		}
		if !tiles[p.Tile].Big || first {
			gr.micropuls++
		}
		for _, d := range externalSides[node%4] {
			if !s.index.has(p.At.add(step[d])) {
				gr.closed = false
			}
		}
	}
	for i, st := range s.stones {
		if g := of[s.stoneNode(st)]; g >= 0 {
			gs[g].stones = append(gs[g].stones, int16(i))
		}
	}
	return gs, of
}

// stoneNode returns the node (board index x 4 + quadrant) that st, a stone of the board, lies on.
func (s *State) stoneNode(st Stone) int {
	i, _ := s.index.at(st.At)
	return i*4 + int(st.Quadrant)
}

// frontier returns the empty positions next to the tiles in play, row by row.
func (s *State) frontier() []Coord {
	out := make([]Coord, 0, 4*len(s.board))
	for _, p := range s.board {
		for _, d := range step {
			if c := p.At.add(d); !s.index.has(c) && c.inRange() {
				out = append(out, c)
			}
		}
	}
	slices.SortFunc(out, compareCoords)
	return slices.Compact(out)
}

// lookup returns the tile at c, if any.
func (s *State) lookup(c Coord) (Placed, bool) {
	i, ok := s.index.at(c)
	if !ok {
		return Placed{}, false
	}
	return s.board[i], true
}
