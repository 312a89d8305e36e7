package server

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	protoenc "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/admission"
)

// ReasonMalformedMessage is the reason of a gRPC request whose message is not a valid encoding of the request: cut
// short, not protobuf at all, a string that is not UTF-8, groups nested beyond protobuf's limit; or that never
// arrived whole (its stream ended before the end of the message, or before any).
const ReasonMalformedMessage = "MALFORMED_MESSAGE"

// recvError returns the caller's error for err, the failure of reading a call's request: MALFORMED_MESSAGE where
// grpc-go says INTERNAL (or gives no status), for a stream that ended in the middle of its message (grpc-go has
// answered a gRPC client already, with its own INTERNAL) or whose message does not decompress, each the client's
// doing; and err itself otherwise (CANCELLED, DEADLINE_EXCEEDED, a message over the size limit, a refusal). It is
// what the call is answered, counted and logged as.
func recvError(err error) error {
	if code := status.Code(err); code == codes.Internal || code == codes.Unknown {
		return malformedStream("the request did not arrive whole")
	}
	return err
}

// malformedStream is the refusal of a call whose stream does not hold one whole request, for the reason why.
func malformedStream(why string) error {
	return refusal.New(codes.InvalidArgument, ReasonMalformedMessage, why, nil)
}

// rawRequest is a request message as it arrived, not decoded: the server's codec keeps the bytes in it, so that the
// server can weigh and refuse a request before decoding it, and answer a failed decoding with the caller's error
// rather than grpc's INTERNAL.
type rawRequest struct{ buf mem.Buffer }

// codec is the server's gRPC codec: protobuf's, except that a *rawRequest keeps the bytes of the message.
type codec struct{ encoding.CodecV2 }

// newCodec returns the server's codec.
func newCodec() codec { return codec{encoding.GetCodecV2(protoenc.Name)} }

// Unmarshal keeps data in a *rawRequest, and decodes it into any other message.
func (c codec) Unmarshal(data mem.BufferSlice, v any) error {
	if raw, ok := v.(*rawRequest); ok {
		raw.buf = data.MaterializeToBuffer(mem.DefaultBufferPool())
		return nil
	}
	return c.CodecV2.Unmarshal(data, v)
}

// decodeRequest decodes raw into req, having taken from budget what decoding it is estimated to cost; release gives
// that back once the call is answered. It refuses a request that does not fit in the budget (SERVER_BUSY, or
// REQUEST_TOO_LARGE for one larger than the whole budget) before decoding it, and a malformed one with
// MALFORMED_MESSAGE.
func decodeRequest(raw rawRequest, req proto.Message, budget *admission.Budget) (release func(), err error) {
	defer raw.buf.Free()
	b := raw.buf.ReadOnlyData()
	md := req.ProtoReflect().Descriptor()
	cost, err := admission.EncodedCost(md, b)
	if err != nil {
		return nil, malformedMessage(md, err)
	}
	if release, err = budget.Acquire(cost); err != nil {
		return nil, err
	}
	if err := proto.Unmarshal(b, req); err != nil {
		release()
		return nil, malformedMessage(md, err)
	}
	return release, nil
}

// malformedMessage is the refusal of a request that is not a valid encoding of md, for the reason err.
func malformedMessage(md protoreflect.MessageDescriptor, err error) error {
	return refusal.New(codes.InvalidArgument, ReasonMalformedMessage, "the request is not a valid "+string(md.FullName())+
		": "+err.Error(), nil)
}
