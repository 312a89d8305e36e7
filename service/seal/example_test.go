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
	token, err := ring.Seal("micropul", table, []byte("the encoded state"))
	if err != nil {
		log.Fatal(err)
	}
	pass := table.Pass("micropul", 2) // given to the second player only

	// A move comes back with the token and a pass.
	table, state, err := ring.Open("micropul", token)
	if err != nil {
		log.Fatal(err)
	}
	seat, err := table.CheckPass("micropul", pass)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s, seat %d\n", state, seat)

	// A token is bound to its game, and a pass to its seat.
	_, _, err = ring.Open("exploze", token)
	fmt.Println(seal.Reason(err))
	_, err = table.CheckPass("micropul", "1"+pass[1:])
	fmt.Println(seal.Reason(err))
	// Output:
	// the encoded state, seat 2
	// TOKEN_INVALID
	// SEAT_PASS_INVALID
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
	token, _ := before.Seal("exploze", table, []byte("state"))

	fresh, _ := seal.GenerateKey("new", nil)
	after, _ := seal.NewKeyring(append([]seal.Key{fresh}, keys...)...)
	_, state, err := after.Open("exploze", token)
	fmt.Println(after.SealingKeyID(), string(state), err)

	retired, _ := seal.NewKeyring(fresh)
	_, _, err = retired.Open("exploze", token)
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
