package ubongoduel

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestViewsHideTheDie checks along a seeded game that no view's message holds the die's state, that views of states
// with different generators but the same public facts are identical (so a view cannot tell the next roll), that a
// view decodes and scores like its state, and that the service refuses it as the state of a move.
func TestViewsHideTheDie(t *testing.T) {
	s := newGame(t, Options{TieWindowMS: 50, CatchUp: true}, 21)
	for ply := 0; !s.Over() && ply < 200; ply++ {
		for viewer := engine.Player(0); viewer <= Players; viewer++ {
			m := s.View(viewer).Proto()
			if !m.GetIsView() || m.GetViewer() != int32(viewer) || len(m.GetDie()) != 0 {
				t.Fatalf("view of %d: %v", viewer, m)
			}
			other := redeal(s, viewer, uint64(ply))
			if !protoEqual(other.View(viewer).Proto(), m) || bytes.Equal(other.die, s.die) {
				t.Fatalf("the view of %d depends on the die's state", viewer)
			}
			v, err := FromProto(m)
			if err != nil {
				t.Fatalf("view of %d does not decode: %v", viewer, err)
			}
			if v.Score() != s.Score() {
				t.Fatalf("a view scores differently")
			}
			p, err := Spec.Decode(&rulebookv1.GameState{Game: &rulebookv1.GameState_UbongoDuel{UbongoDuel: m}})
			if err != nil {
				t.Fatalf("view of %d does not decode as a position: %v", viewer, err)
			}
			_, err = p.Legal(0)
			enginetest.WantError(t, err, engine.Invalid, ReasonStateIsView, "state.ubongoDuel.isView")
			_, _, err = p.Apply(Move{Player: 1, Action: GiveUp}.Proto())
			enginetest.WantError(t, err, engine.Invalid, ReasonStateIsView, "state.ubongoDuel.isView")
			if p.Score().GetUbongoDuel().GetSheet() != s.Score().Proto().GetUbongoDuel().GetSheet() {
				t.Fatalf("a view's position scores differently")
			}
		}
		moves := playable(s)
		s, _ = apply(t, s, moves[(ply*7)%len(moves)])
	}
	if s.View(7).Viewer() != engine.NoPlayer {
		t.Error("a non-player does not get the spectator's view")
	}
}

// TestEventsHideTheDie checks along seeded games that the events of a move never hold the die's state, before or
// after the move (a roll's faces are public; the generator's key and position that made them are not): neither the
// die's encoding nor its 32-byte key appears in an event's wire form or text, and that the engine.Game adapter shows
// every viewer the events as they are.
func TestEventsHideTheDie(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		s := newGame(t, Options{CatchUp: true}, seed)
		for ply := 0; !s.Over() && ply < 200; ply++ {
			moves := playable(s)
			p, err := Spec.Decode(wrap(s))
			if err != nil {
				t.Fatal(err)
			}
			nextPosition, events, err := p.Apply(moves[(ply*7)%len(moves)].Proto())
			if err != nil {
				t.Fatal(err)
			}
			next, err := FromProto(nextPosition.Encode().GetUbongoDuel())
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range events {
				text := prototext.Format(e)
				wire, err := proto.Marshal(e)
				if err != nil {
					t.Fatal(err)
				}
				for _, die := range [][]byte{s.die, next.die} {
					key := die[16:]
					if bytes.Contains(wire, key) || strings.Contains(text, string(key)) ||
						strings.Contains(text, fmt.Sprintf("%q", key)) || strings.Contains(text, hex.EncodeToString(key)) {
						t.Fatalf("seed %d, ply %d: event %s holds the die's state %x", seed, ply, text, die)
					}
				}
			}
			for viewer := engine.Player(0); viewer <= Players; viewer++ {
				if got := p.ViewEvents(events, viewer); !slices.Equal(got, events) {
					t.Fatalf("viewer %d sees %v of %v", viewer, got, events)
				}
			}
			s = next
		}
	}
}

// TestGameAdapter drives a game through the envelopes: info, options, errors placed under the request's fields.
func TestGameAdapter(t *testing.T) {
	g := Game{}
	info := g.Info()
	if info.GetId() != "ubongo-duel" || info.GetName() != "Ubongo Duel" || info.GetMaxPlayers() != 2 ||
		info.GetInformation() != rulebookv1.Information_INFORMATION_HIDDEN || !info.GetChance() ||
		info.GetRulesDocument() != "docs/rules/ubongo-duel.md" || len(info.GetOptions()) != 3 {
		t.Fatalf("info %v", info)
	}
	_, err := g.New(&rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_UbongoDuel{
		UbongoDuel: &rulebookv1.UbongoDuelOptions{TieWindowMs: 99999}}}, 1)
	enginetest.WantError(t, err, engine.Invalid, ReasonOptionOutOfRange, "options.ubongoDuel.tieWindowMs")
	_, err = g.New(&rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{}}, 1)
	enginetest.WantError(t, err, engine.Invalid, ReasonGameMismatch, "options")
	st, err := g.New(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	typed, _ := FromProto(st.Encode().GetUbongoDuel())
	bad := mustWitness(t, typed, 1, 5)
	bad.Placements = append(bad.Placements[:1:1], Placement{Piece: "?"})
	err = st.Validate(bad.Proto())
	enginetest.WantError(t, err, engine.Invalid, ReasonPieceUnknown, "move.ubongoDuel.submit.placements[1].piece")
	next, events, err := st.Apply(mustWitness(t, typed, 2, 5).Proto())
	if err != nil || len(events) != 3 {
		t.Fatalf("apply: %v, %d events", err, len(events))
	}
	if sc := next.Score(); sc.GetStandings()[1].GetPoints() != 1 || sc.GetUbongoDuel().GetSheet() != 2 {
		t.Fatalf("score %v", sc)
	}
	legal, err := next.Legal(0)
	if err != nil || len(legal) != 2 {
		t.Fatalf("legal %v, %v", legal, err)
	}
	_, err = next.Legal(3)
	enginetest.WantError(t, err, engine.Invalid, ReasonPlayerOutOfRange, "player")
	_, err = next.View(3)
	enginetest.WantError(t, err, engine.Invalid, ReasonPlayerOutOfRange, "viewer")
	view, err := next.View(1)
	if err != nil || len(view.Encode().GetUbongoDuel().GetDie()) != 0 ||
		len(next.Encode().GetUbongoDuel().GetDie()) != dieStateLen {
		t.Fatalf("view %v, %v", view, err)
	}
}
