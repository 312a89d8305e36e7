package seal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// passForm is the seat pass format.
var passForm = regexp.MustCompile(`^[1-9][0-9]{0,3}\.[A-Za-z0-9_-]{22}$`)

// specPass computes a pass from the format's definition, independently of Pass.
func specPass(table Table, game string, seat int) string {
	m := hmac.New(sha256.New, table[:])
	m.Write([]byte("rulebook seat pass v1\x00" + game + "\x00" + strconv.Itoa(seat)))
	return strconv.Itoa(seat) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

func TestPassRoundTrip(t *testing.T) {
	table := testTable("t")
	for _, game := range []string{"micropul", "exploze", ""} {
		for _, seat := range []int{1, 2, 3, 4, 5, 6, 7, 8, 10, 99, 999, MaxSeat} {
			pass := table.Pass(game, seat)
			if !passForm.MatchString(pass) || pass != specPass(table, game, seat) {
				t.Errorf("Pass(%q, %d) = %q, want %q", game, seat, pass, specPass(table, game, seat))
			}
			got, err := table.CheckPass(game, pass)
			if err != nil || got != seat {
				t.Errorf("CheckPass(%q, Pass(%d)) = %d, %v", game, seat, got, err)
			}
		}
	}
}

// TestPassKnownAnswer pins the format: a pass issued today checks after any refactoring.
func TestPassKnownAnswer(t *testing.T) {
	var table Table
	for i := range table {
		table[i] = byte(i)
	}
	const want = "3.-PIfB-UejrbjXXZJQD26IQ" // HMAC-SHA256 computed outside Go
	if got := table.Pass("micropul", 3); got != want {
		t.Errorf("Pass = %q, want %q", got, want)
	}
}

func TestCheckPassRefuses(t *testing.T) {
	table := testTable("t")
	pass1 := table.Pass("micropul", 1)
	mac1 := pass1[len("1."):]
	tests := []struct {
		name   string
		table  Table
		game   string
		pass   string
		reason string
	}{
		{"another table", testTable("u"), "micropul", pass1, ReasonSeatPassInvalid},
		{"another game", table, "exploze", pass1, ReasonSeatPassInvalid},
		{"another seat", table, "micropul", "2." + mac1, ReasonSeatPassInvalid},
		{"seat 10 for 1", table, "micropul", "10." + mac1, ReasonSeatPassInvalid},
		{"the zero table", Table{}, "micropul", Table{}.specPassForTest("micropul", 1), ReasonSeatPassInvalid},
		{"seat 0", table, "micropul", "0." + mac1, ReasonSeatPassMalformed},
		{"seat -1", table, "micropul", "-1." + mac1, ReasonSeatPassMalformed},
		{"seat 1001", table, "micropul", "1001." + mac1, ReasonSeatPassMalformed},
		{"seat 10000", table, "micropul", "10000." + mac1, ReasonSeatPassMalformed},
		{"seat 01", table, "micropul", "01." + mac1, ReasonSeatPassMalformed},
		{"seat +1", table, "micropul", "+1." + mac1, ReasonSeatPassMalformed},
		{"seat 1e0", table, "micropul", "1e0." + mac1, ReasonSeatPassMalformed},
		{"seat x", table, "micropul", "x." + mac1, ReasonSeatPassMalformed},
		{"seat ' 1'", table, "micropul", " 1." + mac1, ReasonSeatPassMalformed},
		{"no seat", table, "micropul", "." + mac1, ReasonSeatPassMalformed},
		{"no dot", table, "micropul", "1" + mac1, ReasonSeatPassMalformed},
		{"empty", table, "micropul", "", ReasonSeatPassMalformed},
		{"two dots", table, "micropul", "1.." + mac1, ReasonSeatPassMalformed},
		{"padded", table, "micropul", pass1 + "==", ReasonSeatPassMalformed},
		{"standard alphabet", table, "micropul", "1." + strings.Repeat("+", 22), ReasonSeatPassMalformed},
		{"line break", table, "micropul", pass1[:5] + "\n" + pass1[5:], ReasonSeatPassMalformed},
		{"very long", table, "micropul", strings.Repeat("1", 1<<20), ReasonSeatPassMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seat, err := tt.table.CheckPass(tt.game, tt.pass)
			if err == nil {
				t.Fatalf("CheckPass = seat %d, want %s", seat, tt.reason)
			}
			if got := reasonOf(t, err); got != tt.reason || seat != 0 {
				t.Errorf("CheckPass = %d, %s, want %s", seat, got, tt.reason)
			}
		})
	}
}

// specPassForTest makes a pass as Pass would, even for the zero Table, which Pass refuses.
func (t Table) specPassForTest(game string, seat int) string { return specPass(t, game, seat) }

func TestCheckPassAltered(t *testing.T) {
	table := testTable("t")
	for _, pass := range []string{table.Pass("micropul", 1), table.Pass("micropul", 8), table.Pass("micropul", 1000)} {
		for bit := range len(pass) * 8 {
			altered := []byte(pass)
			altered[bit/8] ^= 1 << (bit % 8)
			if seat, err := table.CheckPass("micropul", string(altered)); err == nil {
				t.Errorf("%q with bit %d flipped checks as seat %d", pass, bit, seat)
			}
		}
		for n := range len(pass) {
			if seat, err := table.CheckPass("micropul", pass[:n]); err == nil {
				t.Errorf("%q cut to %d checks as seat %d", pass, n, seat)
			}
		}
		for _, suffix := range []string{"A", "=", "\n", " ", "."} {
			if seat, err := table.CheckPass("micropul", pass+suffix); err == nil {
				t.Errorf("%q + %q checks as seat %d", pass, suffix, seat)
			}
		}
	}
}

func TestPassPanics(t *testing.T) {
	for _, tt := range []struct {
		table Table
		seat  int
	}{{testTable("t"), 0}, {testTable("t"), -1}, {testTable("t"), MaxSeat + 1}, {Table{}, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Pass(seat %d) of table zero=%v did not panic", tt.seat, tt.table.zero())
				}
			}()
			tt.table.Pass("micropul", tt.seat)
		}()
	}
}

func TestNewTable(t *testing.T) {
	a, err := NewTable(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewTable(nil)
	if a == b || a.zero() {
		t.Error("two tables from crypto/rand are equal, or zero")
	}
	if _, err := NewTable(strings.NewReader("short")); err == nil {
		t.Error("NewTable from 5 bytes succeeded")
	}
	if _, err := NewTable(strings.NewReader(strings.Repeat("\x00", 32))); err == nil {
		t.Error("NewTable from zeros succeeded")
	}
	c, _ := NewTable(seeded(3))
	d, _ := NewTable(seeded(3))
	if c != d {
		t.Error("NewTable from the same seeded source differs")
	}
}

// FuzzCheckPass checks arbitrary passes for arbitrary games at a fixed table: CheckPass never panics, and accepts
// nothing but the very pass Pass makes.
func FuzzCheckPass(f *testing.F) {
	table := testTable("t")
	for _, game := range []string{"micropul", "exploze", ""} {
		for _, seat := range []int{1, 2, 8, 1000} {
			pass := table.Pass(game, seat)
			f.Add(game, pass)
			f.Add(game, pass[:len(pass)-1])
			f.Add("other", pass)
		}
	}
	for _, pass := range []string{"", ".", "0.AAAAAAAAAAAAAAAAAAAAAA", "01.AAAAAAAAAAAAAAAAAAAAAA", "1001.x", "1.==="} {
		f.Add("micropul", pass)
	}
	f.Fuzz(func(t *testing.T, game, pass string) {
		seat, err := table.CheckPass(game, pass)
		if err != nil {
			if r := reasonOf(t, err); r != ReasonSeatPassMalformed && r != ReasonSeatPassInvalid || seat != 0 {
				t.Fatalf("CheckPass = %d, %s", seat, r)
			}
			return
		}
		if want := table.Pass(game, seat); pass != want {
			t.Fatalf("CheckPass(%q) = seat %d, but Pass gives %q", pass, seat, want)
		}
	})
}
