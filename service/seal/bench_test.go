package seal

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"testing"
)

// benchState is the state the benchmarks seal: 2 KiB, about a large game's encoded state.
func benchState() []byte {
	state := make([]byte, 2048)
	seeded(11).Read(state)
	return state
}

func BenchmarkSeal(b *testing.B) {
	r := testRing(b, "k1")
	table, state := testTable("t"), benchState()
	b.SetBytes(int64(len(state)))
	for b.Loop() {
		if _, err := r.Seal("micropul", Contents{RulesVersion: 1, Table: table, State: state}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpen(b *testing.B) {
	r := testRing(b, "k1", "k2")
	table, state := testTable("t"), benchState()
	token := sealTest(b, r, "micropul", table, state)
	b.SetBytes(int64(len(state)))
	for b.Loop() {
		if _, err := r.Open("micropul", token, ScopeSealed); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenRefused is the cost of refusing a forged token of the same size: the work an attacker can cause.
func BenchmarkOpenRefused(b *testing.B) {
	r := testRing(b, "k1")
	token := sealTest(b, r, "micropul", testTable("t"), benchState())
	forged := token[:100] + "A" + token[101:]
	if forged == token {
		forged = token[:100] + "B" + token[101:]
	}
	for b.Loop() {
		if _, err := r.Open("micropul", forged, ScopeSealed); err == nil {
			b.Fatal("opened")
		}
	}
}

// BenchmarkBaselineCopy is the floor Seal and Open are measured against: copying the state and encoding it in
// base64, as any text format of a state would.
func BenchmarkBaselineCopy(b *testing.B) {
	state := benchState()
	b.SetBytes(int64(len(state)))
	for b.Loop() {
		c := bytes.Clone(state)
		_ = base64.RawURLEncoding.EncodeToString(c)
	}
}

// BenchmarkBaselineSHA256 hashes the state once: a keyed MAC alone over it would cost about as much.
func BenchmarkBaselineSHA256(b *testing.B) {
	state := benchState()
	b.SetBytes(int64(len(state)))
	for b.Loop() {
		_ = sha256.Sum256(state)
	}
}

func BenchmarkPass(b *testing.B) {
	table := testTable("t")
	for b.Loop() {
		_ = table.Pass("micropul", 2)
	}
}

func BenchmarkCheckPass(b *testing.B) {
	table := testTable("t")
	pass := table.Pass("micropul", 2)
	for b.Loop() {
		if _, err := table.CheckPass("micropul", pass); err != nil {
			b.Fatal(err)
		}
	}
}
