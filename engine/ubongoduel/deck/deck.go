package deck

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rulebook/rulebook/engine/polyomino"
)

// Version names the deck's data. Generate records it in the deck, and it changes whenever the generator's output
// does: a game records the version of the deck it was dealt from.
const Version = "1"

// Sides and sizes of the deck.
const (
	// Sheets is the number of sheets: sides A1..A9 and B1..B9.
	Sheets = 9
	// Faces is the number of tasks of a side, one per face of the 20-sided die.
	Faces = 20
	// PiecesA and PiecesB are the pieces of a task on side A and on side B.
	PiecesA, PiecesB = 4, 5
)

// Placement is one piece of a solution: the piece's letter, A to U as in the rules, and the cells of the shape it
// covers, in the shape's coordinates and reading order.
type Placement struct {
	Piece string
	Cells polyomino.Cells
}

// Task is one face of the die on one side: the pieces to place, in ascending order of their letters, and a witness
// solution with one placement per piece, in the same order, that covers the side's shape exactly.
type Task struct {
	Pieces  []string
	Witness []Placement
	// Tilings is the number of tilings of the shape by the pieces (every tiling, symmetric images included): 1 or
	// more, and the fewer the harder the puzzle, roughly.
	Tilings int
}

// Side is one side of a sheet: its name ("A1".."A9", "B1".."B9"), its shape, with its top-left at (0, 0) and in
// reading order, and its 20 tasks, Tasks[f-1] being face f of the die.
type Side struct {
	Name  string
	Shape polyomino.Cells
	Tasks []Task
}

// Deck is the whole deck: the version of its data and the sides A1..A9 and B1..B9 in order.
type Deck struct {
	Version string
	A, B    []Side
}

//go:embed deck.json
var embedded []byte

// parsed is the embedded deck, decoded once. It is never modified: Default hands out copies.
var parsed = sync.OnceValues(func() (*Deck, error) { return Decode(embedded) })

// Default returns the embedded deck, a fresh copy on every call that the caller may keep or modify. It panics if the
// embedded data cannot be decoded, which the package's tests rule out.
func Default() *Deck {
	d, err := parsed()
	if err != nil {
		panic(fmt.Sprintf("deck: the embedded deck.json is invalid: %v", err))
	}
	return d.Clone()
}

// DefaultSide returns a copy of sheet (1..9) of side "A" or "B" of the embedded deck, and false for any other side or
// sheet: Default().Side(side, sheet) without copying the whole deck (Default copies some 250 kB each call).
func DefaultSide(side string, sheet int) (Side, bool) {
	d, err := parsed()
	if err != nil {
		panic(fmt.Sprintf("deck: the embedded deck.json is invalid: %v", err))
	}
	s, ok := d.Side(side, sheet)
	if !ok {
		return Side{}, false
	}
	return s.Clone(), true
}

// Clone returns a deep copy of d.
func (d *Deck) Clone() *Deck {
	if d == nil {
		return nil
	}
	return &Deck{Version: d.Version, A: cloneSides(d.A), B: cloneSides(d.B)}
}

func cloneSides(sides []Side) []Side {
	if sides == nil {
		return nil
	}
	out := make([]Side, len(sides))
	for i, s := range sides {
		out[i] = s.Clone()
	}
	return out
}

// Clone returns a deep copy of s.
func (s Side) Clone() Side {
	out := Side{Name: s.Name, Shape: slices.Clone(s.Shape)}
	if s.Tasks != nil {
		out.Tasks = make([]Task, len(s.Tasks))
		for i, t := range s.Tasks {
			out.Tasks[i] = t.Clone()
		}
	}
	return out
}

// Clone returns a deep copy of t.
func (t Task) Clone() Task {
	out := Task{Pieces: slices.Clone(t.Pieces), Tilings: t.Tilings}
	if t.Witness != nil {
		out.Witness = make([]Placement, len(t.Witness))
		for i, p := range t.Witness {
			out.Witness[i] = Placement{Piece: p.Piece, Cells: slices.Clone(p.Cells)}
		}
	}
	return out
}

// PiecesPerTask returns the number of pieces of a task on side "A" (4) or "B" (5), and false for any other side.
func PiecesPerTask(side string) (int, bool) {
	switch side {
	case "A":
		return PiecesA, true
	case "B":
		return PiecesB, true
	}
	return 0, false
}

// Side returns sheet (1..9) of side "A" or "B": d.A[sheet-1] or d.B[sheet-1]. It returns false for any other side or
// sheet. The Side shares its slices with d.
func (d *Deck) Side(side string, sheet int) (Side, bool) {
	var sides []Side
	switch side {
	case "A":
		sides = d.A
	case "B":
		sides = d.B
	default:
		return Side{}, false
	}
	if sheet < 1 || sheet > len(sides) {
		return Side{}, false
	}
	return sides[sheet-1], true
}

// Task returns the task of face (1..20) of the die on sheet (1..9) of side "A" or "B", and false if any of them is out
// of range. The Task shares its slices with d.
func (d *Deck) Task(side string, sheet, face int) (Task, bool) {
	s, ok := d.Side(side, sheet)
	if !ok {
		return Task{}, false
	}
	return s.Task(face)
}

// Task returns the task of face (1..20) of the die, and false if face is out of range.
func (s Side) Task(face int) (Task, bool) {
	if face < 1 || face > len(s.Tasks) {
		return Task{}, false
	}
	return s.Tasks[face-1], true
}

// Set returns the task's pieces as a polyomino set, in the order of t.Pieces, which may be turned over: the set a
// solution must use, each piece once. Letters that name no Ubongo piece are left out.
func (t Task) Set() polyomino.Set {
	all := polyomino.Ubongo()
	set := polyomino.Set{Name: "ubongo " + strings.Join(t.Pieces, ""), Mirror: all.Mirror}
	for _, l := range t.Pieces {
		if p, ok := Piece(l); ok {
			set.Pieces = append(set.Pieces, p)
		}
	}
	return set
}

// Piece returns the Ubongo piece with the given letter, "A" to "U", as the rules define it, and false for any other
// letter.
func Piece(letter string) (polyomino.Piece, bool) {
	for _, p := range polyomino.Ubongo().Pieces {
		if p.Name == letter {
			return p, true
		}
	}
	return polyomino.Piece{}, false
}
