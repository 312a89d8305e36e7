package micropul

import (
	"slices"

	"github.com/rulebook/rulebook/engine"
)

// SoloBand rates the score of a solo game.
type SoloBand int

// The bands, each from its lower bound (included) to the next one's.
const (
	// NoBand: not a solo game.
	NoBand SoloBand = iota
	// Novice: below 30 points.
	Novice
	// Beginner: 30 to 59.
	Beginner
	// Normal: 60 to 74.
	Normal
	// Advanced: 75 to 89.
	Advanced
	// Expert: 90 to 100.
	Expert
	// Master: over 100.
	Master
)

// String returns the band's name.
func (b SoloBand) String() string {
	return [...]string{"none", "Novice", "Beginner", "Normal", "Advanced", "Expert", "Master"}[b]
}

// BandOf returns the solo band of a score.
func BandOf(points int) SoloBand {
	switch {
	case points < 30:
		return Novice
	case points < 60:
		return Beginner
	case points < 75:
		return Normal
	case points < 90:
		return Advanced
	case points <= 100:
		return Expert
	}
	return Master
}

// Score is the standing of a game, live or final.
type Score struct {
	// Players holds one entry per player, in seat order.
	Players []PlayerScore
	// Groups holds every group that carries a stone, ordered by its first micropul (First).
	Groups []GroupScore
	Over   bool
	End    End
	// Winners once the game is over: the players with the highest total (none for a draw), or the opponent of a
	// player who ran out of tiles; in a solo game the player, unless they ran out of tiles.
	Winners []engine.Player
	// Band rates a solo game's total (live while it goes on); NoBand with two players.
	Band SoloBand
}

// PlayerScore is one player's points.
type PlayerScore struct {
	Player engine.Player
	// Groups is 1 point per micropul (a big micropul counting 1) of each closed group carrying exactly one stone,
	// the player's; Supply 2 per tile in supply; Hand 1 per tile in hand.
	Groups, Supply, Hand int
	Total                int
	Lost                 bool
}

// GroupScore is one group carrying stones.
type GroupScore struct {
	Color Symbol
	// First is the group's first micropul on the board: the one of the top row, then of the leftmost column, then of
	// the first quadrant clockwise from TL (not the first placed).
	First            Stone
	Micropuls, Tiles int
	Closed           bool
	Stones           []Stone
	Points           int
	Owner            engine.Player
}

// Score returns the standings. It works on views too: everything it counts is public.
func (s *State) Score() Score {
	sc := Score{Players: make([]PlayerScore, s.opts.Players), Over: s.Over(), End: s.end}
	for i, seat := range s.seats {
		p := engine.Player(i + 1)
		sc.Players[i] = PlayerScore{Player: p, Supply: 2 * seat.SupplyCount, Hand: seat.HandCount, Lost: p == s.loser}
	}
	groups, _ := s.groups()
	for _, g := range groups {
		if len(g.stones) == 0 {
			continue
		}
		gs := GroupScore{Color: g.color, First: s.firstMicropul(g), Micropuls: g.micropuls, Tiles: g.tiles,
			Closed: g.closed}
		for _, k := range g.stones {
			gs.Stones = append(gs.Stones, s.stones[k])
		}
		if g.closed && len(g.stones) == 1 {
			gs.Points, gs.Owner = g.micropuls, gs.Stones[0].Player
			sc.Players[gs.Owner-1].Groups += gs.Points
		}
		sc.Groups = append(sc.Groups, gs)
	}
	slices.SortFunc(sc.Groups, func(a, b GroupScore) int { return compareMicropuls(a.First, b.First) })
	best := -1
	for i := range sc.Players {
		ps := &sc.Players[i]
		ps.Total = ps.Groups + ps.Supply + ps.Hand
		best = max(best, ps.Total)
	}
	if s.opts.Players == 1 {
		sc.Band = BandOf(sc.Players[0].Total)
	}
	if !sc.Over {
		return sc
	}
	switch {
	case s.loser != engine.NoPlayer:
		for _, ps := range sc.Players {
			if ps.Player != s.loser {
				sc.Winners = append(sc.Winners, ps.Player)
			}
		}
	case s.opts.Players == 1:
		sc.Winners = []engine.Player{1}
	default:
		for _, ps := range sc.Players {
			if ps.Total == best {
				sc.Winners = append(sc.Winners, ps.Player)
			}
		}
		if len(sc.Winners) == len(sc.Players) {
			sc.Winners = nil // a draw
		}
	}
	slices.Sort(sc.Winners)
	return sc
}

// firstMicropul returns the micropul of g that comes first by row, column and quadrant, as a Stone with no player.
func (s *State) firstMicropul(g group) Stone {
	var first Stone
	for i, node := range g.nodes {
		m := Stone{At: s.board[node/4].At, Quadrant: Quadrant(node % 4)}
		if i == 0 || compareMicropuls(m, first) < 0 {
			first = m
		}
	}
	return first
}

// compareMicropuls orders micropuls (as stones, whose players it ignores) by row, column and quadrant.
func compareMicropuls(a, b Stone) int {
	if c := compareCoords(a.At, b.At); c != 0 {
		return c
	}
	return int(a.Quadrant) - int(b.Quadrant)
}
