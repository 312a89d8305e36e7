package conformance_test

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"testing"

	"github.com/rulebook/rulebook/conformance/internal/kit"
)

// pcg is the generator README.md describes for Micropul's shuffle, written from that description alone (with
// math/big, not the library's code), so that the test checks the description.
type pcg struct{ state *big.Int }

// mod64 and mod128 are 2^64 and 2^128.
var mod64, mod128 = new(big.Int).Lsh(big.NewInt(1), 64), new(big.Int).Lsh(big.NewInt(1), 128)

// hex returns the number written in hexadecimal h.
func hex(h string) *big.Int {
	n, _ := new(big.Int).SetString(h, 16)
	return n
}

// next returns the next output, as README.md says.
func (p *pcg) next() uint64 {
	p.state.Mul(p.state, hex("2360ed051fc65da44385df649fccf645"))
	p.state.Add(p.state, hex("5851f42d4c957f2d14057b7ef767814f"))
	p.state.Mod(p.state, mod128)
	hi := new(big.Int).Rsh(p.state, 64).Uint64()
	lo := new(big.Int).Mod(p.state, mod64).Uint64()
	hi ^= hi >> 32
	hi *= 0xda942042e4dd58b5
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// below returns a number uniform in 0..n-1, as README.md says.
func (p *pcg) below(n uint64) uint64 {
	if n&(n-1) == 0 {
		return p.next() & (n - 1)
	}
	for {
		product := new(big.Int).Mul(new(big.Int).SetUint64(p.next()), new(big.Int).SetUint64(n))
		hi, lo := new(big.Int).Rsh(product, 64).Uint64(), new(big.Int).Mod(product, mod64).Uint64()
		if lo >= n || lo >= -n%n {
			return hi
		}
	}
}

// TestMicropulDealing deals every Micropul game that a NewGame case of the kit answers as README.md describes, and
// compares the hands and the core with the case's.
func TestMicropulDealing(t *testing.T) {
	cs, err := kit.Read(kit.File(".", "micropul"))
	if err != nil {
		t.Fatal(err)
	}
	dealt := 0
	for _, c := range cs {
		if c.RPC != "NewGame" || c.Error != nil {
			continue
		}
		var req struct {
			Seed    string
			Options struct{ Micropul struct{ Players int } }
		}
		var resp struct {
			State struct {
				Micropul struct {
					Players []struct{ Hand []int }
					Core    []int
				}
			}
		}
		if err := json.Unmarshal(c.Request, &req); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(c.Response, &resp); err != nil {
			t.Fatal(err)
		}
		seed, err := strconv.ParseUint(req.Seed, 10, 64)
		if err != nil {
			t.Fatalf("%s: seed %q: %v", c.Name, req.Seed, err)
		}
		players := req.Options.Micropul.Players
		if players == 0 { // the default
			players = 2
		}
		var deck []int
		for id := range 48 {
			if id != 40 {
				deck = append(deck, id)
			}
		}
		p := &pcg{state: new(big.Int).Add(new(big.Int).Lsh(new(big.Int).SetUint64(seed), 64),
			new(big.Int).SetUint64(0x6d6963726f70756c))}
		for i := len(deck) - 1; i > 0; i-- {
			j := p.below(uint64(i + 1))
			deck[i], deck[j] = deck[j], deck[i]
		}
		got := resp.State.Micropul
		for k := range players {
			hand := slices.Clone(deck[6*k : 6*k+6])
			slices.Sort(hand)
			if k >= len(got.Players) || !slices.Equal(got.Players[k].Hand, hand) {
				t.Errorf("%s: hand %d is not %v", c.Name, k+1, hand)
			}
		}
		if !slices.Equal(got.Core, deck[6*players:]) {
			t.Errorf("%s: core %v, dealt %v", c.Name, got.Core, deck[6*players:])
		}
		dealt++
	}
	if dealt == 0 {
		t.Fatal("the kit deals no game of Micropul")
	}
}
