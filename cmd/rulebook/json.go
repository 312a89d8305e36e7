package main

import (
	"bytes"
	"encoding/json"
	"io"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// parseFlagJSON decodes the protobuf JSON text of flag name into m; failing that, it returns a usage error.
func parseFlagJSON(name, text string, m proto.Message) error {
	if err := protojson.Unmarshal([]byte(text), m); err != nil {
		return usagef("-%s is not a %s in JSON: %v", name, m.ProtoReflect().Descriptor().Name(), err)
	}
	return nil
}

// writeJSON writes m to w in protobuf JSON indented by two spaces.
func writeJSON(w io.Writer, m proto.Message) error { return writeFormatted(w, m, "  ") }

// writeJSONLine writes m to w in protobuf JSON on one line.
func writeJSONLine(w io.Writer, m proto.Message) error { return writeFormatted(w, m, "") }

// writeFormatted writes m to w in protobuf JSON indented by indent (on one line when it is empty) and a newline.
func writeFormatted(w io.Writer, m proto.Message, indent string) error {
	data, err := formatJSON(m, indent)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// formatJSON returns m in protobuf JSON indented by indent, or on one line when indent is empty. Fields at their
// zero value are written too, so that a move of cell (0,0) reads {"row":0,"col":0} rather than {}. protojson
// deliberately varies its whitespace from build to build; formatJSON lays it out again so that the output is stable.
func formatJSON(m proto.Message, indent string) ([]byte, error) {
	data, err := protojson.MarshalOptions{EmitUnpopulated: true}.Marshal(m)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if indent == "" {
		err = json.Compact(&buf, data)
	} else {
		err = json.Indent(&buf, data, "", indent)
	}
	return buf.Bytes(), err
}

// gamePart returns the game's own message in an envelope (GameState, Move, Event...): the field set in its oneof
// "game". It returns m itself when m has no such oneof or none of its fields is set.
func gamePart(m proto.Message) proto.Message {
	r := m.ProtoReflect()
	oneof := r.Descriptor().Oneofs().ByName("game")
	if oneof == nil {
		return m
	}
	field := r.WhichOneof(oneof)
	if field == nil || field.Message() == nil {
		return m
	}
	return r.Get(field).Message().Interface()
}
