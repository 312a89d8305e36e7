package gateway

import (
	"bytes"
	"errors"
	"io"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/gateway/restjson"
)

// Reasons of the gateway's refusals of a request body it could read but not decode.
const (
	// ReasonRequestTooLarge: the body is longer than the largest request the server accepts (HTTP 413), or would
	// take more memory than the budget of all the requests in flight.
	ReasonRequestTooLarge = admission.ReasonRequestTooLarge
	// ReasonMalformedJSON: the body is not one JSON object (a syntax error, a cut body, data after the object).
	ReasonMalformedJSON = restjson.ReasonMalformedJSON
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

// bodyMarshaler is the gateway's JSON marshaler: restjson's, whose decoder takes exactly one JSON object (nothing
// after it) and explains a body it refuses: MALFORMED_JSON, or INVALID_FIELD with the path of the field at fault.
type bodyMarshaler struct{ *runtime.JSONPb }

// newBodyMarshaler returns the marshaler of answers with restjson's options: every field, with unpopulated.
func newBodyMarshaler(unpopulated bool) bodyMarshaler {
	return bodyMarshaler{&runtime.JSONPb{MarshalOptions: restjson.MarshalOptions(unpopulated)}}
}

// NewDecoder returns a decoder of r that keeps its refusal in r, when r is a requestBody.
func (m bodyMarshaler) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		body, isBody := r.(*requestBody)
		var err error
		if msg, ok := v.(proto.Message); !ok {
			err = m.JSONPb.NewDecoder(r).Decode(v)
		} else if isBody {
			err = restjson.Decode(body.body, msg)
		} else if b, readErr := io.ReadAll(r); readErr != nil {
			err = readErr
		} else {
			err = restjson.Decode(b, msg)
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

// DecodeJSON decodes body into msg strictly, as the gateway decodes a REST body (restjson.Decode), except that an
// empty body (or only white space) is the empty request. A body it refuses is MALFORMED_JSON, or INVALID_FIELD
// naming the field at fault.
func DecodeJSON(body []byte, msg proto.Message) error {
	if err := restjson.Decode(body, msg); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
