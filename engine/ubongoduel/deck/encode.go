package deck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rulebook/rulebook/engine/polyomino"
)

// The canonical encoding: indented JSON with the fields in this order and a newline at the end. A shape is drawn as
// rows of '#' (a cell) and '.' (none); a witness as the same rows with each cell's '#' replaced by the letter of the
// piece covering it.
type fileDeck struct {
	Version string     `json:"version"`
	Sides   []fileSide `json:"sides"`
}

type fileSide struct {
	Name  string     `json:"name"`
	Shape []string   `json:"shape"`
	Tasks []fileTask `json:"tasks"`
}

type fileTask struct {
	Pieces  string   `json:"pieces"`
	Tilings int      `json:"tilings"`
	Witness []string `json:"witness"`
}

// Encode returns the canonical encoding of d, the content of deck.json: indented JSON with a stable field order and a
// newline at the end, sides A1..A9 then B1..B9. d must pass Check.
func Encode(d *Deck) ([]byte, error) {
	if err := d.Check(); err != nil {
		return nil, err
	}
	f := fileDeck{Version: d.Version}
	for _, s := range slices.Concat(d.A, d.B) {
		fs := fileSide{Name: s.Name, Shape: strings.Split(s.Shape.Grid(), "\n")}
		for _, t := range s.Tasks {
			fs.Tasks = append(fs.Tasks, fileTask{
				Pieces:  strings.Join(t.Pieces, ""),
				Tilings: t.Tilings,
				Witness: witnessRows(s.Shape, t.Witness),
			})
		}
		f.Sides = append(f.Sides, fs)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// witnessRows draws a witness within the shape's bounds: '.' outside the shape, the piece's letter on its cells.
func witnessRows(shape polyomino.Cells, witness []Placement) []string {
	w, h := shape.Bounds()
	rows := make([][]byte, h)
	for y := range rows {
		rows[y] = bytes.Repeat([]byte{'.'}, w)
	}
	for _, p := range witness {
		for _, c := range p.Cells {
			rows[c.Y][c.X] = p.Piece[0]
		}
	}
	out := make([]string, h)
	for y, r := range rows {
		out[y] = string(r)
	}
	return out
}

// Decode reads a deck in the encoding Encode writes and returns it if it passes Check. Unknown fields are refused.
func Decode(data []byte) (*Deck, error) {
	var f fileDeck
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("deck: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("deck: data after the deck")
	}
	d := &Deck{Version: f.Version}
	for i, fs := range f.Sides {
		s, err := decodeSide(fs)
		if err != nil {
			return nil, fmt.Errorf("deck: side %d (%q): %w", i+1, fs.Name, err)
		}
		if strings.HasPrefix(s.Name, "A") {
			d.A = append(d.A, s)
		} else {
			d.B = append(d.B, s)
		}
	}
	if err := d.Check(); err != nil {
		return nil, err
	}
	return d, nil
}

func decodeSide(fs fileSide) (Side, error) {
	s := Side{Name: fs.Name}
	shape, err := parseRows(fs.Shape, func(b byte) bool { return b == '#' })
	if err != nil {
		return s, fmt.Errorf("shape: %w", err)
	}
	for c := range shape {
		s.Shape = append(s.Shape, c)
	}
	slices.SortFunc(s.Shape, readingOrder)
	for i, ft := range fs.Tasks {
		t, err := decodeTask(ft, shape)
		if err != nil {
			return s, fmt.Errorf("task %d: %w", i+1, err)
		}
		s.Tasks = append(s.Tasks, t)
	}
	return s, nil
}

func decodeTask(ft fileTask, shape map[polyomino.Cell]bool) (Task, error) {
	t := Task{Tilings: ft.Tilings}
	for _, r := range ft.Pieces {
		t.Pieces = append(t.Pieces, string(r))
	}
	letters, err := parseRows(ft.Witness, func(b byte) bool { return b >= 'A' && b <= 'Z' })
	if err != nil {
		return t, fmt.Errorf("witness: %w", err)
	}
	if len(letters) != len(shape) {
		return t, fmt.Errorf("the witness covers %d cells, the shape has %d", len(letters), len(shape))
	}
	rows := ft.Witness
	for c := range letters {
		if !shape[c] {
			return t, fmt.Errorf("the witness covers %v, outside the shape", c)
		}
	}
	for _, p := range t.Pieces {
		pl := Placement{Piece: p}
		for y, row := range rows {
			for x := range len(row) {
				if string(row[x]) == p {
					pl.Cells = append(pl.Cells, polyomino.Cell{X: x, Y: y})
				}
			}
		}
		t.Witness = append(t.Witness, pl)
	}
	covered := 0
	for _, p := range t.Witness {
		covered += len(p.Cells)
	}
	if covered != len(letters) {
		return t, fmt.Errorf("the witness uses a letter that is not one of the pieces %q", ft.Pieces)
	}
	return t, nil
}

// parseRows reads rows of equal length, '.' for no cell and a byte for which cell is true for a cell.
func parseRows(rows []string, cell func(byte) bool) (map[polyomino.Cell]bool, error) {
	out := map[polyomino.Cell]bool{}
	for y, row := range rows {
		if len(row) != len(rows[0]) {
			return nil, fmt.Errorf("row %d has %d characters, row 1 has %d", y+1, len(row), len(rows[0]))
		}
		for x := range len(row) {
			switch {
			case row[x] == '.':
			case cell(row[x]):
				out[polyomino.Cell{X: x, Y: y}] = true
			default:
				return nil, fmt.Errorf("row %d has the character %q", y+1, row[x])
			}
		}
	}
	return out, nil
}

func readingOrder(a, b polyomino.Cell) int {
	if a.Y != b.Y {
		return a.Y - b.Y
	}
	return a.X - b.X
}
