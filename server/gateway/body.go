package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/refusal"
)

// Reasons of the gateway's refusals of a request body it could read but not decode.
const (
	// ReasonRequestTooLarge: the body is longer than the largest request the server accepts (HTTP 413), or would
	// take more memory than the budget of all the requests in flight.
	ReasonRequestTooLarge = admission.ReasonRequestTooLarge
	// ReasonMalformedJSON: the body is not one JSON object (a syntax error, a cut body, data after the object).
	ReasonMalformedJSON = "MALFORMED_JSON"
)

const (
	// maxFaultDepth bounds how deep faultPath looks into nested objects for the field at fault: deeper than the
	// requests of the API nest (7 levels), so that its work stays a few passes over the body.
	maxFaultDepth = 10
	// MaxFaultSearchBytes bounds the bodies faultPath searches: a longer body that does not decode is refused without
	// the path of the field at fault, so that a stream of large bad bodies (decoded before any limit on calls) costs
	// one pass each, not maxFaultDepth passes.
	MaxFaultSearchBytes = 256 << 10
	// MaxEchoBytes bounds what a refusal repeats of the body (a field's path, protojson's message quoting a value).
	MaxEchoBytes = 256
)

// requestBody is the body of a REST request, read already, which keeps why it could not be decoded: the generated
// gateway code keeps only the text of a decoding error, so callError answers with this refusal instead. Its decoder
// takes the bytes themselves, without reading them again.
type requestBody struct {
	bytes.Reader
	body    []byte
	refusal error
}

// newRequestBody returns body, read already, as a request's body.
func newRequestBody(body []byte) *requestBody {
	b := &requestBody{body: body}
	b.Reset(body)
	return b
}

// Close does nothing: the body was read already.
func (*requestBody) Close() error { return nil }

// bodyMarshaler is the gateway's JSON marshaler, whose decoder takes exactly one JSON object (nothing after it) and
// explains a body it refuses: MALFORMED_JSON, or INVALID_FIELD with the path of the field at fault.
type bodyMarshaler struct{ *runtime.JSONPb }

// NewDecoder returns a decoder of r that keeps its refusal in r, when r is a requestBody.
func (m bodyMarshaler) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		body, isBody := r.(*requestBody)
		var err error
		if msg, ok := v.(proto.Message); !ok {
			err = m.JSONPb.NewDecoder(r).Decode(v)
		} else if isBody {
			err = m.decode(body.body, msg)
		} else if b, readErr := io.ReadAll(r); readErr != nil {
			err = readErr
		} else {
			err = m.decode(b, msg)
		}
		if isBody && err != nil && !errors.Is(err, io.EOF) {
			body.refusal = err
		}
		return err
	})
}

// Marshal returns the JSON of v, as protojson writes it for a message (without copying it, as JSONPb does).
func (m bodyMarshaler) Marshal(v any) ([]byte, error) {
	if msg, ok := v.(proto.Message); ok {
		return m.MarshalOptions.Marshal(msg)
	}
	return m.JSONPb.Marshal(v)
}

// DecodeJSON decodes body into msg strictly, as the gateway decodes a REST body: one JSON object, nothing after it,
// no unknown field; an empty body (or only white space) is the empty request. A body it refuses is MALFORMED_JSON, or
// INVALID_FIELD naming the field at fault.
func DecodeJSON(body []byte, msg proto.Message) error {
	if err := (bodyMarshaler{&runtime.JSONPb{}}).decode(body, msg); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// jsonSpace is the white space of JSON.
const jsonSpace = " \t\r\n"

// decode decodes body, one JSON object, into msg; an empty body (or only white space) is io.EOF, which the gateway
// takes as an empty request. It decodes the body once; only a body that does not decode is read again, to explain
// why.
func (m bodyMarshaler) decode(body []byte, msg proto.Message) error {
	if len(bytes.Trim(body, jsonSpace)) == 0 {
		return io.EOF
	}
	if err := m.UnmarshalOptions.Unmarshal(body, msg); err != nil {
		return m.refusal(body, msg.ProtoReflect().Descriptor(), err)
	}
	return nil
}

// refusal explains why body, which is not only white space, does not decode (err) as a message md: MALFORMED_JSON if
// it is not one JSON object with nothing after it, else INVALID_FIELD naming the field at fault.
func (m bodyMarshaler) refusal(body []byte, md protoreflect.MessageDescriptor, err error) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return malformedJSON(err.Error())
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return malformedJSON("data after the JSON object") // whether it could be read as a JSON token or not
	}
	return jsonFault(md, raw, err, m.UnmarshalOptions)
}

// malformedJSON is the refusal of a body that is not one JSON object, for the reason given.
func malformedJSON(why string) error {
	return refusal.New(codes.InvalidArgument, ReasonMalformedJSON, "the body is not one JSON object: "+why, nil)
}

// jsonFault is the refusal of raw, one JSON value that does not decode (err) as a message md: MALFORMED_JSON if it is
// not an object, else INVALID_FIELD naming the field at fault (unknown, named twice, or of the wrong type).
func jsonFault(md protoreflect.MessageDescriptor, raw json.RawMessage, err error, opts protojson.UnmarshalOptions) error {
	if _, ok := objectMembers(raw); !ok {
		return malformedJSON("not an object")
	}
	var field string
	if len(raw) <= MaxFaultSearchBytes {
		field = shorten(faultPath(md, raw, "", opts, maxFaultDepth))
	}
	if field == "" {
		return refusal.New(codes.InvalidArgument, service.ReasonInvalidField, shorten(err.Error()), nil)
	}
	message := field + ": " + shorten(err.Error())
	violation := &errdetails.BadRequest_FieldViolation{Field: field, Description: message, Reason: service.ReasonInvalidField}
	return refusal.New(codes.InvalidArgument, service.ReasonInvalidField, message, map[string]string{"field": field},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{violation}})
}

// faultPath returns the path (in JSON names, as "moves[3].exploze.row") of the first field of raw, a JSON value that
// does not decode as a message md and lies at path, that is at fault; path itself if no one field is, or if raw is not
// an object. It asks protojson about each member on its own, and looks into the first that fails, down to depth
// levels: its work grows with the length of raw times its depth.
func faultPath(md protoreflect.MessageDescriptor, raw json.RawMessage, path string, opts protojson.UnmarshalOptions, depth int) string {
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
		if decodes(md, m.key, m.value, opts) {
			continue
		}
		sub := fd.Message()
		if sub == nil || fd.IsMap() || strings.HasPrefix(string(sub.FullName()), "google.protobuf.") {
			return at
		}
		if !fd.IsList() {
			return faultPath(sub, m.value, at, opts, depth-1)
		}
		items, ok := arrayItems(m.value)
		if !ok {
			return at
		}
		for i, item := range items {
			if opts.Unmarshal(item, dynamicpb.NewMessage(sub)) != nil {
				return faultPath(sub, item, at+"["+strconv.Itoa(i)+"]", opts, depth-1)
			}
		}
		return at
	}
	return path
}

// decodes reports whether the object of the one member key: value decodes as a message md.
func decodes(md protoreflect.MessageDescriptor, key string, value json.RawMessage, opts protojson.UnmarshalOptions) bool {
	quoted, err := json.Marshal(key)
	if err != nil {
		return false
	}
	object := make([]byte, 0, len(quoted)+len(value)+3)
	object = append(append(append(append(object, '{'), quoted...), ':'), value...)
	return opts.Unmarshal(append(object, '}'), dynamicpb.NewMessage(md)) == nil
}

// shorten returns s cut to at most MaxEchoBytes (and valid UTF-8), marked "..." if it was cut.
func shorten(s string) string {
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
