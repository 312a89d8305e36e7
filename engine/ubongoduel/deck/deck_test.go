package deck

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rulebook/rulebook/engine/polyomino"
)

// generated runs Generate once for all the tests that need it.
var generated = sync.OnceValues(func() (*Deck, error) { return Generate(context.Background()) })

// mustGenerate returns the generated deck. Generate takes about 3 s, 15 s under -race, so -short skips the tests that
// need it; the full suite (CI) runs them.
func mustGenerate(t *testing.T) *Deck {
	t.Helper()
	if testing.Short() {
		t.Skip("Generate takes seconds: skipped with -short")
	}
	d, err := generated()
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return d
}

func TestGenerateReproducesDeckJSON(t *testing.T) {
	d := mustGenerate(t)
	got, err := Encode(d)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	want, err := os.ReadFile("deck.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, embedded) {
		t.Fatal("the embedded deck differs from deck.json")
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("Generate differs from deck.json at line %d: got %q, want %q (run go generate ./engine/ubongoduel/deck)", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("Generate differs from deck.json: %d lines, want %d (run go generate ./engine/ubongoduel/deck)", len(gl), len(wl))
	}
	if !bytes.HasSuffix(got, []byte("}\n")) {
		t.Error("the encoding does not end with a newline")
	}
}

// versionData pins the SHA-256 of deck.json for each deck version: data that changes must come with a new Version
// (games record the version they were dealt from), and the new hash is added here.
var versionData = map[string]string{
	"1": "5efd7fbdd99ecee29464f0aa2c969355d356b215d7827dad05241f1e33425984",
}

func TestVersionPinsData(t *testing.T) {
	sum := sha256.Sum256(embedded)
	got := hex.EncodeToString(sum[:])
	want, ok := versionData[Version]
	if !ok {
		t.Fatalf("no hash pinned for Version %q: add %q", Version, got)
	}
	if got != want {
		t.Fatalf("deck.json changed (SHA-256 %s) but Version is still %q (pinned to %s): bump Version and pin the new hash", got, Version, want)
	}
}

func TestDefaultMatchesGenerate(t *testing.T) {
	d := Default()
	if d.Version != Version {
		t.Errorf("Version = %q, want %q", d.Version, Version)
	}
	if g := mustGenerate(t); !reflect.DeepEqual(d, g) {
		t.Fatal("Default() differs from Generate()")
	}
}

func TestDefaultReturnsACopy(t *testing.T) {
	d := Default()
	want := d.Clone()
	d.Version = "x"
	d.A[0].Shape[0] = polyomino.Cell{X: 9, Y: 9}
	d.A[0].Tasks[0].Pieces[0] = "Z"
	d.B[8].Tasks[19].Witness[0].Cells[0] = polyomino.Cell{X: 9, Y: 9}
	d.B = d.B[:1]
	if !reflect.DeepEqual(Default(), want) {
		t.Fatal("modifying a Default() deck changed the next one")
	}
}

// TestTasksResolve re-solves every task with the solver and checks every witness cell by cell, without Check.
func TestTasksResolve(t *testing.T) {
	d := Default()
	ctx := context.Background()
	n := 0
	for _, s := range slices.Concat(d.A, d.B) {
		for i, task := range s.Tasks {
			name := fmt.Sprintf("%s face %d %v", s.Name, i+1, task.Pieces)
			verifyWitness(t, name, s.Shape, task)
			set := task.Set()
			if len(set.Pieces) != len(task.Pieces) {
				t.Errorf("%s: Set has %d pieces", name, len(set.Pieces))
				continue
			}
			count, err := polyomino.Count(ctx, s.Shape, set, polyomino.Options{Workers: 1})
			if err != nil || count != task.Tilings {
				t.Errorf("%s: Count = %d, %v; the deck says %d", name, count, err, task.Tilings)
			}
			sol, ok, err := polyomino.Find(ctx, s.Shape, set, polyomino.Options{})
			if err != nil || !ok {
				t.Errorf("%s: Find = %v, %v", name, ok, err)
				continue
			}
			// The witness is the tiling Find meets first.
			for j, pl := range task.Witness {
				if !slices.Equal(pl.Cells, sol[j]) {
					t.Errorf("%s: the witness places %s on %v, Find on %v", name, pl.Piece, pl.Cells, sol[j])
				}
			}
			n++
		}
	}
	if n != 2*Sheets*Faces {
		t.Errorf("%d tasks solved, want %d", n, 2*Sheets*Faces)
	}
}

// verifyWitness checks that a task's witness places each of its pieces once, congruent to the piece's definition in
// the rules (turning over allowed), and that the placements cover the shape exactly, with no overlap.
func verifyWitness(t *testing.T, name string, shape polyomino.Cells, task Task) {
	t.Helper()
	owner := map[polyomino.Cell]string{}
	for _, c := range shape {
		owner[c] = ""
	}
	placed := map[string]bool{}
	for _, pl := range task.Witness {
		if placed[pl.Piece] {
			t.Errorf("%s: piece %s placed twice", name, pl.Piece)
		}
		placed[pl.Piece] = true
		p, ok := Piece(pl.Piece)
		if !ok {
			t.Errorf("%s: no piece %q", name, pl.Piece)
			continue
		}
		if !polyomino.Congruent(p.Cells, pl.Cells, true) {
			t.Errorf("%s: %s on %v is not congruent to %v", name, pl.Piece, pl.Cells, p.Cells)
		}
		for _, c := range pl.Cells {
			o, in := owner[c]
			switch {
			case !in:
				t.Errorf("%s: %s covers %v, outside the shape", name, pl.Piece, c)
			case o != "":
				t.Errorf("%s: %s and %s both cover %v", name, o, pl.Piece, c)
			default:
				owner[c] = pl.Piece
			}
		}
	}
	for _, c := range shape {
		if owner[c] == "" {
			t.Errorf("%s: no piece covers %v", name, c)
		}
	}
	for _, p := range task.Pieces {
		if !placed[p] {
			t.Errorf("%s: piece %s is not placed", name, p)
		}
	}
	if len(placed) != len(task.Pieces) {
		t.Errorf("%s: %d pieces placed, the task has %d", name, len(placed), len(task.Pieces))
	}
}

func TestShapes(t *testing.T) {
	d := Default()
	var seen []polyomino.Cells
	for side, sides := range [2][]Side{d.A, d.B} {
		lo, hi := 20, 24
		if side == 1 {
			lo, hi = 25, 30
		}
		if len(sides) != Sheets {
			t.Fatalf("side %d has %d sheets", side, len(sides))
		}
		prev := 0
		for i, s := range sides {
			if want := fmt.Sprintf("%c%d", "AB"[side], i+1); s.Name != want {
				t.Errorf("sheet %d is %q, want %q", i+1, s.Name, want)
			}
			n := len(s.Shape)
			if n < lo || n > hi {
				t.Errorf("%s: %d cells, want %d..%d", s.Name, n, lo, hi)
			}
			if n < prev {
				t.Errorf("%s: %d cells, fewer than the sheet before (%d)", s.Name, n, prev)
			}
			prev = n
			if !s.Shape.Connected() {
				t.Errorf("%s: not connected", s.Name)
			}
			if !holeFree(s.Shape) {
				t.Errorf("%s: has a hole", s.Name)
			}
			w, h := s.Shape.Bounds()
			inFrame := side == 0 && w <= 6 && h <= 5 || side == 1 && (w <= 7 && h <= 5 || w <= 6 && h <= 6)
			if !inFrame || w < h {
				t.Errorf("%s: %d x %d, outside the frame or not landscape", s.Name, w, h)
			}
			if w*h == n {
				t.Errorf("%s: a bare rectangle", s.Name)
			}
			if !slices.Equal(polyomino.Normalize(s.Shape), s.Shape) {
				t.Errorf("%s: the shape is not normalised", s.Name)
			}
			for _, o := range seen {
				if polyomino.Congruent(o, s.Shape, true) {
					t.Errorf("%s: congruent to an earlier shape", s.Name)
				}
			}
			seen = append(seen, s.Shape)
		}
	}
}

func TestPieceSets(t *testing.T) {
	d := Default()
	for side, sides := range [2][]Side{d.A, d.B} {
		k := PiecesA + side
		for _, s := range sides {
			if len(s.Tasks) != Faces {
				t.Errorf("%s: %d tasks, want %d", s.Name, len(s.Tasks), Faces)
			}
			sets := map[string]bool{}
			prev := ""
			for i, task := range s.Tasks {
				key := strings.Join(task.Pieces, "")
				if len(task.Pieces) != k {
					t.Errorf("%s face %d: %d pieces, want %d", s.Name, i+1, len(task.Pieces), k)
				}
				if !slices.IsSorted(task.Pieces) {
					t.Errorf("%s face %d: pieces %v not ascending", s.Name, i+1, task.Pieces)
				}
				if sets[key] {
					t.Errorf("%s: the set %s appears twice", s.Name, key)
				}
				if key <= prev {
					t.Errorf("%s face %d: %s does not follow %s in letter order", s.Name, i+1, key, prev)
				}
				prev = key
				sets[key] = true
				area := 0
				for _, p := range task.Pieces {
					pc, ok := Piece(p)
					if !ok {
						t.Fatalf("%s face %d: no piece %q", s.Name, i+1, p)
					}
					area += len(pc.Cells)
				}
				if area != len(s.Shape) {
					t.Errorf("%s face %d: pieces cover %d cells, the shape has %d", s.Name, i+1, area, len(s.Shape))
				}
			}
		}
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	d, err := Decode(embedded)
	if err != nil {
		t.Fatal(err)
	}
	data, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, embedded) {
		t.Fatal("Encode(Decode(deck.json)) differs from deck.json")
	}
}

func TestDecodeRejects(t *testing.T) {
	good := string(embedded)
	first := strings.Index(good, `"pieces": "`) + len(`"pieces": "`)
	cases := map[string]string{
		"not json":       "{",
		"unknown field":  strings.Replace(good, `"version"`, `"versio"`, 1),
		"no version":     strings.Replace(good, `"version": "`+Version+`"`, `"version": ""`, 1),
		"bad shape char": strings.Replace(good, `"shape": [`+"\n"+`        "`, `"shape": [`+"\n"+`        "x`, 1),
		"bad piece":      good[:first] + "Z" + good[first+1:],
		"trailing data":  good + "{}",
		"no sides":       `{"version": "1", "sides": []}`,
	}
	for name, data := range cases {
		if _, err := Decode([]byte(data)); err == nil {
			t.Errorf("%s: Decode accepted it", name)
		}
	}
}

func TestCheckRejects(t *testing.T) {
	cases := map[string]func(d *Deck){
		"no version":        func(d *Deck) { d.Version = "" },
		"missing sheet":     func(d *Deck) { d.A = d.A[:8] },
		"wrong name":        func(d *Deck) { d.B[2].Name = "B9" },
		"missing task":      func(d *Deck) { d.A[0].Tasks = d.A[0].Tasks[:19] },
		"duplicate set":     func(d *Deck) { d.A[3].Tasks[1] = d.A[3].Tasks[0] },
		"duplicate shape":   func(d *Deck) { d.B[1] = d.B[0].Clone(); d.B[1].Name = "B2" },
		"unsorted pieces":   func(d *Deck) { t := &d.A[0].Tasks[0]; t.Pieces[0], t.Pieces[1] = t.Pieces[1], t.Pieces[0] },
		"zero tilings":      func(d *Deck) { d.B[4].Tasks[7].Tilings = 0 },
		"missing placement": func(d *Deck) { d.A[5].Tasks[2].Witness = d.A[5].Tasks[2].Witness[:3] },
		"overlap": func(d *Deck) {
			w := d.A[1].Tasks[0].Witness
			w[1].Cells = slices.Clone(w[0].Cells[:len(w[1].Cells)])
		},
		"not congruent": func(d *Deck) {
			w := d.B[0].Tasks[0].Witness
			w[0].Piece, w[1].Piece = w[1].Piece, w[0].Piece
		},
		"hole": func(d *Deck) {
			s := &d.A[8]
			s.Shape = polyomino.Cells{}
			for _, c := range polyomino.Rect(5, 5) {
				if c != (polyomino.Cell{X: 2, Y: 2}) {
					s.Shape = append(s.Shape, c)
				}
			}
		},
		"too large": func(d *Deck) { d.A[8].Shape = polyomino.Rect(5, 5) },
	}
	for name, mutate := range cases {
		d := Default()
		mutate(d)
		if err := d.Check(); err == nil {
			t.Errorf("%s: Check accepted it", name)
		}
	}
	if err := Default().Check(); err != nil {
		t.Errorf("Check(Default()) = %v", err)
	}
}

func TestHoleFree(t *testing.T) {
	grid := func(s string) polyomino.Cells {
		c, err := polyomino.ParseGrid(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for s, want := range map[string]bool{
		"###|###":         true,
		"###|#.#|###":     false,
		"###|#.#|#.#":     true,
		"####|#..#|####":  false,
		"##.|#..|###":     true,
		"##.|#.#|###":     false,
		"###.|#.##|####":  false,
		"#####|#...#|#.#": true,
	} {
		if got := holeFree(grid(s)); got != want {
			t.Errorf("holeFree(%s) = %v, want %v", s, got, want)
		}
	}
}

func TestLookups(t *testing.T) {
	d := Default()
	s, ok := d.Side("B", 9)
	if !ok || s.Name != "B9" {
		t.Errorf(`Side("B", 9) = %q, %v`, s.Name, ok)
	}
	for _, c := range []struct {
		side  string
		sheet int
	}{{"A", 0}, {"A", 10}, {"C", 1}, {"a", 1}, {"", 1}} {
		if _, ok := d.Side(c.side, c.sheet); ok {
			t.Errorf("Side(%q, %d) found a side", c.side, c.sheet)
		}
	}
	task, ok := d.Task("A", 3, 20)
	if !ok || !reflect.DeepEqual(task, d.A[2].Tasks[19]) {
		t.Errorf(`Task("A", 3, 20) = %v, %v`, task, ok)
	}
	for _, face := range []int{0, 21} {
		if _, ok := d.Task("A", 1, face); ok {
			t.Errorf("Task face %d found a task", face)
		}
	}
	if n, ok := PiecesPerTask("A"); !ok || n != 4 {
		t.Errorf(`PiecesPerTask("A") = %d, %v`, n, ok)
	}
	if n, ok := PiecesPerTask("B"); !ok || n != 5 {
		t.Errorf(`PiecesPerTask("B") = %d, %v`, n, ok)
	}
	if _, ok := PiecesPerTask("C"); ok {
		t.Error(`PiecesPerTask("C") found a count`)
	}
	if p, ok := Piece("U"); !ok || p.Name != "U" || len(p.Cells) != 5 {
		t.Errorf(`Piece("U") = %v, %v`, p, ok)
	}
	if _, ok := Piece("V"); ok {
		t.Error(`Piece("V") found a piece`)
	}
	ds, ok := DefaultSide("A", 4)
	if !ok || !reflect.DeepEqual(ds, d.A[3]) {
		t.Errorf(`DefaultSide("A", 4) = %v, %v`, ds.Name, ok)
	}
	ds.Tasks[0].Pieces[0] = "Z"
	if again, _ := DefaultSide("A", 4); !reflect.DeepEqual(again, d.A[3]) {
		t.Error("modifying a DefaultSide changed the next one")
	}
	if _, ok := DefaultSide("B", 10); ok {
		t.Error(`DefaultSide("B", 10) found a side`)
	}
	set := d.B[0].Tasks[0].Set()
	if !set.Mirror || len(set.Pieces) != 5 {
		t.Errorf("Set() = %+v", set)
	}
}

func TestGenerateCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Generate(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Generate with a cancelled context = %v", err)
	}
}
