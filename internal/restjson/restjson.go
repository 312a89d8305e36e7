// Package restjson is the JSON of rulebook's REST API, which the gateway reads and writes and the WebAssembly module
// (cmd/rulebook-wasm) too, so that both answer the same bytes: a request body decoded strictly (one JSON object, no
// unknown field, the field at fault named in the refusal), an answer written with protojson (camelCase names, enum
// names, 64-bit integers as strings, unset fields left out), and a refusal written as its google.rpc.Status.
package restjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/rulebook/rulebook/internal/refusal"
)

// ReasonMalformedJSON is the reason of the refusal of a body that is not one JSON object (a syntax error, a cut
// body, data after the object).
const ReasonMalformedJSON = "MALFORMED_JSON"

const (
	// maxFaultDepth bounds how deep faultPath looks into nested objects for the field at fault: deeper than the
	// requests of the API nest (7 levels), so that its work stays a few passes over the body.
	maxFaultDepth = 10
	// MaxFaultSearchBytes bounds the bodies faultPath searches: a longer body that does not decode is refused without
	// the path of the field at fault, so that a stream of large bad bodies (decoded before any limit on calls) costs
	// one pass each, not maxFaultDepth passes.
	MaxFaultSearchBytes = 256 << 10
	// MaxEchoBytes bounds what a refusal repeats of the request (a field's path, protojson's message quoting a value).
	MaxEchoBytes = 256
)

// unmarshalOptions are how a body is decoded: strictly, a field the API does not have being an error.
var unmarshalOptions = protojson.UnmarshalOptions{}

// MarshalOptions returns the options with which the REST API writes its answers: protojson's defaults, which leave
// out every field that is not set, or with unpopulated, every field with its zero value too.
func MarshalOptions(unpopulated bool) protojson.MarshalOptions {
	return protojson.MarshalOptions{EmitUnpopulated: unpopulated}
}

// Marshal returns the JSON of msg as the REST API answers it, unset fields left out. protobuf's output is compact
// but, by design, not stable: whether it adds a space after a comma, and whether the errors it writes (which the
// messages of refusals quote) have a space or a no-break space (U+00A0) after "proto:", depend on the program (its
// binary), never on the message. Two programs' answers are the same once those are taken out.
func Marshal(msg proto.Message) ([]byte, error) {
	return MarshalOptions(false).Marshal(msg)
}

// statusFallback is the body of a refusal whose status does not marshal, as grpc-gateway writes it.
const statusFallback = `{"code": 13, "message": "failed to marshal error message"}`

// StatusBody returns the body of the REST answer refusing a call with err (a gRPC status; any other error is
// UNKNOWN): its google.rpc.Status, with code, message and details (the ErrorInfo first), as the gateway writes it.
func StatusBody(err error) []byte {
	body, merr := Marshal(status.Convert(err).Proto())
	if merr != nil {
		return []byte(statusFallback)
	}
	return body
}

// jsonSpace is the white space of JSON.
const jsonSpace = " \t\r\n"

// Decode decodes body, one JSON object, into msg; an empty body (or only white space) is io.EOF, which the gateway
// takes as an empty request. A body that does not decode is refused with MALFORMED_JSON if it is not one JSON object
// with nothing after it, else with INVALID_FIELD naming the field at fault. It decodes the body once; only a body
// that does not decode is read again, to explain why.
func Decode(body []byte, msg proto.Message) error {
	if len(bytes.Trim(body, jsonSpace)) == 0 {
		return io.EOF
	}
	if err := unmarshalOptions.Unmarshal(body, msg); err != nil {
		return explain(body, msg.ProtoReflect().Descriptor(), err)
	}
	return nil
}

// explain explains why body, which is not only white space, does not decode (err) as a message md: MALFORMED_JSON if
// it is not one JSON object with nothing after it, else INVALID_FIELD naming the field at fault.
func explain(body []byte, md protoreflect.MessageDescriptor, err error) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return malformedJSON(err.Error())
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return malformedJSON("data after the JSON object") // whether it could be read as a JSON token or not
	}
	return jsonFault(md, raw, err)
}

// malformedJSON is the refusal of a body that is not one JSON object, for the reason given.
func malformedJSON(why string) error {
	return refusal.New(codes.InvalidArgument, ReasonMalformedJSON, "the body is not one JSON object: "+why, nil)
}

// jsonFault is the refusal of raw, one JSON value that does not decode (err) as a message md: MALFORMED_JSON if it is
// not an object, else INVALID_FIELD naming the field at fault (unknown, named twice, or of the wrong type).
func jsonFault(md protoreflect.MessageDescriptor, raw json.RawMessage, err error) error {
	if _, ok := objectMembers(raw); !ok {
		return malformedJSON("not an object")
	}
	var field string
	if len(raw) <= MaxFaultSearchBytes {
		field = Shorten(faultPath(md, raw, "", maxFaultDepth))
	}
	if field == "" {
		return refusal.New(codes.InvalidArgument, refusal.ReasonInvalidField, Shorten(err.Error()), nil)
	}
	message := field + ": " + Shorten(err.Error())
	violation := &errdetails.BadRequest_FieldViolation{Field: field, Description: message, Reason: refusal.ReasonInvalidField}
	return refusal.New(codes.InvalidArgument, refusal.ReasonInvalidField, message, map[string]string{"field": field},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{violation}})
}

// faultPath returns the path (in JSON names, as "moves[3].exploze.row") of the first field of raw, a JSON value that
// does not decode as a message md and lies at path, that is at fault; path itself if no one field is, or if raw is not
// an object. It asks protojson about each member on its own, and looks into the first that fails, down to depth
// levels: its work grows with the length of raw times its depth.
func faultPath(md protoreflect.MessageDescriptor, raw json.RawMessage, path string, depth int) string {
	members, ok := objectMembers(raw)
	if !ok || depth == 0 {
		return path
	}
	seen := map[protoreflect.FieldNumber]bool{}
	oneofs := map[protoreflect.Name]bool{}
	for _, m := range members {
		fd := md.Fields().ByJSONName(m.key)
		if fd == nil {
			fd = md.Fields().ByTextName(m.key)
		}
		if fd == nil {
			return join(path, m.key)
		}
		at := join(path, fd.JSONName())
		if seen[fd.Number()] {
			return at
		}
		seen[fd.Number()] = true
		if od := fd.ContainingOneof(); od != nil && string(m.value) != "null" {
			if oneofs[od.Name()] {
				return at
			}
			oneofs[od.Name()] = true
		}
		if decodes(md, m.key, m.value) {
			continue
		}
		sub := fd.Message()
		if sub == nil || fd.IsMap() || strings.HasPrefix(string(sub.FullName()), "google.protobuf.") {
			return at
		}
		if !fd.IsList() {
			return faultPath(sub, m.value, at, depth-1)
		}
		items, ok := arrayItems(m.value)
		if !ok {
			return at
		}
		for i, item := range items {
			if unmarshalOptions.Unmarshal(item, dynamicpb.NewMessage(sub)) != nil {
				return faultPath(sub, item, at+"["+strconv.Itoa(i)+"]", depth-1)
			}
		}
		return at
	}
	return path
}

// decodes reports whether the object of the one member key: value decodes as a message md.
func decodes(md protoreflect.MessageDescriptor, key string, value json.RawMessage) bool {
	quoted, err := json.Marshal(key)
	if err != nil {
		return false
	}
	object := make([]byte, 0, len(quoted)+len(value)+3)
	object = append(append(append(append(object, '{'), quoted...), ':'), value...)
	return unmarshalOptions.Unmarshal(append(object, '}'), dynamicpb.NewMessage(md)) == nil
}

// Shorten returns s cut to at most MaxEchoBytes (and valid UTF-8), marked "..." if it was cut: what a refusal
// repeats of a request.
func Shorten(s string) string {
	if len(s) <= MaxEchoBytes {
		return s
	}
	return strings.ToValidUTF8(s[:MaxEchoBytes-3], "") + "..."
}

// join appends the field name to path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// member is one member of a JSON object.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers returns the members of raw in order, if raw is a JSON object.
func objectMembers(raw json.RawMessage) ([]member, bool) {
	var members []member
	ok := eachItem(raw, '{', func(dec *json.Decoder) bool {
		tok, err := dec.Token()
		key, isKey := tok.(string)
		var value json.RawMessage
		if err != nil || !isKey || dec.Decode(&value) != nil {
			return false
		}
		members = append(members, member{key, value})
		return true
	})
	return members, ok
}

// arrayItems returns the items of raw, if raw is a JSON array.
func arrayItems(raw json.RawMessage) ([]json.RawMessage, bool) {
	var items []json.RawMessage
	ok := eachItem(raw, '[', func(dec *json.Decoder) bool {
		var item json.RawMessage
		if dec.Decode(&item) != nil {
			return false
		}
		items = append(items, item)
		return true
	})
	return items, ok
}

// eachItem calls read for each item of raw, which must open with the delimiter open, and reports whether raw did and
// read read every item.
func eachItem(raw json.RawMessage, open json.Delim, read func(*json.Decoder) bool) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != open {
		return false
	}
	for dec.More() {
		if !read(dec) {
			return false
		}
	}
	return true
}
