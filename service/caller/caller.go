// Package caller carries, in a call's context, who made the call: the name its client certificate or API key gives
// it, or none (an anonymous caller). The server names each caller (package server/identity); the service reads the
// name to decide what the caller may do.
package caller

import "context"

// Anonymous is the name of a caller that presented neither a client certificate nor an API key.
const Anonymous = ""

// Caller is who made a call.
type Caller struct {
	// Name is the caller's name (a certificate's URI SAN or common name, an API key's name), or Anonymous.
	Name string
	// Err, if not nil, is why the caller could not be named (an API key nobody holds): the call is to be refused
	// with it.
	Err error
}

// key is the context key of a call's Caller.
type key struct{}

// NewContext returns ctx with c as its caller.
func NewContext(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, key{}, c)
}

// FromContext returns the caller of ctx, and whether one was recorded.
func FromContext(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(key{}).(Caller)
	return c, ok
}

// Name returns the name of the caller of ctx: Anonymous if none was recorded.
func Name(ctx context.Context) string {
	c, _ := FromContext(ctx)
	return c.Name
}
