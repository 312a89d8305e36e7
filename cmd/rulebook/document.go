package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// maxInputBytes bounds standard input (a game, or a record of one), well above the largest state of any game and the
// longest token (256 KiB).
const maxInputBytes = 16 << 20

// document is a game as rulebook's commands hand it to one another on standard input and output: a plain state, or
// a token with the seat passes its holder has, and what the answer that made it said. new, apply and replay write one;
// the commands that take a game read one, or a bare GameState as a plain state.
type document struct {
	token      string
	seatPass   string   // the holder's own seat pass
	seatPasses []string // every seat's pass, for whoever set up the table
	move       *rulebookv1.Move
	events     []*rulebookv1.Event
	steps      []*rulebookv1.ReplayStep
	score      *rulebookv1.Score
	state      *rulebookv1.GameState
	view       *rulebookv1.GameState

	pass string // the caller's -pass, which wins over the document's passes; never written
}

// documentJSON is the JSON form of a document, with its messages in protobuf JSON. A document read keeps its state,
// token, passes and move: the rest is what an answer said, for people and scripts.
type documentJSON struct {
	Token      string            `json:"token,omitempty"`
	SeatPass   string            `json:"seatPass,omitempty"`
	SeatPasses []string          `json:"seatPasses,omitempty"`
	Move       json.RawMessage   `json:"move,omitempty"`
	Events     []json.RawMessage `json:"events,omitempty"`
	Steps      []json.RawMessage `json:"steps,omitempty"`
	Score      json.RawMessage   `json:"score,omitempty"`
	State      json.RawMessage   `json:"state,omitempty"`
	View       json.RawMessage   `json:"view,omitempty"`
}

// newGameDocument returns the game NewGame answered: its state, or its token, a view and every seat's pass.
func newGameDocument(resp *rulebookv1.NewGameResponse) *document {
	return &document{state: resp.GetState(), token: resp.GetToken(), view: resp.GetView(), seatPasses: resp.GetSeatPasses()}
}

// after returns the game after a move, as ApplyMove answered it (the new state or token, the move as applied and
// its events), held with d's seat passes.
func (d *document) after(resp *rulebookv1.ApplyMoveResponse) *document {
	return &document{state: resp.GetState(), token: resp.GetToken(), view: resp.GetView(), move: resp.GetMove(),
		events: resp.GetEvents(), seatPass: d.seatPass, seatPasses: d.seatPasses}
}

// replayed returns the game where a record that starts at d leads, as Replay answered it (the state, or the token
// and a view, with every move's events and the score), held with d's seat passes, or the new ones of a new table.
func (d *document) replayed(resp *rulebookv1.ReplayResponse) *document {
	end := &document{state: resp.GetState(), token: resp.GetToken(), view: resp.GetView(), steps: resp.GetSteps(),
		score: resp.GetScore(), seatPass: d.seatPass, seatPasses: d.seatPasses}
	if passes := resp.GetSeatPasses(); len(passes) > 0 {
		end.seatPass, end.seatPasses = "", passes
	}
	return end
}

// passFor returns the seat pass to send when acting for seat (0: for whoever the pass is for): the caller's -pass,
// else the document's seatPass, else seat's pass among its seatPasses; empty, for a spectator, when there is none.
func (d *document) passFor(seat int32) string {
	switch {
	case d.pass != "":
		return d.pass
	case d.seatPass != "":
		return d.seatPass
	case seat > 0:
		prefix := strconv.Itoa(int(seat)) + "." // a pass starts with its seat: "2.<code>"
		for _, p := range d.seatPasses {
			if strings.HasPrefix(p, prefix) {
				return p
			}
		}
	}
	return ""
}

// hostsTable reports whether d is a token held by whoever set up the table: with every seat's pass, and no pass of
// its own to act with.
func (d *document) hostsTable() bool {
	return d.token != "" && d.passFor(0) == "" && len(d.seatPasses) > 0
}

// gameInput defines -pass on fs and returns a function reading, from standard input, the game to act on with it.
func gameInput(fs *flag.FlagSet) func(io.Reader) (*document, error) {
	pass := passFlag(fs)
	return func(r io.Reader) (*document, error) {
		d, err := readDocument(r)
		if err != nil {
			return nil, err
		}
		d.pass = *pass
		return d, nil
	}
}

// passFlag defines -pass on fs.
func passFlag(fs *flag.FlagSet) *string {
	return fs.String("pass", "", "seat `PASS` to act with, for a game held as a token (default: the input's seatPass, "+
		"else the acting seat's among its seatPasses)")
}

// readDocument reads a game from r: a document in JSON, or a bare GameState in protobuf JSON.
func readDocument(r io.Reader) (*document, error) {
	data, err := readInput(r)
	if err != nil {
		return nil, err
	}
	return decodeGame(data, "the game on standard input")
}

// readRecord reads a game's record from r: the game it starts from, as new prints it, then its moves, each in a
// document with a "move", as apply prints them.
func readRecord(r io.Reader) (start *document, moves []*document, err error) {
	data, err := readInput(r)
	if err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var entry json.RawMessage
	if err := dec.Decode(&entry); err != nil {
		return nil, nil, fmt.Errorf("the record on standard input is not JSON: %w", err)
	}
	if start, err = decodeGame(entry, "the game the record starts from"); err != nil {
		return nil, nil, err
	}
	for i := 0; dec.More(); i++ {
		if err := dec.Decode(&entry); err != nil {
			return nil, nil, fmt.Errorf("the record on standard input is not JSON: %w", err)
		}
		what := fmt.Sprintf("moves[%d] of the record", i)
		d, err := decodeDocument(entry, what)
		if err != nil {
			return nil, nil, err
		}
		if d.move == nil {
			return nil, nil, errors.New(what + " holds no move")
		}
		moves = append(moves, d)
	}
	return start, moves, nil
}

// readInput reads standard input, r, which must hold something.
func readInput(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading standard input: %w", err)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, errors.New("no game on standard input: give the output of 'rulebook new' or 'rulebook apply', or a GameState in JSON")
	case len(data) > maxInputBytes:
		return nil, fmt.Errorf("standard input is larger than %d bytes", maxInputBytes)
	}
	return data, nil
}

// decodeGame decodes data, what the error messages call what, as a game: a bare GameState, or a document that holds
// either a state or a token.
func decodeGame(data []byte, what string) (*document, error) {
	if isBareState(data) {
		state := &rulebookv1.GameState{}
		if err := protojson.Unmarshal(data, state); err != nil {
			return nil, fmt.Errorf("%s is not a GameState in JSON: %w", what, err)
		}
		return &document{state: state}, nil
	}
	d, err := decodeDocument(data, what)
	if err != nil {
		return nil, err
	}
	if (d.state == nil) == (d.token == "") {
		return nil, errors.New(what + " must hold either a state or a token")
	}
	return d, nil
}

// isBareState reports whether data is to be read as a bare GameState: anything but a JSON object with a field that
// GameState does not have.
func isBareState(data []byte) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return true
	}
	known := (&rulebookv1.GameState{}).ProtoReflect().Descriptor().Fields()
	for name := range fields {
		if known.ByJSONName(name) == nil && known.ByName(protoreflect.Name(name)) == nil {
			return false
		}
	}
	return true
}

// decodeDocument decodes data, a JSON object that the error messages call what, as a document.
func decodeDocument(data []byte, what string) (*document, error) {
	var j documentJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("%s is not a game in JSON: %w", what, err)
	}
	d := &document{token: j.Token, seatPass: j.SeatPass, seatPasses: j.SeatPasses}
	if j.State != nil {
		d.state = &rulebookv1.GameState{}
		if err := protojson.Unmarshal(j.State, d.state); err != nil {
			return nil, fmt.Errorf("the state of %s is not a GameState in JSON: %w", what, err)
		}
	}
	if j.Move != nil {
		d.move = &rulebookv1.Move{}
		if err := protojson.Unmarshal(j.Move, d.move); err != nil {
			return nil, fmt.Errorf("the move of %s is not a Move in JSON: %w", what, err)
		}
	}
	return d, nil
}

// writeDocument writes d to w in JSON indented by two spaces, leaving out what it does not hold.
func writeDocument(w io.Writer, d *document) error {
	j := documentJSON{Token: d.token, SeatPass: d.seatPass, SeatPasses: d.seatPasses}
	err := errors.Join(
		rawJSON(&j.Move, d.move),
		rawList(&j.Events, d.events),
		rawList(&j.Steps, d.steps),
		rawJSON(&j.Score, d.score),
		rawJSON(&j.State, d.state),
		rawJSON(&j.View, d.view))
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}

// rawJSON sets *dst to m in protobuf JSON, or leaves it nil when m is a nil message.
func rawJSON(dst *json.RawMessage, m proto.Message) error {
	if !m.ProtoReflect().IsValid() {
		return nil
	}
	var err error
	*dst, err = formatJSON(m, "")
	return err
}

// rawList sets *dst to the messages ms in protobuf JSON.
func rawList[M proto.Message](dst *[]json.RawMessage, ms []M) error {
	*dst = make([]json.RawMessage, len(ms))
	for i, m := range ms {
		if err := rawJSON(&(*dst)[i], m); err != nil {
			return err
		}
	}
	return nil
}
