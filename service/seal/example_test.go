package seal_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/rulebook/rulebook/service/seal"
)

// The service seals a game's state into a token for the players to hold, with a seat pass for each player, and opens
// the token when a player sends it back with a move.
func Example() {
	key, err := seal.GenerateKey("k1", nil)
	if err != nil {
		log.Fatal(err)
	}
	ring, err := seal.NewKeyring(key)
	if err != nil {
		log.Fatal(err)
	}

	// Setting up a game: a new table secret, a token of the first state, a pass per seat.
	table, err := seal.NewTable(nil)
	if err != nil {
		log.Fatal(err)
	}
	token, err := ring.Seal("micropul", seal.Contents{RulesVersion: 1, Table: table, State: []byte("the encoded state")})
	if err != nil {
		log.Fatal(err)
	}
	pass := table.Pass("micropul", 2) // given to the second player only

	// A move comes back with the token and a pass.
	opened, err := ring.Open("micropul", token, seal.ScopeSealed)
	if err != nil {
		log.Fatal(err)
	}
	seat, err := opened.Table.CheckPass("micropul", pass)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (format %d, rules version %d), seat %d\n", opened.State, opened.Format, opened.RulesVersion, seat)

	// A token is bound to its game, and a pass to its seat.
	_, err = ring.Open("exploze", token, seal.ScopeSealed)
	fmt.Println(seal.Reason(err))
	_, err = table.CheckPass("micropul", "1"+pass[1:])
	fmt.Println(seal.Reason(err))
	// A token of a format this build does not know, such as a newer build's, is refused as such.
	_, err = ring.Open("micropul", "v3"+token[2:], seal.ScopeSealed)
	fmt.Println(seal.Reason(err))
	// Output:
	// the encoded state (format 2, rules version 1), seat 2
	// TOKEN_INVALID
	// SEAT_PASS_INVALID
	// TOKEN_VERSION_UNSUPPORTED
}

// Keys rotate by putting a new key first: it seals from then on, and tokens of the old key still open until the old
// key is taken out of the ring.
func ExampleNewKeyring_rotation() {
	keys, err := seal.ParseKeys(`
# state-keys
old:R3b0nxYYq3hh0MjXFn9xxnbv3gw8UbdB2qqoQGVE8Jk=
`)
	if err != nil {
		log.Fatal(err)
	}
	before, _ := seal.NewKeyring(keys...)
	table, _ := seal.NewTable(nil)
	token, _ := before.Seal("exploze", seal.Contents{Table: table, State: []byte("state")})

	fresh, _ := seal.GenerateKey("new", nil)
	after, _ := seal.NewKeyring(append([]seal.Key{fresh}, keys...)...)
	opened, err := after.Open("exploze", token, seal.ScopeSealed)
	fmt.Println(after.SealingKeyID(), string(opened.State), err)

	retired, _ := seal.NewKeyring(fresh)
	_, err = retired.Open("exploze", token, seal.ScopeSealed)
	fmt.Println(seal.Reason(err))
	// Output:
	// new state <nil>
	// TOKEN_UNKNOWN_KEY
}

// Refusals carry a stable reason for clients and a message that tells an attacker nothing.
func ExampleError() {
	table, _ := seal.NewTable(nil)
	_, err := table.CheckPass("micropul", "2.AAAAAAAAAAAAAAAAAAAAAA")
	var e *seal.Error
	if errors.As(err, &e) {
		fmt.Printf("%s: %v\n", e.Reason, e)
	}
	// Output: SEAT_PASS_INVALID: seat pass is not valid
}
