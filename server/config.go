package server

import (
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/rulebook/rulebook/server/identity"
	"github.com/rulebook/rulebook/server/tlsfiles"
	"github.com/rulebook/rulebook/server/tracing"
	"github.com/rulebook/rulebook/service/seal"
)

// Config is how a Server serves.
type Config struct {
	// MaxMessageBytes is the largest request accepted, in bytes: a gRPC message or a REST body.
	MaxMessageBytes int
	// MaxRequestMemory bounds the memory that the requests in flight take, in bytes: each holds its size and an
	// estimate of what it takes decoded, from before it is decoded until it is answered; one that does not fit in
	// what is left is refused with SERVER_BUSY. Zero means 32 MiB, or a quarter of the Go runtime's memory limit
	// (GOMEMLIMIT) if that is less.
	MaxRequestMemory int64
	// CallTimeout is the longest time a call may take, from the moment it arrives (its request still to be read); a
	// caller's shorter deadline wins.
	CallTimeout time.Duration
	// ReadTimeout and MinReadRate bound how long a request may take to arrive, from the moment its call opens: a
	// request of n bytes must be in within ReadTimeout + n/MinReadRate (bytes per second). A REST, Connect or
	// gRPC-Web body's time grows as its bytes arrive; a gRPC message is read whole, so its time is that of the largest
	// request (MaxMessageBytes). A request late is refused with REQUEST_TIMEOUT; until then it holds only its own
	// connection (a gRPC stream, an HTTP connection), never a call slot. Zero means defaultReadTimeout and
	// defaultMinReadRate.
	ReadTimeout time.Duration
	MinReadRate int
	// DrainDelay is, on shutdown, the time spent reporting NOT_SERVING (and closing every REST connection after its
	// answer) before refusing new calls.
	DrainDelay time.Duration
	// ShutdownTimeout is, on shutdown, the longest wait for the calls in flight to finish.
	ShutdownTimeout time.Duration
	// AcceptPlainStates lets every caller send and receive plain game states and choose seeds: only when every
	// caller is trusted. It excludes PlainStateCallers.
	AcceptPlainStates bool
	// PlainStateCallers are the callers, by name (see package identity), that may send and receive plain game states
	// and choose seeds; every other caller holds only tokens.
	PlainStateCallers []string
	// AcceptPlainScopedTokens lets the callers that hold only tokens open tokens of seal.ScopePlain: of boards a
	// caller chose (a plain state or a chosen seed).
	AcceptPlainScopedTokens bool
	// SealTokenFormat is the format of the state tokens the server seals (see service.Config): 0 for the current one,
	// or seal.Format1 while it runs beside replicas of a build that reads only format 1.
	SealTokenFormat seal.Format
	// APIKeys name the callers that send an API key; nil names none (a call with a key is then refused).
	APIKeys *identity.Keys
	// RequireCaller refuses RulesService calls from anonymous callers (neither a client certificate nor an API key)
	// with UNAUTHENTICATED; health checks, reflection, /healthz, /openapi.json and the playground's files stay open.
	RequireCaller bool
	// CallerMaxCalls gives named callers (admission.AnonymousCaller: the anonymous callers together) a share of the
	// calls: at most that many of their RulesService calls at once, more refused with SERVER_BUSY.
	CallerMaxCalls map[string]int
	// MaxConcurrentCalls is how many RulesService calls are served at once, counted once their request is in (a
	// request still arriving holds no call); more are refused with SERVER_BUSY.
	MaxConcurrentCalls int
	// MaxHeavyCalls is how many SolvePuzzle, Replay and SuggestMove calls are served at once; as many more wait, the rest are
	// refused.
	MaxHeavyCalls int
	// MaxGRPCConnections and MaxHTTPConnections bound the connections open at once on each listener; a connection
	// beyond waits to be accepted.
	MaxGRPCConnections, MaxHTTPConnections int
	// MaxStreamsPerConnection is how many calls one gRPC connection may have open at once (HTTP/2's
	// SETTINGS_MAX_CONCURRENT_STREAMS); a client waits for more.
	MaxStreamsPerConnection uint32
	// IdleTimeout closes a connection, gRPC or HTTP, that has had no call for that long.
	IdleTimeout time.Duration
	// MaxConnectionAge closes a gRPC connection (with GOAWAY, after its calls end) once it is that old, so that
	// clients spread over replicas that came up after them.
	MaxConnectionAge time.Duration
	// CORSOrigins are the origins ("https://app.example.com", or "*" for any) whose pages may call the HTTP
	// listener from a browser: REST, Connect and gRPC-Web; none (the default) sends no CORS header at all. See
	// withCORS.
	CORSOrigins []string
	// TLS, if its files are set, serves every listener over TLS 1.2 or later with the certificate of those files,
	// reloaded when they change; with a client CA file, the gRPC and HTTP listeners require a client certificate
	// signed by one of its CAs (the admin listener asks for none: it is for the operator's network and the probes).
	TLS tlsfiles.Files
	// Metrics keeps the metrics that the admin listener serves at /metrics; without, the server measures nothing.
	Metrics bool
	// Pprof serves the runtime's profiles at /debug/pprof/ on the admin listener.
	Pprof bool
	// Tracing traces every call, over both transports, with its provider; nil traces none.
	Tracing *tracing.Tracing
	// Version and Revision describe the build, for the logs and the metrics.
	Version, Revision string
	// Now is the clock that stamps each move with the time it was received (Ubongo Duel's receive times); nil
	// means time.Now. Tests and the conformance kit (conformance/) fix it, so that the answers do not depend on when
	// they are asked.
	Now func() time.Time
}

// defaultRequestMemory is the budget of request memory when the runtime's memory limit leaves room for it.
const defaultRequestMemory = 32 << 20

// requestMemory returns the budget of request memory: MaxRequestMemory, or if it is zero, defaultRequestMemory or a
// quarter of the Go runtime's memory limit if that is less (but never below MaxMessageBytes).
func (c Config) requestMemory() int64 {
	if c.MaxRequestMemory != 0 {
		return c.MaxRequestMemory
	}
	return max(min(defaultRequestMemory, debug.SetMemoryLimit(-1)/4), int64(c.MaxMessageBytes))
}

// Defaults of ReadTimeout and MinReadRate: the largest request of the default MaxMessageBytes (1 MiB) must arrive
// within 6 s, a request of a few KiB within about 2 s.
const (
	defaultReadTimeout = 2 * time.Second
	defaultMinReadRate = 256 << 10
)

// readTime returns how long a request of n bytes may take to arrive: ReadTimeout + n/MinReadRate, or their defaults.
func (c Config) readTime(n int64) time.Duration {
	timeout, rate := c.ReadTimeout, c.MinReadRate
	if timeout == 0 {
		timeout = defaultReadTimeout
	}
	if rate == 0 {
		rate = defaultMinReadRate
	}
	return timeout + time.Duration(n)*time.Second/time.Duration(rate)
}

// Check reports settings that make no sense.
func (c Config) Check() error {
	switch {
	case c.MaxMessageBytes < 1024:
		return fmt.Errorf("max message bytes %d: want at least 1024", c.MaxMessageBytes)
	case c.MaxRequestMemory != 0 && c.MaxRequestMemory < int64(c.MaxMessageBytes):
		return fmt.Errorf("max request memory %d must be at least the max message bytes %d", c.MaxRequestMemory, c.MaxMessageBytes)
	case c.CallTimeout <= 0:
		return errors.New("call timeout must be positive")
	case c.ReadTimeout < 0 || c.MinReadRate < 0:
		return errors.New("read timeout and min read rate must not be negative")
	case c.DrainDelay < 0 || c.ShutdownTimeout < 0:
		return errors.New("drain delay and shutdown timeout must not be negative")
	case c.MaxConcurrentCalls < 1 || c.MaxHeavyCalls < 1:
		return errors.New("max concurrent calls and max heavy calls must be at least 1")
	case c.MaxHeavyCalls >= c.MaxConcurrentCalls:
		return fmt.Errorf("max heavy calls %d must be below max concurrent calls %d, or heavy calls could take every slot",
			c.MaxHeavyCalls, c.MaxConcurrentCalls)
	case c.MaxGRPCConnections < 1 || c.MaxHTTPConnections < 1 || c.MaxStreamsPerConnection < 1:
		return errors.New("max connections and max streams per connection must be at least 1")
	case c.IdleTimeout <= 0 || c.MaxConnectionAge <= 0:
		return errors.New("idle timeout and max connection age must be positive")
	case c.AcceptPlainStates && len(c.PlainStateCallers) > 0:
		return errors.New("accept plain states (from every caller) or name the plain-state callers, not both")
	}
	for name, n := range c.CallerMaxCalls {
		if n < 1 {
			return fmt.Errorf("caller %q: max calls %d: want at least 1", name, n)
		}
	}
	if err := c.TLS.Check(); err != nil {
		return err
	}
	return checkOrigins(c.CORSOrigins, c.AcceptPlainStates)
}
