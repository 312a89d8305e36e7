package seal

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"
)

// tokenForm is the token format, with the key id and the sealed part as groups.
var tokenForm = regexp.MustCompile(`^v1\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)$`)

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

// encodeToken is the inverse of decodeToken.
func encodeToken(id string, sealed []byte) string {
	return tokenPrefix + id + "." + tokenEncoding.EncodeToString(sealed)
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
		t.Run(tt.name, func(t *testing.T) {
			table := testTable(tt.name)
			token, err := r.Seal(tt.game, table, tt.state)
			if err != nil {
				t.Fatal(err)
			}
			if len(token) > MaxTokenBytes || len(tt.state) == MaxStateBytes && len(token) != MaxTokenBytes {
				t.Errorf("token of %d bytes; MaxTokenBytes is %d, the bound for the largest state", len(token), MaxTokenBytes)
			}
			if id, sealed := decodeToken(t, token); id != r.SealingKeyID() || len(sealed) != minSealedBytes+len(tt.state) {
				t.Errorf("token of key %q with %d sealed bytes, want key %q and %d", id, len(sealed), r.SealingKeyID(),
					minSealedBytes+len(tt.state))
			}
			gotTable, got, err := r.Open(tt.game, token)
			if err != nil {
				t.Fatal(err)
			}
			if gotTable != table || !bytes.Equal(got, tt.state) {
				t.Errorf("Open gave another table or state (%d bytes, want %d)", len(got), len(tt.state))
			}
			if cap(got) != len(got) {
				t.Errorf("the state has room past its end (cap %d, len %d)", cap(got), len(got))
			}
			again, err := r.Seal(tt.game, table, tt.state)
			if err != nil || again == token {
				t.Errorf("sealing twice gave the same token (nonces are not random): %v", err)
			}
		})
	}
}

func TestSealRefuses(t *testing.T) {
	r := testRing(t, "k1")
	_, err := r.Seal("micropul", testTable("t"), make([]byte, MaxStateBytes+1))
	if reasonOf(t, err) != ReasonStateTooLarge {
		t.Errorf("state of MaxStateBytes+1: %v", err)
	}
	if _, err := r.Seal("micropul", Table{}, []byte("state")); err == nil {
		t.Error("sealing the zero Table succeeded")
	}
	if _, err := new(Keyring).Seal("micropul", testTable("t"), nil); err == nil {
		t.Error("sealing with the zero Keyring succeeded")
	}
	if _, _, err := new(Keyring).Open("micropul", "v1.k1."+strings.Repeat("A", 96)); reasonOf(t, err) != ReasonTokenUnknownKey {
		t.Errorf("opening with the zero Keyring: %v", err)
	}
}

func TestOpenAfterRotation(t *testing.T) {
	old := testRing(t, "old")
	table := testTable("t")
	token, err := old.Seal("micropul", table, []byte("state"))
	if err != nil {
		t.Fatal(err)
	}
	rotated := testRing(t, "new", "old")
	gotTable, state, err := rotated.Open("micropul", token)
	if err != nil || gotTable != table || string(state) != "state" {
		t.Fatalf("a token of the old key after rotation: %v", err)
	}
	fresh, err := rotated.Seal("micropul", table, []byte("state"))
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := decodeToken(t, fresh); id != "new" {
		t.Errorf("the rotated ring seals under %q, want new", id)
	}
	retired := testRing(t, "new")
	if _, _, err := retired.Open("micropul", token); reasonOf(t, err) != ReasonTokenUnknownKey {
		t.Errorf("a token of a retired key: %v, want %s", err, ReasonTokenUnknownKey)
	}
	// A key with the same id but another secret (another service, a lost key file) never opens it.
	other, err := NewKeyring(Key{ID: "old", Secret: testKey("other").Secret})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := other.Open("micropul", token); reasonOf(t, err) != ReasonTokenInvalid {
		t.Errorf("a token under another key of the same id: %v, want %s", err, ReasonTokenInvalid)
	}
}

// mustReject checks that opening token fails with one of the reasons, and returns the reason.
func mustReject(t *testing.T, r *Keyring, game, token, what string, reasons ...string) string {
	t.Helper()
	table, state, err := r.Open(game, token)
	if err == nil {
		t.Fatalf("%s: opened (state %d bytes)", what, len(state))
	}
	if table != (Table{}) || state != nil {
		t.Fatalf("%s: refused, but a table or state came with the error", what)
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
			token, err := r.Seal("micropul", testTable("t"), state)
			if err != nil {
				t.Fatal(err)
			}
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
			// id may name a key the ring does not hold.
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
					ReasonTokenInvalid, ReasonTokenMalformed, ReasonTokenUnknownKey)
			}

			// Every other character of the alphabet in a sample of positions of the sealed part.
			const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
			start := len(tokenPrefix) + len(id) + 1
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
	token, err := r.Seal("micropul", testTable("t"), []byte("a small state of a game"))
	if err != nil {
		t.Fatal(err)
	}
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
	token, err := r.Seal("micropul", table, []byte("state"))
	if err != nil {
		t.Fatal(err)
	}
	for _, game := range []string{"exploze", "", "Micropul", "micropul ", "micropul\x00", "micropul\x00k1", "micro"} {
		mustReject(t, r, game, token, "opened as "+game, ReasonTokenInvalid)
	}
	exploze, err := r.Seal("exploze", table, []byte("state"))
	if err != nil {
		t.Fatal(err)
	}
	mustReject(t, r, "micropul", exploze, "an exploze token as micropul", ReasonTokenInvalid)

	_, sealed := decodeToken(t, token)
	mustReject(t, r, "micropul", encodeToken("k2", sealed), "key id edited to another key of the ring", ReasonTokenInvalid)
	mustReject(t, r, "micropul", encodeToken("k3", sealed), "key id edited to an unknown key", ReasonTokenUnknownKey)
}

func TestOpenMalformed(t *testing.T) {
	r := testRing(t, "k1")
	good, err := r.Seal("micropul", testTable("t"), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, sealed := decodeToken(t, good)
	payload := tokenEncoding.EncodeToString(sealed)
	short := tokenEncoding.EncodeToString(sealed[:minSealedBytes-1])
	tests := []struct {
		name, token string
	}{
		{"empty", ""},
		{"prefix only", "v1."},
		{"no payload", "v1.k1"},
		{"empty payload", "v1.k1."},
		{"other version", "v2.k1." + payload},
		{"upper-case version", "V1.k1." + payload},
		{"no version", "k1." + payload},
		{"empty key id", "v1.." + payload},
		{"key id too long", "v1." + strings.Repeat("k", MaxKeyIDLen+1) + "." + payload},
		{"key id with a bad character", "v1.k!." + payload},
		{"key id with a space", "v1.k 1." + payload},
		{"padded", "v1.k1." + tokenEncoding.WithPadding('=').EncodeToString(sealed) + "="},
		{"standard alphabet", "v1.k1." + strings.NewReplacer("-", "+", "_", "/").Replace(payload) + "+/"},
		{"a dot in the payload", "v1.k1." + payload[:10] + "." + payload[10:]},
		{"too short for nonce, table and tag", "v1.k1." + short},
		{"length impossible in base64", "v1.k1." + payload + "A"},
		{"spaces around", " " + good + " "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mustReject(t, r, "micropul", tt.token, tt.name, ReasonTokenMalformed)
		})
	}
	// The same well-formed token under an unknown key is not malformed.
	mustReject(t, r, "micropul", "v1.k9."+payload, "unknown key", ReasonTokenUnknownKey)
}

func TestOpenTooLarge(t *testing.T) {
	r := testRing(t, "k1")
	huge := "v1.k1." + strings.Repeat("A", MaxTokenBytes)
	mustReject(t, r, "micropul", huge, "a token over MaxTokenBytes", ReasonTokenTooLarge)
	junk := strings.Repeat("!", MaxTokenBytes+1) // not even the format: refused on length alone
	mustReject(t, r, "micropul", junk, "junk over MaxTokenBytes", ReasonTokenTooLarge)
	// Refused without being read: nothing is allocated but the error.
	if allocs := testing.AllocsPerRun(10, func() { r.Open("micropul", huge) }); allocs > 1 {
		t.Errorf("refusing an oversized token allocated %v times", allocs)
	}
	// A token of exactly MaxTokenBytes is read (and here fails authentication).
	exact := "v1.k1." + strings.Repeat("A", MaxTokenBytes-len("v1.k1.")-1) + "A"
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
				token, err := r.Seal("micropul", table, state)
				if err != nil {
					t.Error(err)
					return
				}
				gotTable, got, err := r.Open("micropul", token)
				if err != nil || gotTable != table || !bytes.Equal(got, state) {
					t.Errorf("round trip in goroutine %d: %v", g, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzOpen opens arbitrary tokens for arbitrary games against a fixed keyring: Open never panics, refuses with a
// token reason, and opens nothing but tokens Seal made (made here once, with deterministic nonces, so that inputs
// kept from earlier runs mean the same).
func FuzzOpen(f *testing.F) {
	r := testRing(f, "k1", "k2")
	rotated := testRing(f, "k2", "k1")
	type opened struct {
		table Table
		state []byte
	}
	sealed := make(map[string]opened) // by game + "\x00" + token
	nonces := seeded(42)
	for _, ring := range []*Keyring{r, rotated} {
		for _, game := range []string{"micropul", "exploze", ""} {
			for _, state := range [][]byte{nil, []byte("state"), bytes.Repeat([]byte{1, 2, 3}, 100)} {
				table := testTable(game)
				token, err := ring.seal(ScopeSealed, game, table, state, nonces)
				if err != nil {
					f.Fatal(err)
				}
				sealed[game+"\x00"+token] = opened{table, state}
				f.Add(game, token)
				f.Add(game, token[:len(token)-1])
				f.Add("other", token)
			}
		}
	}
	for _, token := range []string{"", "v1.", "v1.k1.", "v1.k1.AAAA", "v1.k3." + strings.Repeat("A", 96), "v2.k1.AAAA"} {
		f.Add("micropul", token)
	}
	f.Fuzz(func(t *testing.T, game, token string) {
		table, state, err := r.Open(game, token)
		if err != nil {
			switch reason := reasonOf(t, err); reason {
			case ReasonTokenMalformed, ReasonTokenTooLarge, ReasonTokenUnknownKey, ReasonTokenInvalid:
			default:
				t.Fatalf("reason %s", reason)
			}
			if table != (Table{}) || state != nil {
				t.Fatal("a refusal came with a table or a state")
			}
			return
		}
		want, ok := sealed[game+"\x00"+token]
		if !ok {
			t.Fatalf("opened a token Seal never made for %q: %q", game, token)
		}
		if table != want.table || !bytes.Equal(state, want.state) {
			t.Fatalf("opened a token with another table or state")
		}
	})
}

// TestTokenSpec builds a token from the format's definition, with chacha20poly1305 directly, and checks that Seal
// makes the same token from the same nonce and that Open opens it; then pins one token so that the format cannot
// change by accident.
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
	plain := append(bytes.Clone(table[:]), state...)
	ciphertext := aead.Seal(nil, nonce, plain, []byte("rulebook token v1\x00micropul\x00k1"))
	want := "v1.k1." + base64.RawURLEncoding.EncodeToString(append(bytes.Clone(nonce), ciphertext...))

	r := testRing(t, "k1")
	got, err := r.seal(ScopeSealed, "micropul", table, state, bytes.NewReader(nonce))
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Seal = %q,\nthe format gives %q", got, want)
	}
	gotTable, gotState, err := r.Open("micropul", want)
	if err != nil || gotTable != table || !bytes.Equal(gotState, state) {
		t.Errorf("Open of a token made from the format: %v", err)
	}

	// Computed outside Go as well: HChaCha20 subkey, then IETF ChaCha20-Poly1305 (Python's cryptography package).
	const pinned = "v1.k1.ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7OG-JIozTuk5qICD6YwOFWX9R7xsbc3muxe9DbRHCUQ9OBwoDpAV6ZQsLDO_yRAdt80JUg0CT7wD6"
	if want != pinned {
		t.Errorf("the token of the fixed key, table, state and nonce is %q, was %q", want, pinned)
	}
}

// TestScope checks that a token of ScopePlain opens only where plain-scoped tokens are accepted, that a token of
// ScopeSealed opens everywhere, and that a token's scope cannot be changed by rewriting its prefix.
func TestScope(t *testing.T) {
	r := testRing(t, "k")
	table := testTable("t")
	plain, err := r.SealScoped(ScopePlain, "micropul", table, []byte("chosen board"))
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := r.SealScoped(ScopeSealed, "micropul", table, []byte("drawn board"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(plain, plainPrefix) || !strings.HasPrefix(sealed, tokenPrefix) {
		t.Fatalf("tokens %.10q and %.10q: want the prefixes %q and %q", plain, sealed, plainPrefix, tokenPrefix)
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
		{"plain relabelled sealed", tokenPrefix + strings.TrimPrefix(plain, plainPrefix), ScopePlain, ReasonTokenInvalid},
		{"sealed relabelled plain", plainPrefix + strings.TrimPrefix(sealed, tokenPrefix), ScopePlain, ReasonTokenInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := r.OpenScoped("micropul", tt.token, tt.accept)
			if got := Reason(err); got != tt.want || (tt.want == "") != (err == nil) {
				t.Errorf("OpenScoped: %v, want reason %q", err, tt.want)
			}
		})
	}
}
