package seal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

const (
	// MaxSeat is the highest seat number a pass can name; seats are numbered from 1.
	MaxSeat = 1000

	passAD      = "rulebook seat pass v1\x00" // the start of the message a pass authenticates
	passMACSize = 16                          // the bytes of HMAC-SHA256 a pass keeps
	passMACText = (passMACSize*8 + 5) / 6     // their length in unpadded base64
	maxSeatLen  = len("1000")                 // the digits of MaxSeat
	maxPassLen  = maxSeatLen + 1 + passMACText
)

// passEncoding encodes a pass's MAC: unpadded URL-safe base64 without stray bits.
var passEncoding = base64.RawURLEncoding.Strict()

// Pass returns the seat pass for seat in game at table t: whoever holds it was given that seat. It panics if seat is
// not in 1..MaxSeat or t is the zero Table.
func (t Table) Pass(game string, seat int) string {
	if seat < 1 || seat > MaxSeat {
		panic(fmt.Sprintf("seal: seat %d is not in 1..%d", seat, MaxSeat))
	}
	if t.zero() {
		panic("seal: a seat pass of the zero Table")
	}
	s := strconv.Itoa(seat)
	return s + "." + passEncoding.EncodeToString(t.passMAC(game, s))
}

// CheckPass returns the seat that pass was made for, if it was made by Pass for game at table t. It refuses a pass
// not in the pass format or naming a seat outside 1..MaxSeat (ReasonSeatPassMalformed) and any other pass, of another
// table, game or seat or altered in any way (ReasonSeatPassInvalid). The comparison takes constant time.
func (t Table) CheckPass(game, pass string) (seat int, err error) {
	if len(pass) > maxPassLen {
		return 0, fail(ReasonSeatPassMalformed)
	}
	seatText, macText, ok := strings.Cut(pass, ".")
	if !ok || len(macText) != passMACText {
		return 0, fail(ReasonSeatPassMalformed)
	}
	seat, ok = parseSeat(seatText)
	if !ok {
		return 0, fail(ReasonSeatPassMalformed)
	}
	for i := 0; i < len(macText); i++ {
		if !isURLBase64Char(macText[i]) {
			return 0, fail(ReasonSeatPassMalformed)
		}
	}
	mac, err := passEncoding.DecodeString(macText)
	if err != nil || len(mac) != passMACSize {
		return 0, fail(ReasonSeatPassMalformed)
	}
	if t.zero() || !hmac.Equal(mac, t.passMAC(game, seatText)) {
		return 0, fail(ReasonSeatPassInvalid)
	}
	return seat, nil
}

// passMAC is the MAC of a pass for seat (in decimal) in game at table t. Neither a seat number nor the separator
// holds a NUL byte, so no two (game, seat) pairs give the same message.
func (t Table) passMAC(game, seat string) []byte {
	m := hmac.New(sha256.New, t[:])
	m.Write([]byte(passAD))
	m.Write([]byte(game))
	m.Write([]byte{0})
	m.Write([]byte(seat))
	return m.Sum(nil)[:passMACSize]
}

// parseSeat returns the seat of s, which must be a decimal number in 1..MaxSeat without sign or leading zeros.
func parseSeat(s string) (int, bool) {
	if len(s) == 0 || len(s) > maxSeatLen || s[0] < '1' || s[0] > '9' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, n <= MaxSeat
}
