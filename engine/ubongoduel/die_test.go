package ubongoduel

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/enginetest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestDieDerivation pins the documented derivation of the die from a game's seed: ChaCha8 keyed with
// SHA-256("rulebook ubongo-duel die v2" || seed as 8 bytes little-endian), in its 48-byte MarshalBinary encoding.
// The key of seed 1 was computed outside Go:
// printf 'rulebook ubongo-duel die v2\x01\x00\x00\x00\x00\x00\x00\x00' | sha256sum
func TestDieDerivation(t *testing.T) {
	const seed1 = "636861636861383a" + "0000000000000000" +
		"4414025920b08a7e471613cdfcd32a2651cc1beb20667655a16c828d9f1fda5b"
	if got := hex.EncodeToString(newDie(1)); got != seed1 {
		t.Errorf("the die of seed 1 is %s, want %s", got, seed1)
	}
	for _, seed := range []uint64{0, 1, 0x0102030405060708, 1<<64 - 1} {
		msg := append([]byte("rulebook ubongo-duel die v2"), 0, 0, 0, 0, 0, 0, 0, 0)
		binary.LittleEndian.PutUint64(msg[len(msg)-8:], seed)
		key := sha256.Sum256(msg)
		die := newDie(seed)
		if len(die) != dieStateLen || string(die[:8]) != "chacha8:" || binary.BigEndian.Uint64(die[8:16]) != 0 ||
			!bytes.Equal(die[16:], key[:]) {
			t.Errorf("seed %d: die %x, want the key %x unused", seed, die, key)
		}
		want := rand.NewChaCha8(key)
		_, faces := rollDie(die, 50)
		for i, f := range faces {
			z := want.Uint64()
			for z >= rollLimit {
				z = want.Uint64()
			}
			if f != int(z%Faces)+1 {
				t.Fatalf("seed %d, roll %d: face %d, want %d", seed, i, f, z%Faces+1)
			}
		}
	}
}

// TestDieFacesPinned pins the first faces of a few seeds. They follow from the derivation, ChaCha8 (whose output
// C2SP specifies) and the way a face is drawn; a change to any of them changes every game of a seed and needs a new
// rules version.
func TestDieFacesPinned(t *testing.T) {
	var first []int
	for seed := range uint64(10) {
		first = append(first, newGame(t, DefaultOptions(), seed).Faces()[0])
	}
	if want := []int{15, 4, 9, 17, 5, 18, 7, 9, 20, 20}; !slices.Equal(first, want) {
		t.Errorf("first faces of seeds 0 to 9: %v, want %v", first, want)
	}
	if _, faces := rollDie(newDie(1), 12); !slices.Equal(faces, []int{4, 18, 4, 14, 7, 9, 13, 5, 2, 12, 11, 15}) {
		t.Errorf("12 rolls of seed 1: %v", faces)
	}
}

// TestDieRoundTrip checks that a die kept in the state between rolls rolls exactly as one generator rolling on, also
// across ChaCha8's re-keys (every 124 words), and that every state it passes through is one checkDie accepts.
func TestDieRoundTrip(t *testing.T) {
	for _, seed := range []uint64{1, 2, 99} {
		die := newDie(seed)
		_, all := rollDie(die, 400)
		var one []int
		for range 400 {
			var f []int
			die, f = rollDie(die, 1)
			if err := checkDie(die); err != nil {
				t.Fatalf("seed %d: after %d rolls the die %x does not decode", seed, len(one), die)
			}
			one = append(one, f...)
		}
		if !slices.Equal(all, one) {
			t.Fatalf("seed %d: rolling one at a time gives other faces", seed)
		}
	}
	for used := range uint64(125) {
		if err := checkDie(dieAtWord(newDie(3), used)); err != nil {
			t.Errorf("a die at word %d is refused", used)
		}
	}
}

// TestRulesVersion1 checks that a state of rules version 1, as that release wrote it (the splitmix64 word in field
// 4, no die), is refused with RULES_VERSION_UNSUPPORTED and a message that says why and what to do, over the typed
// decoder and the engine.Game adapter; that the same message claiming version 0 is refused for its missing die; and
// that Info reports version 2.
func TestRulesVersion1(t *testing.T) {
	if RulesVersion != 2 || (Game{}).Info().GetRulesVersion() != 2 {
		t.Fatalf("rules version %d, info %d", RulesVersion, (Game{}).Info().GetRulesVersion())
	}
	m := newGame(t, DefaultOptions(), 7).Proto()
	m.RulesVersion, m.Die = 1, nil
	wire, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	wire = protowire.AppendVarint(protowire.AppendTag(wire, 4, protowire.VarintType), 0x9e3779b97f4a7c15)
	var old rulebookv1.UbongoDuelState
	if err := proto.Unmarshal(wire, &old); err != nil {
		t.Fatal(err)
	}
	_, err = FromProto(&old)
	enginetest.WantError(t, err, engine.Invalid, ReasonRulesVersionUnsupported, "rulesVersion")
	if e, _ := engine.AsError(err); !strings.Contains(e.Message, "rules version 1") ||
		!strings.Contains(e.Message, "new game") || e.Facts["supported"] != "2" {
		t.Errorf("message %q, facts %v", e.Message, e.Facts)
	}
	env := &rulebookv1.GameState{Game: &rulebookv1.GameState_UbongoDuel{UbongoDuel: &old}}
	_, err = Spec.Decode(env)
	enginetest.WantError(t, err, engine.Invalid, ReasonRulesVersionUnsupported, "state.ubongoDuel.rulesVersion")

	old.RulesVersion = 0
	_, err = FromProto(&old)
	enginetest.WantError(t, err, engine.Invalid, ReasonDieStateInvalid, "die")
}
