package narrate

import (
	"math/rand/v2"
	"testing"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/hosted"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestExploze plays Exploze moves (in the notation, the players taking turns) with the engine and narrates the
// events of the last: nothing for a stone that stays, the explosion count of a chain reaction, its waves and the
// cells it took, and a player who lost their last stone.
func TestExploze(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int32
		moves      []string
		want       string
	}{
		{"a stone that stays", 3, 3, []string{"a1"}, ""},
		{"one explosion onto empty cells", 3, 3, []string{"a1", "c3", "a1"}, "1 explosion"},
		// a2 (an edge, 3 stones) explodes and takes a1 and a3 from player 1; both corners, at 2, explode next.
		{"a chain reaction", 3, 3, []string{"c3", "a2", "a1", "a2", "a3", "a2"},
			"a chain of 2 waves, 3 explosions, 2 cells taken from player 1"},
		// a1 explodes into b1, player 2's only cell: the chain stops there, as player 2 has no stone left.
		{"the last stone taken", 2, 2, []string{"a1", "b1", "a1"},
			"1 explosion, 1 cell taken from player 2; player 2 is out"},
	}
	n, _ := hosted.NotationOf("exploze")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := exploze.Game{}.New(&rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{
				Exploze: &rulebookv1.ExplozeOptions{Rows: tt.rows, Cols: tt.cols}}}, 1)
			if err != nil {
				t.Fatal(err)
			}
			var events []*rulebookv1.Event
			for _, text := range tt.moves {
				move, err := n.Parse(int32(pos.ToMove()[0]), text)
				if err != nil {
					t.Fatal(err)
				}
				if pos, events, err = pos.Apply(move); err != nil {
					t.Fatalf("%s: %v", text, err)
				}
			}
			if got := Move(events, nil, pos.Score()); got != tt.want {
				t.Errorf("Move = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEveryGame plays a seeded game of random legal moves of every hosted game, narrating each move's events as
// Apply returns them (and its standings): it fails for a hosted game none of whose moves Move has words for.
func TestEveryGame(t *testing.T) {
	const maxMoves = 2000
	for _, g := range hosted.Games() {
		t.Run(g.Info().GetId(), func(t *testing.T) {
			pos, err := g.New(nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			told := 0
			for range maxMoves {
				legal, err := pos.Legal(engine.NoPlayer)
				if err != nil {
					t.Fatal(err)
				}
				if len(legal) == 0 {
					break
				}
				next, events, err := pos.Apply(legal[rng.IntN(len(legal))])
				if err != nil {
					t.Fatal(err)
				}
				if Move(events, pos.Score(), next.Score()) != "" {
					told++
				}
				pos = next
			}
			if told == 0 {
				t.Errorf("no move of a game of %d moves is told: give Move words for the game's events",
					maxMoves)
			}
		})
	}
}

// TestMove narrates events of every game as ApplyMove answers them, and Micropul's points from the standings.
func TestMove(t *testing.T) {
	wave := func(exploded, captured int, from int32) *rulebookv1.Event {
		w := &rulebookv1.ExplozeWave{}
		for range exploded {
			w.Exploded = append(w.Exploded, &rulebookv1.ExplozeCoord{})
		}
		for range captured {
			w.Captured = append(w.Captured, &rulebookv1.ExplozeCapture{FromPlayer: from})
		}
		return &rulebookv1.Event{Game: &rulebookv1.Event_Exploze{Exploze: &rulebookv1.ExplozeEvent{
			Kind: &rulebookv1.ExplozeEvent_Wave{Wave: w}}}}
	}
	out := func(p int32) *rulebookv1.Event {
		return &rulebookv1.Event{Game: &rulebookv1.Event_Exploze{Exploze: &rulebookv1.ExplozeEvent{
			Kind: &rulebookv1.ExplozeEvent_Eliminated{Eliminated: &rulebookv1.ExplozePlayerEliminated{Player: p}}}}}
	}
	fished := &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Fished{Fished: &rulebookv1.KipicotFished{
		Player: 1, Corner: &rulebookv1.KipicotCoord{Row: 1, Col: 1}, Red: 2, Yellow: 1}}}
	choice := &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_FishingChoice{
		FishingChoice: &rulebookv1.KipicotFishingChoice{
			Corners: []*rulebookv1.KipicotCoord{{Row: 0, Col: 0}, {Row: 0, Col: 1}, {Row: 2, Col: 3}}}}}
	placed := &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_TilePlaced{
		TilePlaced: &rulebookv1.MicropulTilePlaced{Player: 1}}}
	drawn := func(n uint32) *rulebookv1.MicropulEvent {
		return &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_TilesDrawn{
			TilesDrawn: &rulebookv1.MicropulTilesDrawn{Player: 1, Count: n, Hidden: true}}}
	}
	extra := &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_ExtraTurnGranted{
		ExtraTurnGranted: &rulebookv1.MicropulExtraTurnGranted{Player: 1, Turns: 1}}}
	taken := &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_TileTaken{
		TileTaken: &rulebookv1.MicropulTileTaken{Player: 2, Tile: 31}}}
	outOfTiles := &rulebookv1.MicropulEvent{Kind: &rulebookv1.MicropulEvent_OutOfTiles{
		OutOfTiles: &rulebookv1.MicropulOutOfTiles{Player: 1}}}
	points := func(p1, p2 int32, groups1 uint32) *rulebookv1.Score {
		return &rulebookv1.Score{
			Game: &rulebookv1.Score_Micropul{Micropul: &rulebookv1.MicropulScore{
				Players: []*rulebookv1.MicropulPlayerScore{{Player: 1, GroupPoints: groups1}, {Player: 2}}}},
			Standings: []*rulebookv1.PlayerStanding{{Player: 1, Points: p1}, {Player: 2, Points: p2}}}
	}
	solved := func(pending bool) *rulebookv1.UbongoDuelEvent {
		return &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_Solved{
			Solved: &rulebookv1.UbongoDuelSolved{Player: 2, Roll: 1, Pending: pending}}}
	}
	won := &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_DuelWon{
		DuelWon: &rulebookv1.UbongoDuelDuelWon{Player: 2, Sheet: 2, DuelsWon: []uint32{0, 1}}}}
	started := &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_DuelStarted{
		DuelStarted: &rulebookv1.UbongoDuelDuelStarted{Sheet: 3}}}
	rerolled := func(reason rulebookv1.UbongoDuelRerollReason) *rulebookv1.UbongoDuelEvent {
		return &rulebookv1.UbongoDuelEvent{Kind: &rulebookv1.UbongoDuelEvent_Rerolled{
			Rerolled: &rulebookv1.UbongoDuelRerolled{Reason: reason, Sheet: 4}}}
	}
	tests := []struct {
		name          string
		events        []*rulebookv1.Event
		before, after *rulebookv1.Score
		want          string
	}{
		{"no events", nil, nil, nil, ""},
		{"Exploze: a chain of three waves from two players, two of them out",
			[]*rulebookv1.Event{wave(1, 2, 2), wave(2, 1, 3), wave(3, 0, 0), out(3), out(2)}, nil, nil,
			"a chain of 3 waves, 6 explosions, 3 cells taken from players 2 and 3; players 2 and 3 are out"},
		{"Kipicot: a catch", events(fished), nil, nil, "caught 3 tokens at b2: 2 red, 1 yellow"},
		{"Kipicot: fishing squares to choose from", events(choice), nil, nil,
			"choose the fishing square: a1, b1 or d3"},
		{"Micropul: catalysts and points", events(placed, drawn(2), drawn(1), extra), points(10, 12, 0),
			points(15, 12, 0), "drew 3 tiles into the supply; won an extra turn; player 1 has 15 points (+5)"},
		{"Micropul: a group closed", events(placed), points(10, 12, 2), points(13, 12, 6),
			"player 1 has 13 points (+3, +4 from groups)"},
		{"Micropul: a take, points down, and a player out of tiles", events(taken, outOfTiles),
			points(1, 12, 0), points(1, 11, 0), "player 1 is out of tiles and loses; player 2 has 11 points (-1)"},
		{"Micropul: one point", nil, points(0, 0, 0), points(1, 0, 0), "player 1 has 1 point (+1)"},
		{"Micropul: points unknown", nil, nil, points(1, 1, 0), ""},
		{"Ubongo Duel: a win pending", events(solved(true)), nil, nil,
			"player 2 solved first: the win waits for the tie window to close"},
		{"Ubongo Duel: a duel won", events(solved(false), won, started), nil, nil,
			"player 2 won the duel on sheet 2 (duels won 0-1)"},
		{"Ubongo Duel: a tie and a give-up", events(rerolled(rulebookv1.UbongoDuelRerollReason_UBONGO_DUEL_REROLL_REASON_TIE),
			rerolled(rulebookv1.UbongoDuelRerollReason_UBONGO_DUEL_REROLL_REASON_GIVE_UP)), nil, nil,
			"a tie: the duel on sheet 4 is rolled again; both gave up: the duel on sheet 4 is rolled again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Move(tt.events, tt.before, tt.after); got != tt.want {
				t.Errorf("Move = %q, want %q", got, tt.want)
			}
		})
	}
}

// events wraps the events of a game, Kipicot, Micropul or Ubongo Duel, in the envelope of ApplyMove's answer.
func events[E interface {
	*rulebookv1.KipicotEvent | *rulebookv1.MicropulEvent | *rulebookv1.UbongoDuelEvent
}](es ...E) []*rulebookv1.Event {
	out := make([]*rulebookv1.Event, len(es))
	for i, e := range es {
		switch e := any(e).(type) {
		case *rulebookv1.KipicotEvent:
			out[i] = &rulebookv1.Event{Game: &rulebookv1.Event_Kipicot{Kipicot: e}}
		case *rulebookv1.MicropulEvent:
			out[i] = &rulebookv1.Event{Game: &rulebookv1.Event_Micropul{Micropul: e}}
		case *rulebookv1.UbongoDuelEvent:
			out[i] = &rulebookv1.Event{Game: &rulebookv1.Event_UbongoDuel{UbongoDuel: e}}
		}
	}
	return out
}

// TestSeats writes lists of seats in order.
func TestSeats(t *testing.T) {
	tests := []struct {
		seats []int32
		want  string
	}{{nil, ""}, {[]int32{2}, "2"}, {[]int32{3, 2}, "2 and 3"}, {[]int32{1, 2, 3}, "1, 2 and 3"}}
	for _, tt := range tests {
		if got := Seats(tt.seats); got != tt.want {
			t.Errorf("Seats(%v) = %q, want %q", tt.seats, got, tt.want)
		}
	}
}
