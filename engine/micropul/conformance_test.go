package micropul

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestConformance runs the conformance suite on both player counts under both rule sets, with the re-deals of the
// hidden tiles that check what each seat is told.
func TestConformance(t *testing.T) {
	enginetest.Run(t, Spec, battery, enginetest.ChosenDepth(t))
}

// battery is what the conformance suite needs to know of Micropul beyond its spec.
var battery = enginetest.Battery[*State, Move]{
	Setups: []enginetest.Setup{
		setup(Options{Players: 2, Rules: DefaultRules}, 6),
		setup(Options{Players: 2, Rules: Original2004}, 4),
		setup(Options{Players: 1, Rules: DefaultRules}, 5),
		setup(Options{Players: 1, Rules: Original2004}, 4),
	},
	Candidates: candidates,
	Hidden: &enginetest.Hiding[*State]{
		Redeal: redeal,
		Secrets: []enginetest.Secret[*State]{
			{Name: "core's order", Of: func(s *State) any { return s.core }},
			{Name: "supplies", Of: func(s *State) any { return s.seatTiles(func(st Seat) []int { return st.Supply }) }},
			{Name: "hands", Of: func(s *State) any { return s.seatTiles(func(st Seat) []int { return st.Hand }) }},
		},
		Reveals: endsBlocked,
	},
}

// setup returns the setup of a game with opts, worth playouts.
func setup(opts Options, playouts int) enginetest.Setup {
	return enginetest.Setup{Name: fmt.Sprintf("%dp-%v", opts.Players, opts.Rules), Playouts: playouts,
		Options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{Micropul: opts.Proto()}}}
}

// seatTiles returns the tiles of each seat that of picks.
func (s *State) seatTiles(of func(Seat) []int) [][]int {
	out := make([][]int, len(s.seats))
	for i, st := range s.seats {
		out[i] = of(st)
	}
	return out
}

// TestSeatAnswersOfAForcedPass runs the suite on the engine.Game adapter from positions where player 1, in an extra
// turn, has no action but to pass: no tile of their hand fits the board, their supply is empty, and every group a
// stone could claim has one. Whether a pass in an extra turn is forced depends on the hand, which nobody else may
// see: what the others are told of the pass must not say. Solo, the forced pass ends the game as blocked, which shows
// it to everyone (endsBlocked). The first playout starts from the position, the second is an ordinary game (the solo
// position ends at once, and the check must compare some move); only legal moves are probed.
func TestSeatAnswersOfAForcedPass(t *testing.T) {
	for _, c := range []struct {
		name string
		pos  Position
	}{
		{"2p", Position{Options: DefaultOptions(),
			Board:  []Placed{{Tile: StartTile}, {Tile: 23, At: Coord{0, -1}}},
			Stones: []Stone{{Player: 2, At: Coord{0, 0}, Quadrant: TL}},
			Hands:  [][]int{{36, 42, 46}, {7, 13, 20, 22, 26, 45}}, Supplies: [][]int{nil, {2, 41}}}},
		{"solo", Position{Options: Options{Players: 1},
			Board: []Placed{{Tile: StartTile}, {Tile: 28, At: Coord{1, 0}, Rotation: 1},
				{Tile: 8, At: Coord{0, 1}, Rotation: 3}, {Tile: 13, At: Coord{1, 1}}},
			Stones: []Stone{{Player: 1, At: Coord{0, 0}, Quadrant: TL}, {Player: 1, At: Coord{0, 0}, Quadrant: BR}},
			Hands:  [][]int{{37, 43, 47}}, Supplies: [][]int{nil}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.pos.Core, c.pos.ToMove, c.pos.ExtraTurn = unplaced(c.pos), 1, true
			stuck, err := NewState(c.pos)
			if err != nil {
				t.Fatal(err)
			}
			if legal := stuck.Legal(1); !slices.Equal(legal, []Move{{Player: 1, Action: Pass}}) {
				t.Fatalf("player 1 may %v, want only to pass", legal)
			}
			h := enginetest.EnvelopeHarness(Spec, battery, &rulebookv1.GameOptions{
				Game: &rulebookv1.GameOptions_Micropul{Micropul: c.pos.Options.Proto()}})
			h.Candidates = nil
			ordinary := h.New
			h.New = func(seed uint64) (engine.Position, error) {
				if seed == 1 {
					return Spec.Decode(Spec.Definition.EncodeState(stuck))
				}
				return ordinary(seed)
			}
			// The second playout is an ordinary game: its states are thinned as the battery's are, but at the long
			// depth.
			h.Playouts, h.CheckEvery = 2, enginetest.ByDepth(4, 4, 1)
			enginetest.RunHarness(t, h)
		})
	}
}

// unplaced returns the tiles that are neither on the board of p nor in a hand or supply, ascending.
func unplaced(p Position) []int {
	var out []int
	for id := range NumTiles {
		placed := slices.ContainsFunc(p.Board, func(pl Placed) bool { return pl.Tile == id })
		for _, tiles := range slices.Concat(p.Hands, p.Supplies) {
			placed = placed || slices.Contains(tiles, id)
		}
		if !placed {
			out = append(out, id)
		}
	}
	return out
}

// redeal returns s with everything viewer may not see dealt anew from seed: the core, every supply and the other
// players' hands are pooled, shuffled and dealt back with the same sizes. A game that ended blocked has shown that no
// tile of any hand could be placed, so there the hands stay.
func redeal(s *State, viewer engine.Player, seed uint64) *State {
	r := s.clone()
	redealsHand := func(p engine.Player) bool { return p != viewer && s.end != Blocked }
	var pool []int
	pool = append(pool, r.core...)
	for i := range r.seats {
		pool = append(pool, r.seats[i].Supply...)
		if redealsHand(engine.Player(i + 1)) {
			pool = append(pool, r.seats[i].Hand...)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	take := func(n int) []int {
		out := slices.Clone(pool[:n])
		pool = pool[n:]
		return out
	}
	r.core = take(len(r.core))
	for i := range r.seats {
		r.seats[i].Supply = take(len(r.seats[i].Supply))
		if redealsHand(engine.Player(i + 1)) {
			r.seats[i].Hand = take(len(r.seats[i].Hand))
			slices.Sort(r.seats[i].Hand)
		}
	}
	return r
}

// endsBlocked reports whether events end the game as blocked, which shows everyone that no tile of any hand could be
// placed.
func endsBlocked(events []*rulebookv1.Event) bool {
	return slices.ContainsFunc(events, func(e *rulebookv1.Event) bool {
		return e.GetMicropul().GetGameOver().GetEnd() == rulebookv1.MicropulEnd_MICROPUL_END_BLOCKED
	})
}

// candidates returns moves to probe: for the player to move, every hand tile in every rotation at every frontier
// position, a tile not in hand, stones on every quadrant of every tile and off the board, taking and passing; the
// same few moves for the other player; and malformed moves.
func candidates(s *State) []Move {
	var moves []Move
	to := max(s.ToMove(), 1)
	if s.view || len(s.seats) == 0 {
		return nil
	}
	frontier := s.frontier()
	hand := s.seats[to-1].Hand
	for _, id := range hand {
		for r := range 4 {
			for _, at := range frontier {
				moves = append(moves, Move{Player: to, Action: PlaceTile, Tile: id, At: at, Rotation: r})
			}
		}
	}
	if len(s.core) > 0 && len(frontier) > 0 {
		moves = append(moves, Move{Player: to, Action: PlaceTile, Tile: s.core[0], At: frontier[0]})
	}
	if len(hand) > 0 {
		moves = append(moves, Move{Player: to, Action: PlaceTile, Tile: hand[0], At: Coord{}},
			Move{Player: to, Action: PlaceTile, Tile: hand[0], At: Coord{5, 5}})
	}
	for _, p := range s.board {
		for q := range 4 {
			moves = append(moves, Move{Player: to, Action: PlaceStone, At: p.At, Quadrant: Quadrant(q)})
		}
	}
	moves = append(moves, Move{Player: to, Action: PlaceStone, At: Coord{9, 9}},
		Move{Player: to, Action: TakeTile}, Move{Player: to, Action: Pass})
	for p := engine.Player(1); p <= engine.Player(s.opts.Players); p++ {
		if p != to {
			moves = append(moves, Move{Player: p, Action: TakeTile}, Move{Player: p, Action: Pass})
		}
	}
	return append(moves,
		Move{Player: engine.NoPlayer, Action: Pass},
		Move{Player: engine.Player(s.opts.Players + 1), Action: Pass},
		Move{Player: to},
		Move{Player: to, Action: PlaceTile, Tile: NumTiles},
		Move{Player: to, Action: PlaceTile, Tile: 0, Rotation: 4},
		Move{Player: to, Action: PlaceTile, Tile: 46, Rotation: 1},
		Move{Player: to, Action: PlaceTile, Tile: 0, At: Coord{MaxCoord + 1, 0}},
		Move{Player: to, Action: PlaceStone, At: Coord{0, -MaxCoord - 1}},
		Move{Player: to, Action: PlaceStone, Quadrant: BL + 1},
	)
}
