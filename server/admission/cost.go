package admission

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// MessageCost is what a request is estimated to take in memory, once decoded, for each message it holds, besides
// its bytes: about the size of a message's Go struct and its place in a list, more than most of the API's messages
// take.
const MessageCost = 96

// EncodedCost estimates the memory that decoding b, the protobuf encoding of a message md, takes: its bytes twice
// (the encoding is held while it is decoded, and strings are copied out of it), and MessageCost for it and for each
// message it holds. It reads b without allocating, and fails where b is not a
// well-formed encoding. It follows the messages that md's fields declare, which no request of the API nests more
// than a few levels deep (no request message holds itself), and skips the others; a group nests only as deep as
// protowire allows.
func EncodedCost(md protoreflect.MessageDescriptor, b []byte) (int64, error) {
	cost, err := messagesCost(md, b)
	return cost + 2*int64(len(b)), err
}

// messagesCost returns MessageCost for the message md encoded in b and for each message it holds, or fails where b
// is not a well-formed encoding.
func messagesCost(md protoreflect.MessageDescriptor, b []byte) (int64, error) {
	cost := int64(MessageCost)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, protowire.ParseError(n)
		}
		b = b[n:]
		if fd := md.Fields().ByNumber(num); fd != nil && fd.Message() != nil && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return 0, protowire.ParseError(n)
			}
			c, err := messagesCost(fd.Message(), v)
			if err != nil {
				return 0, err
			}
			cost += c
			b = b[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return 0, protowire.ParseError(n)
		}
		b = b[n:]
	}
	return cost, nil
}

// JSONCost estimates the memory that a JSON body takes while its call is served through the REST gateway: its bytes
// three times (the body, held while its call is served; the request decoded from it, whose strings are copies; as
// much again for the decoder's work, or for explaining a refusal, which reads the body once more), and
// MessageCost for each object in it (each becomes a message, or a few Go values), found by one pass over the bytes
// that allocates nothing. The body need not be valid JSON.
func JSONCost(body []byte) int64 {
	objects := 0
	inString, escaped := false, false
	for _, c := range body {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == '{':
			objects++
		}
	}
	return int64(3*len(body) + MessageCost*objects)
}
