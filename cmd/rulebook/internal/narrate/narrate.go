// Package narrate tells a person at a terminal what a move did, in a few words, from the events ApplyMove answers
// with: the explosions of an Exploze chain and the cells they took, a Kipicot catch, the tiles a Micropul catalyst
// drew and the extra turns it won (and the points each player has after the move, from the standings), the duel won
// in Ubongo Duel. Squares are named as the move notation names them (engine.Square). It tells only what every seat
// may see: never a tile drawn or taken, nor whether a pass was forced. Seats writes a list of seats for the
// terminal's other lines too.
package narrate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Move returns what a move did beyond what its notation says, for the line "player 1 played c3: ...", such as
// "2 explosions, 5 cells taken from player 2"; "" when nothing more happened. events are the move's, as ApplyMove
// answered them; before and after are the standings before and after the move (either may be nil), from which the
// points of a Micropul game are told. The end of a game is left to whoever shows its result.
func Move(events []*rulebookv1.Event, before, after *rulebookv1.Score) string {
	var clauses []string
	clauses = append(clauses, tellExploze(events)...)
	clauses = append(clauses, tellKipicot(events)...)
	clauses = append(clauses, tellMicropul(events)...)
	clauses = append(clauses, tellUbongoDuel(events)...)
	clauses = append(clauses, tellPoints(before, after)...)
	return strings.Join(clauses, "; ")
}

// tellExploze tells Exploze events: the explosions of the move's chain (and its waves, when more than one) and the
// cells they took, then the players who lost their last stone.
func tellExploze(events []*rulebookv1.Event) []string {
	var waves, explosions, taken int
	var from, out []int32
	for _, e := range events {
		switch k := e.GetExploze().GetKind().(type) {
		case *rulebookv1.ExplozeEvent_Wave:
			waves++
			explosions += len(k.Wave.GetExploded())
			for _, c := range k.Wave.GetCaptured() {
				taken++
				from = addSeat(from, c.GetFromPlayer())
			}
		case *rulebookv1.ExplozeEvent_Eliminated:
			out = addSeat(out, k.Eliminated.GetPlayer())
		}
	}
	var clauses []string
	if waves > 0 {
		chain := count(explosions, "explosion")
		if waves > 1 {
			chain = "a chain of " + count(waves, "wave") + ", " + chain
		}
		if taken > 0 {
			chain += ", " + count(taken, "cell") + " taken from " + players(from)
		}
		clauses = append(clauses, chain)
	}
	switch {
	case len(out) == 1:
		clauses = append(clauses, players(out)+" is out")
	case len(out) > 1:
		clauses = append(clauses, players(out)+" are out")
	}
	return clauses
}

// tellKipicot tells Kipicot events: a catch, and the fishing squares the mover is to choose from.
func tellKipicot(events []*rulebookv1.Event) []string {
	var clauses []string
	for _, e := range events {
		switch k := e.GetKipicot().GetKind().(type) {
		case *rulebookv1.KipicotEvent_Fished:
			f := k.Fished
			clauses = append(clauses, fmt.Sprintf("caught %s at %s: %d red, %d yellow",
				count(int(f.GetRed()+f.GetYellow()), "token"), square(f.GetCorner()), f.GetRed(), f.GetYellow()))
		case *rulebookv1.KipicotEvent_FishingChoice:
			corners := make([]string, len(k.FishingChoice.GetCorners()))
			for i, c := range k.FishingChoice.GetCorners() {
				corners[i] = square(c)
			}
			clauses = append(clauses, "choose the fishing square: "+list(corners, "or"))
		}
	}
	return clauses
}

// square names a Kipicot square as the notation does.
func square(c *rulebookv1.KipicotCoord) string {
	return engine.Square(int(c.GetCol()), int(c.GetRow()))
}

// tellMicropul tells Micropul events: the tiles the catalysts drew, the extra turns they won, a player out of tiles.
func tellMicropul(events []*rulebookv1.Event) []string {
	var drawn, turns int
	var out []int32
	for _, e := range events {
		switch k := e.GetMicropul().GetKind().(type) {
		case *rulebookv1.MicropulEvent_TilesDrawn:
			drawn += int(k.TilesDrawn.GetCount())
		case *rulebookv1.MicropulEvent_ExtraTurnGranted:
			turns += int(k.ExtraTurnGranted.GetTurns())
		case *rulebookv1.MicropulEvent_OutOfTiles:
			out = addSeat(out, k.OutOfTiles.GetPlayer())
		}
	}
	var clauses []string
	if drawn > 0 {
		clauses = append(clauses, "drew "+count(drawn, "tile")+" into the supply")
	}
	switch {
	case turns == 1:
		clauses = append(clauses, "won an extra turn")
	case turns > 1:
		clauses = append(clauses, "won "+count(turns, "extra turn"))
	}
	for _, p := range out {
		clauses = append(clauses, fmt.Sprintf("player %d is out of tiles and loses", p))
	}
	return clauses
}

// tellPoints tells the points of each player whose live total a Micropul move changed, with the change, and the
// change of their groups' points when a group came to score or stopped scoring.
func tellPoints(before, after *rulebookv1.Score) []string {
	if before.GetMicropul() == nil || after.GetMicropul() == nil {
		return nil
	}
	var clauses []string
	for _, now := range after.GetStandings() {
		p := now.GetPlayer()
		was := standing(before, p)
		if was == nil {
			continue
		}
		change := now.GetPoints() - was.GetPoints()
		if change == 0 {
			continue
		}
		text := fmt.Sprintf("player %d has %s (%+d", p, count(int(now.GetPoints()), "point"), change)
		if groups := int(groupPoints(after, p)) - int(groupPoints(before, p)); groups != 0 {
			text += fmt.Sprintf(", %+d from groups", groups)
		}
		clauses = append(clauses, text+")")
	}
	return clauses
}

// standing returns the standing of player in score, or nil.
func standing(score *rulebookv1.Score, player int32) *rulebookv1.PlayerStanding {
	for _, s := range score.GetStandings() {
		if s.GetPlayer() == player {
			return s
		}
	}
	return nil
}

// groupPoints returns the points of player's groups in a Micropul score.
func groupPoints(score *rulebookv1.Score, player int32) uint32 {
	for _, p := range score.GetMicropul().GetPlayers() {
		if p.GetPlayer() == player {
			return p.GetGroupPoints()
		}
	}
	return 0
}

// tellUbongoDuel tells Ubongo Duel events: a win waiting for its tie window, a duel won, a duel rolled again.
func tellUbongoDuel(events []*rulebookv1.Event) []string {
	var clauses []string
	for _, e := range events {
		switch k := e.GetUbongoDuel().GetKind().(type) {
		case *rulebookv1.UbongoDuelEvent_Solved:
			if k.Solved.GetPending() {
				clauses = append(clauses, fmt.Sprintf("player %d solved first: the win waits for the tie window "+
					"to close", k.Solved.GetPlayer()))
			}
		case *rulebookv1.UbongoDuelEvent_DuelWon:
			w := k.DuelWon
			won := make([]string, len(w.GetDuelsWon()))
			for i, n := range w.GetDuelsWon() {
				won[i] = strconv.Itoa(int(n))
			}
			clauses = append(clauses, fmt.Sprintf("player %d won the duel on sheet %d (duels won %s)",
				w.GetPlayer(), w.GetSheet(), strings.Join(won, "-")))
		case *rulebookv1.UbongoDuelEvent_Rerolled:
			why := "a tie"
			if k.Rerolled.GetReason() == rulebookv1.UbongoDuelRerollReason_UBONGO_DUEL_REROLL_REASON_GIVE_UP {
				why = "both gave up"
			}
			clauses = append(clauses, fmt.Sprintf("%s: the duel on sheet %d is rolled again", why,
				k.Rerolled.GetSheet()))
		}
	}
	return clauses
}

// addSeat returns seats with seat added, unless it is there already.
func addSeat(seats []int32, seat int32) []int32 {
	if slices.Contains(seats, seat) {
		return seats
	}
	return append(seats, seat)
}

// players names seats: "player 2", "players 2 and 3".
func players(seats []int32) string {
	if len(seats) == 1 {
		return "player " + Seats(seats)
	}
	return "players " + Seats(seats)
}

// Seats writes seats in order: "2", "2 and 3", "1, 2 and 3".
func Seats(seats []int32) string {
	names := make([]string, len(seats))
	for i, s := range slices.Sorted(slices.Values(seats)) {
		names[i] = strconv.Itoa(int(s))
	}
	return list(names, "and")
}

// list writes items as "a", "a and b", "a, b and c" (with word instead of "and").
func list(items []string, word string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + word + " " + items[len(items)-1]
}

// count writes n things: "1 explosion", "2 explosions".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
