package seal

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"
)

// tokenForm is the token format, with the key id and the sealed part as groups.
var tokenForm = regexp.MustCompile(`^[vp][12]\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)$`)

// decodeToken splits a token into its key id and its decoded sealed part.
func decodeToken(t testing.TB, token string) (id string, sealed []byte) {
	t.Helper()
	m := tokenForm.FindStringSubmatch(token)
	if m == nil {
		t.Fatalf("token %.40q... is not in the token format", token)
	}
	sealed, err := tokenEncoding.DecodeString(m[2])
	if err != nil {
		t.Fatal(err)
	}
	return m[1], sealed
}

// encodeToken is the inverse of decodeToken, for a token of the current format and ScopeSealed.
func encodeToken(id string, sealed []byte) string {
	return "v2." + id + "." + tokenEncoding.EncodeToString(sealed)
}

// sealTest seals state for game at table in the current format, of ScopeSealed and rules version 1.
func sealTest(t testing.TB, r *Keyring, game string, table Table, state []byte) string {
	t.Helper()
	token, err := r.Seal(game, Contents{RulesVersion: 1, Table: table, State: state})
	if err != nil {
		t.Fatal(err)
	}
	return token
}

func TestSealOpen(t *testing.T) {
	long := make([]byte, 2048)
	seeded(7).Read(long)
	tests := []struct {
		name  string
		game  string
		state []byte
	}{
		{"empty state", "micropul", nil},
		{"one byte", "exploze", []byte{0}},
		{"text", "kipicot", []byte("state")},
		{"2 KiB", "ubongoduel", long},
		{"largest", "micropul", bytes.Repeat([]byte{0xff}, MaxStateBytes)},
		{"empty game", "", []byte("state")},
		{"game with a NUL", "a\x00b", []byte("state")},
	}
	r := testRing(t, strings.Repeat("k", MaxKeyIDLen), "old")
	for _, tt := range tests {
		for _, format := range []Format{Format1, Format2} {
			for _, scope := range []Scope{ScopeSealed, ScopePlain} {
				t.Run(fmt.Sprintf("%s/format %d/scope %d", tt.name, format, scope), func(t *testing.T) {
					in := Contents{Format: format, Scope: scope, RulesVersion: 0xfedcba98, Table: testTable(tt.name), State: tt.state}
					token, err := r.Seal(tt.game, in)
					if err != nil {
						t.Fatal(err)
					}
					if len(token) > MaxTokenBytes || format == CurrentFormat && len(tt.state) == MaxStateBytes && len(token) != MaxTokenBytes {
						t.Errorf("token of %d bytes; MaxTokenBytes is %d, the bound for the largest state", len(token), MaxTokenBytes)
					}
					wantSealed := nonceSize + headerSize(format) + len(tt.state) + tagSize
					if id, sealed := decodeToken(t, token); id != r.SealingKeyID() || len(sealed) != wantSealed {
						t.Errorf("token of key %q with %d sealed bytes, want key %q and %d", id, len(sealed), r.SealingKeyID(), wantSealed)
					}
					got, err := r.Open(tt.game, token, ScopePlain)
					if err != nil {
						t.Fatal(err)
					}
					want := in
					if format == Format1 {
						want.RulesVersion = 0 // not in the format
					}
					if got.Format != want.Format || got.Scope != want.Scope || got.RulesVersion != want.RulesVersion ||
						got.Table != want.Table || !bytes.Equal(got.State, want.State) {
						t.Errorf("Open gave format %d, scope %d, rules version %d, another table or state (%d bytes); want %d, %d, %d, %d bytes",
							got.Format, got.Scope, got.RulesVersion, len(got.State), want.Format, want.Scope, want.RulesVersion, len(want.State))
					}
					if cap(got.State) != len(got.State) {
						t.Errorf("the state has room past its end (cap %d, len %d)", cap(got.State), len(got.State))
					}
					again, err := r.Seal(tt.game, in)
					if err != nil || again == token {
						t.Errorf("sealing twice gave the same token (nonces are not random): %v", err)
					}
				})
			}
		}
	}
}

// TestSealCurrentFormat checks that Seal seals the current format when told no format.
func TestSealCurrentFormat(t *testing.T) {
	token := sealTest(t, testRing(t, "k1"), "micropul", testTable("t"), []byte("state"))
	if !strings.HasPrefix(token, "v2.") {
		t.Errorf("token %.10q..., want the prefix v2.", token)
	}
}

func TestSealRefuses(t *testing.T) {
	r := testRing(t, "k1")
	_, err := r.Seal("micropul", Contents{Table: testTable("t"), State: make([]byte, MaxStateBytes+1)})
	if reasonOf(t, err) != ReasonStateTooLarge {
		t.Errorf("state of MaxStateBytes+1: %v", err)
	}
	for _, c := range []Contents{
		{State: []byte("state")}, // the zero Table
		{Format: 3, Table: testTable("t")},
		{Scope: 2, Table: testTable("t")},
	} {
		if token, err := r.Seal("micropul", c); err == nil || Reason(err) != "" {
			t.Errorf("sealing format %d, scope %d, zero table %v: %q %v, want an error of the sealer", c.Format, c.Scope,
				c.Table.zero(), token, err)
		}
	}
	if _, err := new(Keyring).Seal("micropul", Contents{Table: testTable("t")}); err == nil {
		t.Error("sealing with the zero Keyring succeeded")
	}
	if _, err := new(Keyring).Open("micropul", "v2.k1."+strings.Repeat("A", 104), ScopeSealed); reasonOf(t, err) != ReasonTokenUnknownKey {
		t.Errorf("opening with the zero Keyring: %v", err)
	}
}

func TestOpenAfterRotation(t *testing.T) {
	old := testRing(t, "old")
	table := testTable("t")
	token := sealTest(t, old, "micropul", table, []byte("state"))
	rotated := testRing(t, "new", "old")
	c, err := rotated.Open("micropul", token, ScopeSealed)
	if err != nil || c.Table != table || string(c.State) != "state" {
		t.Fatalf("a token of the old key after rotation: %v", err)
	}
	fresh := sealTest(t, rotated, "micropul", table, []byte("state"))
	if id, _ := decodeToken(t, fresh); id != "new" {
		t.Errorf("the rotated ring seals under %q, want new", id)
	}
	retired := testRing(t, "new")
	if _, err := retired.Open("micropul", token, ScopeSealed); reasonOf(t, err) != ReasonTokenUnknownKey {
		t.Errorf("a token of a retired key: %v, want %s", err, ReasonTokenUnknownKey)
	}
	// A key with the same id but another secret (another service, a lost key file) never opens it.
	other, err := NewKeyring(Key{ID: "old", Secret: testKey("other").Secret})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Open("micropul", token, ScopeSealed); reasonOf(t, err) != ReasonTokenInvalid {
		t.Errorf("a token under another key of the same id: %v, want %s", err, ReasonTokenInvalid)
	}
}

// mustReject checks that opening token fails with one of the reasons, and returns the reason.
func mustReject(t *testing.T, r *Keyring, game, token, what string, reasons ...string) string {
	t.Helper()
	c, err := r.Open(game, token, ScopeSealed)
	if err == nil {
		t.Fatalf("%s: opened (state %d bytes)", what, len(c.State))
	}
	if !reflect.ValueOf(c).IsZero() {
		t.Fatalf("%s: refused, but contents came with the error", what)
	}
	reason := reasonOf(t, err)
	for _, want := range reasons {
		if reason == want {
			return reason
		}
	}
	t.Fatalf("%s: %s, want one of %v", what, reason, reasons)
	return ""
}

func TestOpenTamperedBits(t *testing.T) {
	r := testRing(t, "k1", "k2")
	for _, size := range []int{0, 40, 2048} {
		t.Run(fmt.Sprintf("state of %d bytes", size), func(t *testing.T) {
			state := make([]byte, size)
			seeded(uint64(size)).Read(state)
			token := sealTest(t, r, "micropul", testTable("t"), state)
			id, sealed := decodeToken(t, token)
			rng := rand.New(rand.NewPCG(1, uint64(size)))

			// Bits of the decoded bytes: every one, or a seeded sample of 2000 for long tokens.
			bits := make([]int, 0, len(sealed)*8)
			for i := range len(sealed) * 8 {
				bits = append(bits, i)
			}
			if len(bits) > 4000 {
				rng.Shuffle(len(bits), func(i, j int) { bits[i], bits[j] = bits[j], bits[i] })
				bits = append(bits[:2000], 0, len(bits)-1) // and the first and last bits
			}
			for _, bit := range bits {
				altered := bytes.Clone(sealed)
				altered[bit/8] ^= 1 << (bit % 8)
				mustReject(t, r, "micropul", encodeToken(id, altered), fmt.Sprintf("bit %d flipped", bit), ReasonTokenInvalid)
			}

			// Bits of the characters of the text: every one, or a seeded sample of 2000 for long tokens. An edited key
			// id may name a key the ring does not hold, and an edited prefix a format it does not know.
			chars := make([]int, 0, len(token)*8)
			for i := range len(token) * 8 {
				chars = append(chars, i)
			}
			if len(chars) > 4000 {
				rng.Shuffle(len(chars), func(i, j int) { chars[i], chars[j] = chars[j], chars[i] })
				chars = append(chars[:2000], 0, len(chars)-1)
			}
			for _, bit := range chars {
				altered := []byte(token)
				altered[bit/8] ^= 1 << (bit % 8)
				mustReject(t, r, "micropul", string(altered), fmt.Sprintf("bit %d of the text flipped", bit),
					ReasonTokenInvalid, ReasonTokenMalformed, ReasonTokenUnknownKey, ReasonTokenVersionUnsupported)
			}

			// Every other character of the alphabet in a sample of positions of the sealed part.
			const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
			start := len("v2.") + len(id) + 1
			for range 64 {
				pos := start + rng.IntN(len(token)-start)
				for _, c := range []byte(alphabet) {
					if c == token[pos] {
						continue
					}
					altered := []byte(token)
					altered[pos] = c
					mustReject(t, r, "micropul", string(altered), fmt.Sprintf("character %d set to %c", pos, c),
						ReasonTokenInvalid, ReasonTokenMalformed)
				}
			}
		})
	}
}

func TestOpenCutOrExtended(t *testing.T) {
	r := testRing(t, "k1")
	token := sealTest(t, r, "micropul", testTable("t"), []byte("a small state of a game"))
	id, sealed := decodeToken(t, token)
	for n := range len(token) {
		mustReject(t, r, "micropul", token[:n], fmt.Sprintf("text cut to %d", n),
			ReasonTokenInvalid, ReasonTokenMalformed, ReasonTokenUnknownKey)
	}
	for n := range len(sealed) {
		mustReject(t, r, "micropul", encodeToken(id, sealed[:n]), fmt.Sprintf("sealed bytes cut to %d", n),
			ReasonTokenInvalid, ReasonTokenMalformed)
	}
	for _, suffix := range []string{"A", "AA", "AAA", "AAAA", "=", "==", ".", "\n", "\r\n", " ", "\x00", ".AAAA", "é"} {
		mustReject(t, r, "micropul", token+suffix, fmt.Sprintf("text + %q", suffix), ReasonTokenInvalid, ReasonTokenMalformed)
		mustReject(t, r, "micropul", suffix+token, fmt.Sprintf("%q + text", suffix), ReasonTokenMalformed)
	}
	for _, suffix := range [][]byte{{0}, {1, 2, 3}, make([]byte, 16), sealed} {
		mustReject(t, r, "micropul", encodeToken(id, append(bytes.Clone(sealed), suffix...)),
			fmt.Sprintf("sealed bytes + %d bytes", len(suffix)), ReasonTokenInvalid)
	}
	// Only one line break inside, which base64 decoders skip.
	mustReject(t, r, "micropul", token[:20]+"\n"+token[20:], "a line break inside", ReasonTokenMalformed)
}

func TestOpenOtherGameOrKey(t *testing.T) {
	r := testRing(t, "k1", "k2")
	table := testTable("t")
	token := sealTest(t, r, "micropul", table, []byte("state"))
	for _, game := range []string{"exploze", "", "Micropul", "micropul ", "micropul\x00", "micropul\x00k1", "micro"} {
		mustReject(t, r, game, token, "opened as "+game, ReasonTokenInvalid)
	}
	exploze := sealTest(t, r, "exploze", table, []byte("state"))
	mustReject(t, r, "micropul", exploze, "an exploze token as micropul", ReasonTokenInvalid)

	_, sealed := decodeToken(t, token)
	mustReject(t, r, "micropul", encodeToken("k2", sealed), "key id edited to another key of the ring", ReasonTokenInvalid)
	mustReject(t, r, "micropul", encodeToken("k3", sealed), "key id edited to an unknown key", ReasonTokenUnknownKey)
}

func TestOpenMalformed(t *testing.T) {
	r := testRing(t, "k1")
	good := sealTest(t, r, "micropul", testTable("t"), nil)
	_, sealed := decodeToken(t, good)
	payload := tokenEncoding.EncodeToString(sealed)
	short := tokenEncoding.EncodeToString(sealed[:len(sealed)-1])
	tests := []struct {
		name, token string
	}{
		{"empty", ""},
		{"prefix only", "v2."},
		{"no payload", "v2.k1"},
		{"empty payload", "v2.k1."},
		{"upper-case version", "V2.k1." + payload},
		{"no version", payload},
		{"version without a letter", "2.k1." + payload},
		{"version without a number", "v.k1." + payload},
		{"version of two letters", "vv2.k1." + payload},
		{"version too long", "v2000.k1." + payload},
		{"empty key id", "v2.." + payload},
		{"key id too long", "v2." + strings.Repeat("k", MaxKeyIDLen+1) + "." + payload},
		{"key id with a bad character", "v2.k!." + payload},
		{"key id with a space", "v2.k 1." + payload},
		{"padded", "v2.k1." + tokenEncoding.WithPadding('=').EncodeToString(sealed) + "="},
		{"standard alphabet", "v2.k1." + strings.NewReplacer("-", "+", "_", "/").Replace(payload) + "+/"},
		{"a dot in the payload", "v2.k1." + payload[:10] + "." + payload[10:]},
		{"too short for nonce, table and tag", "v2.k1." + short},
		{"length impossible in base64", "v2.k1." + payload + strings.Repeat("A", (5-len(payload)%4)%4)},
		{"spaces around", " " + good + " "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mustReject(t, r, "micropul", tt.token, tt.name, ReasonTokenMalformed)
		})
	}
	// The same well-formed token under an unknown key is not malformed.
	mustReject(t, r, "micropul", "v2.k9."+payload, "unknown key", ReasonTokenUnknownKey)
}

// TestOpenOtherFormat checks that a token whose prefix names a format the build does not know, such as a newer
// build's, is refused as of an unsupported version whatever follows the prefix, and that a token relabelled with
// another known format fails authentication.
func TestOpenOtherFormat(t *testing.T) {
	r := testRing(t, "k1")
	format2 := sealTest(t, r, "micropul", testTable("t"), []byte("state"))
	format1, err := r.Seal("micropul", Contents{Format: Format1, Table: testTable("t"), State: []byte("state")})
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(format2, ".")
	for _, token := range []string{"v3." + rest, "p3." + rest, "x9.", "v10.k1.AAAA", "v999.anything at all", "k1." + rest, "a0." + rest} {
		mustReject(t, r, "micropul", token, token, ReasonTokenVersionUnsupported)
	}
	_, rest1, _ := strings.Cut(format1, ".")
	mustReject(t, r, "micropul", "v2."+rest1, "format 1 relabelled 2", ReasonTokenInvalid)
	mustReject(t, r, "micropul", "v1."+rest, "format 2 relabelled 1", ReasonTokenInvalid)
}

func TestOpenTooLarge(t *testing.T) {
	r := testRing(t, "k1")
	huge := "v2.k1." + strings.Repeat("A", MaxTokenBytes)
	mustReject(t, r, "micropul", huge, "a token over MaxTokenBytes", ReasonTokenTooLarge)
	junk := strings.Repeat("!", MaxTokenBytes+1) // not even the format: refused on length alone
	mustReject(t, r, "micropul", junk, "junk over MaxTokenBytes", ReasonTokenTooLarge)
	// Refused without being read: nothing is allocated but the error.
	if allocs := testing.AllocsPerRun(10, func() { r.Open("micropul", huge, ScopeSealed) }); allocs > 1 {
		t.Errorf("refusing an oversized token allocated %v times", allocs)
	}
	// A token of exactly MaxTokenBytes is read (and here fails authentication).
	exact := "v2.k1." + strings.Repeat("A", MaxTokenBytes-len("v2.k1.")-1) + "A"
	mustReject(t, r, "micropul", exact, "a token of MaxTokenBytes", ReasonTokenInvalid)
}

// TestConcurrentUse seals and opens from many goroutines on one keyring (run with -race).
func TestConcurrentUse(t *testing.T) {
	r := testRing(t, "k1", "k2")
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			table := testTable(fmt.Sprint(g))
			for i := range 50 {
				state := []byte(fmt.Sprintf("state %d of %d", i, g))
				token, err := r.Seal("micropul", Contents{Table: table, State: state})
				if err != nil {
					t.Error(err)
					return
				}
				c, err := r.Open("micropul", token, ScopeSealed)
				if err != nil || c.Table != table || !bytes.Equal(c.State, state) {
					t.Errorf("round trip in goroutine %d: %v", g, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzOpen opens arbitrary tokens for arbitrary games against a fixed keyring: Open never panics, refuses with a
// token reason, and opens nothing but tokens Seal made, in either format and scope, with what Seal sealed (made here
// once, with deterministic nonces, so that inputs kept from earlier runs mean the same).
func FuzzOpen(f *testing.F) {
	r := testRing(f, "k1", "k2")
	rotated := testRing(f, "k2", "k1")
	sealed := make(map[string]Contents) // by game + "\x00" + token
	nonces := seeded(42)
	for _, ring := range []*Keyring{r, rotated} {
		for _, game := range []string{"micropul", "exploze", ""} {
			for _, state := range [][]byte{nil, []byte("state"), bytes.Repeat([]byte{1, 2, 3}, 100)} {
				for _, format := range []Format{Format1, Format2} {
					for _, scope := range []Scope{ScopeSealed, ScopePlain} {
						c := Contents{Format: format, Scope: scope, Table: testTable(game), State: state}
						if format == Format2 {
							c.RulesVersion = uint32(len(state))
						}
						token, err := ring.seal(game, c, nonces)
						if err != nil {
							f.Fatal(err)
						}
						sealed[game+"\x00"+token] = c
						f.Add(game, token)
						f.Add(game, token[:len(token)-1])
						f.Add("other", token)
					}
				}
			}
		}
	}
	for _, token := range []string{"", "v1.", "v1.k1.", "v1.k1.AAAA", "v1.k3." + strings.Repeat("A", 96), "v2.k1.AAAA",
		"v3.k1.AAAA", "x9.", "p10.", "V2.k1.AAAA"} {
		f.Add("micropul", token)
	}
	f.Fuzz(func(t *testing.T, game, token string) {
		c, err := r.Open(game, token, ScopePlain)
		if err != nil {
			switch reason := reasonOf(t, err); reason {
			case ReasonTokenMalformed, ReasonTokenTooLarge, ReasonTokenUnknownKey, ReasonTokenInvalid, ReasonTokenVersionUnsupported:
			default:
				t.Fatalf("reason %s", reason)
			}
			if !reflect.ValueOf(c).IsZero() {
				t.Fatal("a refusal came with contents")
			}
			return
		}
		want, ok := sealed[game+"\x00"+token]
		if !ok {
			t.Fatalf("opened a token Seal never made for %q: %q", game, token)
		}
		if c.Format != want.Format || c.Scope != want.Scope || c.RulesVersion != want.RulesVersion || c.Table != want.Table ||
			!bytes.Equal(c.State, want.State) {
			t.Fatalf("opened %q with other contents than it was sealed with", token)
		}
		if _, err := r.Open(game, token, ScopeSealed); (c.Scope == ScopePlain) != (Reason(err) == ReasonTokenScope) {
			t.Fatalf("a token of scope %d opened for the sealed scope only: %v", c.Scope, err)
		}
	})
}

// TestTokenSpec builds a token of each format from its definition, with chacha20poly1305 directly, and checks that
// Seal makes the same token from the same nonce and that Open opens it; then pins each token so that no format can
// change by accident. The token of Format1 is the one the builds before Format2 made.
func TestTokenSpec(t *testing.T) {
	key := testKey("k1")
	table := testTable("t")
	state := []byte("the state")
	nonce := make([]byte, 24)
	for i := range nonce {
		nonce[i] = byte(100 + i)
	}
	aead, err := chacha20poly1305.NewX(key.Secret[:])
	if err != nil {
		t.Fatal(err)
	}
	// Computed outside Go as well: HChaCha20 subkey, then IETF ChaCha20-Poly1305 (Python's cryptography package).
	tests := []struct {
		format       Format
		rulesVersion uint32
		plain        []byte
		ad, pinned   string
	}{
		{Format1, 0, slices.Concat(table[:], state), "rulebook token v1\x00micropul\x00k1",
			"v1.k1.ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7OG-JIozTuk5qICD6YwOFWX9R7xsbc3muxe9DbRHCUQ9OBwoDpAV6ZQsLDO_yRAdt80JUg0CT7wD6"},
		{Format2, 0x01020304, slices.Concat(table[:], []byte{1, 2, 3, 4}, state), "rulebook token v2\x00micropul\x00k1",
			"v2.k1.ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7OG-JIozTuk5qICD6YwOFWX9R7xsbc3muxe9DbRHCUQ87bWwnoxl-MR1xqltHfOJFx26hXjLS_PPB0P09Vw"},
	}
	r := testRing(t, "k1")
	for _, tt := range tests {
		ciphertext := aead.Seal(nil, nonce, tt.plain, []byte(tt.ad))
		want := fmt.Sprintf("v%d.k1.", tt.format) + base64.RawURLEncoding.EncodeToString(append(bytes.Clone(nonce), ciphertext...))
		got, err := r.seal("micropul", Contents{Format: tt.format, RulesVersion: tt.rulesVersion, Table: table, State: state},
			bytes.NewReader(nonce))
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("Seal = %q,\nformat %d gives %q", got, tt.format, want)
		}
		c, err := r.Open("micropul", want, ScopeSealed)
		if err != nil || c.Format != tt.format || c.RulesVersion != tt.rulesVersion || c.Table != table || !bytes.Equal(c.State, state) {
			t.Errorf("Open of a token made from format %d: %+v, %v", tt.format, c, err)
		}
		if want != tt.pinned {
			t.Errorf("the token of format %d of the fixed key, table, state and nonce is %q, was %q", tt.format, want, tt.pinned)
		}
	}
}

// TestScope checks, in each format, that a token of ScopePlain opens only where plain-scoped tokens are accepted,
// that a token of ScopeSealed opens everywhere, and that a token's scope cannot be changed by rewriting its prefix.
func TestScope(t *testing.T) {
	r := testRing(t, "k")
	table := testTable("t")
	for _, format := range []Format{Format1, Format2} {
		seal := func(scope Scope, state string) string {
			token, err := r.Seal("micropul", Contents{Format: format, Scope: scope, Table: table, State: []byte(state)})
			if err != nil {
				t.Fatal(err)
			}
			return token
		}
		plain, sealed := seal(ScopePlain, "chosen board"), seal(ScopeSealed, "drawn board")
		plainPrefix, sealedPrefix := fmt.Sprintf("p%d.", format), fmt.Sprintf("v%d.", format)
		if !strings.HasPrefix(plain, plainPrefix) || !strings.HasPrefix(sealed, sealedPrefix) {
			t.Fatalf("tokens %.10q and %.10q: want the prefixes %q and %q", plain, sealed, plainPrefix, sealedPrefix)
		}
		for _, tt := range []struct {
			name   string
			token  string
			accept Scope
			want   string // the reason, "" for a token that opens
		}{
			{"plain where plain is accepted", plain, ScopePlain, ""},
			{"plain where only sealed is accepted", plain, ScopeSealed, ReasonTokenScope},
			{"sealed where plain is accepted", sealed, ScopePlain, ""},
			{"sealed where only sealed is accepted", sealed, ScopeSealed, ""},
			{"plain relabelled sealed", sealedPrefix + strings.TrimPrefix(plain, plainPrefix), ScopePlain, ReasonTokenInvalid},
			{"sealed relabelled plain", plainPrefix + strings.TrimPrefix(sealed, sealedPrefix), ScopePlain, ReasonTokenInvalid},
		} {
			t.Run(fmt.Sprintf("format %d/%s", format, tt.name), func(t *testing.T) {
				c, err := r.Open("micropul", tt.token, tt.accept)
				if got := Reason(err); got != tt.want || (tt.want == "") != (err == nil) {
					t.Errorf("Open: %v, want reason %q", err, tt.want)
				}
				if err == nil && (c.Format != format || (c.Scope == ScopePlain) != strings.HasPrefix(tt.token, "p")) {
					t.Errorf("Open: format %d, scope %d", c.Format, c.Scope)
				}
			})
		}
	}
}
