package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/internal/restjson"
	"github.com/rulebook/rulebook/server/gateway"
)

// envelopeBytes is the length of the prefix of each message of gRPC-Web (and of Connect's streams): a flag byte and
// the message's length.
const envelopeBytes = 5

// rpcRoutes returns the paths of RulesService's methods as Connect, gRPC-Web and gRPC name them
// ("/rulebook.v1.RulesService/ApplyMove"), each a route of the HTTP listener.
func rpcRoutes() []string {
	methods := rulebookv1grpc.RulesService_ServiceDesc.Methods
	routes := make([]string, len(methods))
	for i, m := range methods {
		routes[i] = rulesServicePrefix + m.MethodName
	}
	return routes
}

// rpcHandler returns the handler of RulesService's calls over Connect (JSON or protobuf) and gRPC-Web on the HTTP
// listener, which browsers can make. Vanguard translates each into a gRPC call that the server's own gRPC server
// serves (grpc.Server.ServeHTTP): with every interceptor of a gRPC call (the call log, the metrics, the count of
// refusals, panic recovery, the limiter, the budget of request memory) and the same refusals, whose details the
// client reads. Before that, the call gets its deadline from its arrival (a caller's shorter Connect-Timeout-Ms or
// grpc-timeout wins) and its body is read within the size limit, the budget and that deadline (bounded). A
// JSON request is decoded as strictly as a REST body (restjson.Decode); an answer in JSON leaves out the fields
// that are not set, as REST does.
func (s *Server) rpcHandler() (http.Handler, error) {
	service := vanguard.NewService(rulebookv1grpc.RulesService_ServiceDesc.ServiceName, s.grpcTarget(),
		vanguard.WithTargetProtocols(vanguard.ProtocolGRPC),
		vanguard.WithTargetCodecs(vanguard.CodecProto),
		vanguard.WithNoTargetCompression(), // the gRPC server decompresses nothing: Vanguard does
		vanguard.WithMaxMessageBufferBytes(uint32(s.cfg.MaxMessageBytes)))
	transcoder, err := vanguard.NewTranscoder([]*vanguard.Service{service},
		vanguard.WithCodec(func(vanguard.TypeResolver) vanguard.Codec { return strictJSON{} }),
		vanguard.WithUnknownHandler(http.HandlerFunc(s.notACall)))
	if err != nil {
		return nil, err
	}
	return webText(s.checked(s.bounded(transcoder))), nil
}

// Reasons of the refusals of a call whose headers no protocol can serve.
const (
	// ReasonMalformedTimeout: a call's Connect-Timeout-Ms (Connect) or grpc-timeout (gRPC-Web, REST) header is not a timeout
	// in its protocol's form.
	ReasonMalformedTimeout = "MALFORMED_TIMEOUT"
	// ReasonHTTP2Required: a gRPC call (not gRPC-Web) over HTTP/1, which cannot carry gRPC's trailers.
	ReasonHTTP2Required = "HTTP2_REQUIRED"
)

// connectTimeout is the form of a Connect-Timeout-Ms: 1 to 10 digits.
var connectTimeout = regexp.MustCompile(`^[0-9]{1,10}$`)

// checked returns next, to which a call passes only if a protocol can serve it. A gRPC call over HTTP/1 is answered
// HTTP 400 HTTP2_REQUIRED, in Connect's JSON (as curl shows it), rather than grpc-go's 505; a call whose
// Connect-Timeout-Ms or grpc-timeout is not in its protocol's form, MALFORMED_TIMEOUT in its protocol's error, rather
// than Vanguard's plain text.
func (s *Server) checked(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ct := r.Header.Get("Content-Type")
		if r.ProtoMajor < 2 && strings.HasPrefix(ct, "application/grpc") && !strings.HasPrefix(ct, "application/grpc-web") {
			asConnect := r.Clone(r.Context())
			asConnect.Header.Set("Content-Type", "application/json")
			s.refuseCall(w, asConnect, refusal.New(codes.InvalidArgument, ReasonHTTP2Required, "gRPC needs HTTP/2, and this "+
				"request is HTTP/1: call the gRPC port, or this one with Connect or gRPC-Web", nil))
			return
		}
		if err := malformedTimeout(r.Header, connectTimeoutHeader, grpcTimeoutHeader); err != nil {
			s.refuseCall(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Headers that give a call's timeout.
const (
	connectTimeoutHeader = "Connect-Timeout-Ms"
	grpcTimeoutHeader    = "Grpc-Timeout"
)

// timeoutForms are the forms of the values of the headers that give a call's timeout, and how to tell one.
var timeoutForms = map[string]struct {
	form  string
	valid func(string) bool
}{
	connectTimeoutHeader: {"1 to 10 digits (milliseconds)", connectTimeout.MatchString},
	grpcTimeoutHeader: {"1 to 8 digits and a unit (H, M, S, m, u or n)", func(v string) bool {
		_, ok := parseGRPCTimeout(v)
		return ok
	}},
}

// malformedTimeout returns the refusal (MALFORMED_TIMEOUT) of a request whose header, one of headers (each a key of
// timeoutForms), is given twice or is not in its form; nil if there is none.
func malformedTimeout(h http.Header, headers ...string) error {
	for _, header := range headers {
		t := timeoutForms[header]
		if v := h.Values(header); len(v) > 1 || len(v) == 1 && !t.valid(v[0]) {
			return refusal.New(codes.InvalidArgument, ReasonMalformedTimeout, header+" is not "+t.form, nil)
		}
	}
	return nil
}

// bounded returns next, each of whose requests has the call's deadline from its arrival and has its body read
// before next sees it, as the REST gateway reads a body (gateway.ReadBody), taking from the budget the body and, for
// JSON, what decoding it is estimated to take. It refuses a compressed body and a gRPC-Web body that is not one
// message (checkFraming), and gives Vanguard an empty Connect JSON body as the empty message, as REST reads it. A
// body it refuses is answered here, in the request's protocol, and counted as a refusal of its method.
func (s *Server) bounded(next http.Handler) http.Handler {
	limits := gateway.Limits{MaxBytes: int64(s.cfg.MaxMessageBytes + envelopeBytes), Budget: s.budget, ReadTime: s.cfg.readTime}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.CallTimeout)
		defer cancel()
		r = r.WithContext(ctx)
		json := strings.Contains(r.Header.Get("Content-Type"), "json")
		body, release, err := gateway.ReadBody(w, r, limits)
		if err == nil {
			if err = checkFraming(r, body); err != nil {
				release()
			} else if json {
				release, err = gateway.ChargeJSON(body, release, s.budget)
			}
		}
		if err != nil {
			s.refuseCall(w, r, err)
			return
		}
		defer release()
		if len(body) == 0 && json && connectUnary(r) {
			body = []byte("{}") // an empty JSON body is the empty message, as in REST (Vanguard takes it for none)
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		if connectUnary(r) && r.Header.Get("Connect-Protocol-Version") == "" {
			r.Header.Set("Connect-Protocol-Version", "1") // optional to Connect's clients, required by Vanguard
		}
		next.ServeHTTP(w, r)
	})
}

// refuseCall answers r, a call over Connect, gRPC-Web or gRPC, with err in its protocol's error, closing the
// connection (what is left of its body is never read), and counts it as a refusal of its method. A Connect call's
// answer has the HTTP status that refusal.Classify gives err (REQUEST_TIMEOUT is the client's 408, not the 504 of a
// call past its deadline), as REST's has.
func (s *Server) refuseCall(w http.ResponseWriter, r *http.Request, err error) {
	s.metrics.CallRefused("", strings.TrimPrefix(r.URL.Path, rulesServicePrefix), err)
	w.Header().Set("Connection", "close")
	if connectUnary(r) {
		w = withStatus{w, refusal.Classify(err).HTTPStatus}
	}
	_ = connect.NewErrorWriter().Write(w, r, connectError(err))
}

// ReasonCompressionUnsupported is the reason of a Connect or gRPC-Web call whose request is compressed
// (Content-Encoding, grpc-encoding, or a gRPC-Web message flagged compressed): the server weighs a body against the
// budget of request memory as it arrives, so it decompresses none. Answers may still be compressed.
const ReasonCompressionUnsupported = "COMPRESSION_UNSUPPORTED"

// checkFraming returns the refusal of a call whose body the server does not take: a compressed one
// (COMPRESSION_UNSUPPORTED), or, for gRPC-Web (or gRPC), one that is not exactly one message in its envelope
// (MALFORMED_MESSAGE).
func checkFraming(r *http.Request, body []byte) error {
	for _, header := range []string{"Content-Encoding", "Grpc-Encoding"} {
		if e := r.Header.Get(header); e != "" && e != "identity" {
			return refusal.New(codes.InvalidArgument, ReasonCompressionUnsupported,
				header+" "+strconv.Quote(e)+": a request is taken uncompressed", nil)
		}
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") {
		return nil
	}
	malformed := func(why string) error {
		return refusal.New(codes.InvalidArgument, ReasonMalformedMessage, "the body is not one gRPC-Web message: "+why, nil)
	}
	switch {
	case len(body) < envelopeBytes:
		return malformed("it is shorter than a message's envelope")
	case body[0]&1 != 0:
		return refusal.New(codes.InvalidArgument, ReasonCompressionUnsupported,
			"the message is flagged compressed: a request is taken uncompressed", nil)
	case body[0] != 0:
		return malformed("its envelope's flags are not those of a message")
	case binary.BigEndian.Uint32(body[1:envelopeBytes]) != uint32(len(body)-envelopeBytes):
		return malformed("its envelope's length is not that of the bytes after it")
	}
	return nil
}

// connectUnary reports whether r is a Connect unary call: a POST whose content type is application/ but none of
// gRPC's, gRPC-Web's or Connect's streams.
func connectUnary(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	for _, other := range []string{"application/grpc", "application/connect+"} { // application/grpc-web too
		if strings.HasPrefix(ct, other) {
			return false
		}
	}
	return r.Method == http.MethodPost && strings.HasPrefix(ct, "application/")
}

// notACall answers a request on a call's path that is no call Vanguard takes, in Connect's JSON: a method other
// than POST is 405 METHOD_NOT_ALLOWED (Allow: POST), a content type of no protocol 415 UNSUPPORTED_MEDIA_TYPE. It is
// counted as a refusal of its method.
func (s *Server) notACall(w http.ResponseWriter, r *http.Request) {
	err := refusal.New(codes.InvalidArgument, refusal.ReasonUnsupportedMediaType,
		"a call takes the content type of Connect (application/json, application/proto), gRPC-Web or gRPC", nil)
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		err = refusal.New(codes.Unimplemented, refusal.ReasonMethodNotAllowed, "a call takes POST only", nil)
	}
	s.metrics.CallRefused("", strings.TrimPrefix(r.URL.Path, rulesServicePrefix), err)
	_ = connect.NewErrorWriter().Write(withStatus{w, refusal.Classify(err).HTTPStatus}, r, connectError(err))
}

// withStatus is a ResponseWriter whose answer has the status code, whatever its writer asks for.
type withStatus struct {
	http.ResponseWriter
	code int
}

// WriteHeader writes the header with w's code.
func (w withStatus) WriteHeader(int) { w.ResponseWriter.WriteHeader(w.code) }

// connectError returns err, a gRPC status, as the Connect error a Connect, gRPC-Web or gRPC client reads: its code,
// message and details (the ErrorInfo with the reason, a BadRequest, ...).
func connectError(err error) *connect.Error {
	st := status.Convert(err)
	ce := connect.NewError(connect.Code(st.Code()), errors.New(st.Message()))
	for _, a := range st.Proto().GetDetails() {
		if detail, err := connect.NewErrorDetail(a); err == nil {
			ce.AddDetail(detail)
		}
	}
	return ce
}

// strictJSON is Vanguard's codec "json" (Connect's JSON, and gRPC-Web's), which decodes a request as strictly as a
// REST body and answers with the fields that are set.
type strictJSON struct{ vanguard.JSONCodec }

// Unmarshal decodes data into msg as the REST gateway decodes a body (restjson.Decode), refusing it with the reason
// MALFORMED_JSON or INVALID_FIELD; an empty body (or only white space) is the empty message.
func (strictJSON) Unmarshal(data []byte, msg proto.Message) error {
	if err := restjson.Decode(data, msg); err != nil && !errors.Is(err, io.EOF) {
		return connectError(err)
	}
	return nil
}
