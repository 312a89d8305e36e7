package gateway

import (
	"bytes"
	"errors"
	"io"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/internal/restjson"
)

// requestBody is the body of a REST call, read when the call decodes it (load): after the router has found the call,
// and before the call takes any of the limits on calls. It keeps why it could not be read or decoded: the generated
// gateway code keeps only the text of a decoding error, so callError answers with this refusal instead. Its decoder
// takes the bytes themselves, without reading them again.
type requestBody struct {
	bytes.Reader
	g       *Gateway
	w       http.ResponseWriter
	in      *http.Request // the request as it came, its body the connection's
	game    string        // the game its path names, "" for none
	loaded  bool
	body    []byte
	release func() // gives back the budget the body holds
	refusal error
}

// load reads the body, once, as ReadBody does, having checked its content type (checkContentType), and then takes from
// the budget what decoding it is estimated to take (ChargeJSON). A body it refuses is kept as the refusal, and its
// answer closes the connection (what is left of the body is never read).
func (b *requestBody) load() error {
	if b.loaded {
		return b.refusal
	}
	b.loaded = true
	err := checkContentType(b.in)
	if err == nil {
		limits := Limits{MaxBytes: int64(b.g.opts.MaxBodyBytes), Budget: b.g.opts.Budget, ReadTime: b.g.opts.ReadTime}
		if b.body, b.release, err = ReadBody(b.w, b.in, limits); err == nil {
			b.release, err = ChargeJSON(b.body, b.release, b.g.opts.Budget)
		}
	}
	if err != nil {
		b.w.Header().Set("Connection", "close")
		b.refusal = err
		return err
	}
	b.Reset(b.body)
	return nil
}

// Read reads the body, once loaded.
func (b *requestBody) Read(p []byte) (int, error) {
	if err := b.load(); err != nil {
		return 0, err
	}
	return b.Reader.Read(p)
}

// Close does nothing: the connection's body is closed by the server.
func (*requestBody) Close() error { return nil }

// free gives back the budget the body holds, once its call is answered.
func (b *requestBody) free() {
	if b.release != nil {
		b.release()
	}
}

// bodyMarshaler is the gateway's JSON marshaler: restjson's, whose decoder takes exactly one JSON object (nothing
// after it) and explains a body it refuses: MALFORMED_JSON, or INVALID_FIELD with the path of the field at fault.
type bodyMarshaler struct{ *runtime.JSONPb }

// newBodyMarshaler returns the marshaler of answers with restjson's options: every field, with unpopulated.
func newBodyMarshaler(unpopulated bool) bodyMarshaler {
	return bodyMarshaler{&runtime.JSONPb{MarshalOptions: restjson.MarshalOptions(unpopulated)}}
}

// NewDecoder returns a decoder of r that, for a requestBody, loads it and keeps its refusal in it.
func (m bodyMarshaler) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		body, isBody := r.(*requestBody)
		msg, isMessage := v.(proto.Message)
		if !isBody || !isMessage {
			return m.JSONPb.NewDecoder(r).Decode(v)
		}
		if err := body.load(); err != nil {
			return err
		}
		err := restjson.Decode(body.body, msg)
		if err != nil && !errors.Is(err, io.EOF) {
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
