// Package identity names the callers of rulebookd: by the client certificate that mutual TLS verified (its first URI
// SAN, such as a SPIFFE ID, else its subject's common name) or by an API key sent as "Authorization: Bearer KEY"
// (gRPC metadata authorization), which a key file of hashes names (see Keys). It records each call's caller in the
// call's context (package service/caller), for the logs, the metrics, the limits and the service to read.
package identity

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/service/caller"
)

// Reasons of the calls refused for who made them, all UNAUTHENTICATED (HTTP 401).
const (
	// ReasonAPIKeyUnknown: the call brings an API key that no line of the key file names.
	ReasonAPIKeyUnknown = "API_KEY_UNKNOWN"
	// ReasonAuthorizationMalformed: the call's Authorization is not one "Bearer KEY".
	ReasonAuthorizationMalformed = "AUTHORIZATION_MALFORMED"
	// ReasonCallerRequired: the call brings neither a client certificate nor an API key, and the server serves only
	// named callers.
	ReasonCallerRequired = "CALLER_REQUIRED"
)

// authorizationHeader is the header, and the gRPC metadata key, that brings an API key.
const authorizationHeader = "authorization"

// Identifier names callers by their client certificates and by the API keys of its key file.
type Identifier struct {
	keys *Keys // nil: no key names a caller
}

// NewIdentifier returns the identifier of callers by certificate and by keys (nil for none).
func NewIdentifier(keys *Keys) *Identifier {
	if keys == nil {
		keys = &Keys{}
	}
	return &Identifier{keys: keys}
}

// HTTP returns the caller of r: its API key if it sends an Authorization header, else its verified client
// certificate, else Anonymous.
func (id *Identifier) HTTP(r *http.Request) caller.Caller {
	authorization := r.Header.Values(authorizationHeader)
	return id.identify(r.TLS, authorization)
}

// GRPC returns the caller of the gRPC call of ctx, as HTTP does for a request: from its authorization metadata,
// else from its peer's verified client certificate.
func (id *Identifier) GRPC(ctx context.Context) caller.Caller {
	md, _ := metadata.FromIncomingContext(ctx)
	var state *tls.ConnectionState
	if p, ok := peer.FromContext(ctx); ok {
		if info, ok := p.AuthInfo.(credentials.TLSInfo); ok {
			state = &info.State
		}
	}
	return id.identify(state, md.Get(authorizationHeader))
}

// identify returns the caller of a connection in state (nil: not TLS) that sent the authorization values.
func (id *Identifier) identify(state *tls.ConnectionState, authorization []string) caller.Caller {
	if len(authorization) > 0 {
		return id.keyCaller(authorization)
	}
	if state != nil && len(state.VerifiedChains) > 0 && len(state.VerifiedChains[0]) > 0 {
		return caller.Caller{Name: CertificateName(state.VerifiedChains[0][0])}
	}
	return caller.Caller{Name: caller.Anonymous}
}

// keyCaller returns the caller named by the API key of authorization, the values of the Authorization header: one
// "Bearer KEY" (the scheme in any case).
func (id *Identifier) keyCaller(authorization []string) caller.Caller {
	scheme, key, ok := strings.Cut(authorization[0], " ")
	key = strings.TrimSpace(key)
	if len(authorization) != 1 || !ok || !strings.EqualFold(scheme, "Bearer") || key == "" {
		return caller.Caller{Err: refusal.New(codes.Unauthenticated, ReasonAuthorizationMalformed,
			"send an API key as one Authorization: Bearer KEY", nil)}
	}
	name, ok := id.keys.Name(key)
	if !ok {
		return caller.Caller{Err: refusal.New(codes.Unauthenticated, ReasonAPIKeyUnknown, "no caller holds this API key", nil)}
	}
	return caller.Caller{Name: name}
}

// CertificateName returns the name of the caller that cert, a verified client certificate, names: its first URI SAN
// (a SPIFFE ID such as spiffe://example.org/game-server), else its subject's common name.
func CertificateName(cert *x509.Certificate) string {
	if len(cert.URIs) > 0 {
		return cert.URIs[0].String()
	}
	return cert.Subject.CommonName
}

// CallerRequired is the refusal of an anonymous call by a server that serves only named callers.
var CallerRequired = refusal.New(codes.Unauthenticated, ReasonCallerRequired,
	"this server serves only named callers: send an API key (Authorization: Bearer KEY) or a client certificate", nil)
