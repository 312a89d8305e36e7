// Package play is the web playground that rulebookd serves at /play/: plain HTML, CSS and JavaScript modules,
// embedded in the binary, that play every hosted game over the REST API of the same origin (hot-seat, or against
// the bot of SuggestMove), draw each board as SVG, and download and replay a game's record. Nothing is fetched from
// elsewhere and nothing is built: the files are served as they are committed (micropul-tiles.json, the Micropul
// engine's tile table, is written by its test with -update), with their content type, an ETag of their content and a
// Content-Security-Policy that lets the page load and call only its own origin.
package play

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/rulebook/rulebook/internal/refusal"
)

// Prefix is the path the playground is served under.
const Prefix = "/play/"

// Reasons of the playground's refusals, the REST API's for a request that calls nothing.
const (
	// ReasonUnknownPath: no file of the playground is at the path (HTTP 404).
	ReasonUnknownPath = refusal.ReasonUnknownPath
	// ReasonMethodNotAllowed: the playground's files take only GET and HEAD (HTTP 405), as the Allow header says.
	ReasonMethodNotAllowed = refusal.ReasonMethodNotAllowed
)

// ContentSecurityPolicy is the policy of every file of the playground: scripts, styles, images and calls from its
// own origin only; no inline script or style, no plugin, no frame, no form, no other base.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

//go:embed static
var static embed.FS

// file is one file the playground serves.
type file struct {
	body        []byte
	contentType string
	etag        string
}

// Handler serves the playground's files.
type Handler struct {
	files  map[string]file // by name under Prefix; "" is index.html
	refuse func(http.ResponseWriter, *http.Request, error)
}

// New returns the handler of the requests under Prefix, which answers a request it refuses (a method other than
// GET and HEAD, a path with no file) by calling refuse with the refusal, as the REST API answers a request that
// calls nothing.
func New(refuse func(http.ResponseWriter, *http.Request, error)) (*Handler, error) {
	h := &Handler{files: map[string]file{}, refuse: refuse}
	err := fs.WalkDir(static, "static", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := static.ReadFile(name)
		if err != nil {
			return err
		}
		h.add(strings.TrimPrefix(name, "static/"), body)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	h.files[""] = h.files["index.html"]
	return h, nil
}

// add adds the file name with body, its content type from its extension and its ETag from its content.
func (h *Handler) add(name string, body []byte) {
	sum := sha256.Sum256(body)
	h.files[name] = file{body: body, contentType: mime.TypeByExtension(path.Ext(name)),
		etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
}

// ServeHTTP serves the file at r's path under Prefix (index.html for Prefix itself) to GET and HEAD, with its
// content type, ETag (answering 304 to a request that has it already), Cache-Control: no-cache (a browser
// revalidates, so that a new build's files are never mixed with old ones) and the security headers.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, Prefix)
	f, found := h.files[name]
	switch {
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		w.Header().Set("Allow", "GET, HEAD")
		h.refuse(w, r, refusal.New(codes.Unimplemented, ReasonMethodNotAllowed,
			"the playground's files take GET and HEAD; the Allow header lists them",
			map[string]string{"method": shorten(r.Method)}))
		return
	case !ok || !found:
		h.refuse(w, r, refusal.New(codes.NotFound, ReasonUnknownPath,
			"no file of the playground at "+shorten(r.URL.Path)+"; "+Prefix+" is its page", nil))
		return
	}
	header := w.Header()
	header.Set("Content-Type", f.contentType)
	header.Set("ETag", f.etag)
	header.Set("Cache-Control", "no-cache")
	header.Set("Content-Security-Policy", ContentSecurityPolicy)
	header.Set("X-Content-Type-Options", "nosniff")
	header.Set("Referrer-Policy", "no-referrer")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.body)) // no Last-Modified: the ETag says it
}

// shorten returns s cut to 64 bytes at most, valid UTF-8, for a refusal's message.
func shorten(s string) string {
	if len(s) > 64 {
		s = s[:64]
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
