package server

import (
	"encoding/base64"
	"io"
	"net/http"
	"strings"
)

// webTextType starts the content type of gRPC-Web's text mode (application/grpc-web-text, +proto or +json), the
// grpc-web JavaScript client's default: gRPC-Web whose request and answer bodies are in base64.
const webTextType = "application/grpc-web-text"

// webText returns next, to which a gRPC-Web call in text mode is passed as one in binary mode (Vanguard serves only
// that): its body decoded from base64 as it is read (one that is not base64 cannot be read: MALFORMED_BODY), and its
// answer's body encoded in base64, under the text mode's content type. Other requests pass as they are.
func webText(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		subtype, ok := strings.CutPrefix(r.Header.Get("Content-Type"), webTextType)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		r.Header.Set("Content-Type", "application/grpc-web"+subtype)
		r.Body = struct {
			io.Reader
			io.Closer
		}{base64.NewDecoder(base64.StdEncoding, r.Body), r.Body}
		r.ContentLength = -1 // what it decodes to is known once it is read
		tw := &textWriter{ResponseWriter: w}
		tw.body = base64.NewEncoder(base64.StdEncoding, w)
		next.ServeHTTP(tw, r)
		_ = tw.body.Close() // the last bytes, padded
	})
}

// textWriter writes an answer of gRPC-Web's binary mode as one of its text mode: its content type the text mode's,
// its body in base64.
type textWriter struct {
	http.ResponseWriter
	body        io.WriteCloser // the base64 encoder of the body, writing to ResponseWriter
	wroteHeader bool
}

// WriteHeader writes the header, with the content type of the text mode.
func (t *textWriter) WriteHeader(code int) {
	if t.wroteHeader {
		return
	}
	t.wroteHeader = true
	h := t.Header()
	if subtype, ok := strings.CutPrefix(h.Get("Content-Type"), "application/grpc-web"); ok && !strings.HasPrefix(subtype, "-text") {
		h.Set("Content-Type", webTextType+subtype)
	}
	h.Del("Content-Length") // of the bytes before base64
	t.ResponseWriter.WriteHeader(code)
}

// Write writes b, in base64, to the body.
func (t *textWriter) Write(b []byte) (int, error) {
	t.WriteHeader(http.StatusOK)
	return t.body.Write(b)
}

// Flush sends what is written so far, but for the last bytes of a base64 group still to be completed.
func (t *textWriter) Flush() { _ = http.NewResponseController(t.ResponseWriter).Flush() }

// Unwrap returns the ResponseWriter, for http.ResponseController.
func (t *textWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }
