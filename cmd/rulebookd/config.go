package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rulebook/rulebook/server"
	"github.com/rulebook/rulebook/service/seal"
)

// config is everything rulebookd can be told. Each setting comes from its flag, else its environment variable,
// else its default.
type config struct {
	grpcAddr    string
	httpAddr    string
	adminAddr   string
	logFormat   string
	logLevel    string
	logSampling bool
	version     bool // print the version and exit
	// stateKeys is the text of a key file, from RULEBOOK_STATE_KEYS only (a flag would show it in the process list).
	stateKeys     string
	stateKeysFile string
	dataDir       string
	// apiKeysFile is the file of the hashes of the API keys that name callers; empty for none.
	apiKeysFile string
	// memoryLimit is the Go runtime's memory limit, unless GOMEMLIMIT sets it; 0 means from the cgroup's.
	memoryLimit int64
	// sealTokenFormat is the format of the state tokens the server seals: 1 or 2.
	sealTokenFormat int
	// fixedClock is the RFC 3339 time at which every move is received, for conformance tests; empty for the real one.
	fixedClock string
	// server is how the server serves.
	server server.Config
}

// stateKeysEnv is the environment variable that may hold the state keys themselves, in the key file's format.
const stateKeysEnv = "RULEBOOK_STATE_KEYS"

// setting describes one configuration value: its flag, its environment variable and its default.
type setting struct {
	flag, env, def, usage string
	bind                  func(fs *flag.FlagSet, name, def, usage string) error
}

// parseConfig reads the configuration from args (without the program name) and the environment through getenv.
func parseConfig(args []string, getenv func(string) string, output io.Writer) (config, error) {
	cfg := config{stateKeys: getenv(stateKeysEnv)}
	fs := flag.NewFlagSet("rulebookd", flag.ContinueOnError)
	fs.SetOutput(output)
	settings := []setting{
		{"grpc-addr", "RULEBOOK_GRPC_ADDR", ":50051", "address for gRPC", stringVar(&cfg.grpcAddr)},
		{"http-addr", "RULEBOOK_HTTP_ADDR", ":8080", "address for REST, /healthz, /openapi.json and RulesService over Connect and gRPC-Web", stringVar(&cfg.httpAddr)},
		{"admin-addr", "RULEBOOK_ADMIN_ADDR", "127.0.0.1:9090", "address for /healthz and /metrics (and /debug/pprof/ with -pprof): for the operator's network only, so this host alone by default (:9090 for every interface); empty for none (and no metrics kept)", stringVar(&cfg.adminAddr)},
		{"pprof", "RULEBOOK_PPROF", "false", "serve the runtime's profiles at /debug/pprof/ on the admin address", boolVar(&cfg.server.Pprof)},
		{"log-format", "RULEBOOK_LOG_FORMAT", "console", "log format: console (for people) or json (for production)", stringVar(&cfg.logFormat)},
		{"log-level", "RULEBOOK_LOG_LEVEL", "info", "least severe level logged: debug, info, warn or error", stringVar(&cfg.logLevel)},
		{"log-sampling", "RULEBOOK_LOG_SAMPLING", "false", "sample the log: of the lines of a kind, each second the first 100 and then one in 100 (by default every line)", boolVar(&cfg.logSampling)},
		{"max-message-bytes", "RULEBOOK_MAX_MESSAGE_BYTES", "1048576", "largest request accepted, in bytes (gRPC message or REST body)", intVar(&cfg.server.MaxMessageBytes)},
		{"max-request-memory", "RULEBOOK_MAX_REQUEST_MEMORY", "0", "memory the requests in flight may take, in bytes (their size and an estimate of what they take decoded); more are refused with RESOURCE_EXHAUSTED; 0: 32 MiB, or a quarter of the memory limit if less", int64Var(&cfg.server.MaxRequestMemory)},
		{"memory-limit", "RULEBOOK_MEMORY_LIMIT", "0", "the Go runtime's memory limit, in bytes, unless GOMEMLIMIT sets it; 0: 90% of the container's (cgroup) memory limit, if it has one", int64Var(&cfg.memoryLimit)},
		{"call-timeout", "RULEBOOK_CALL_TIMEOUT", "10s", "longest time a call may take from its arrival, its request still to come; a caller's shorter deadline wins", durationVar(&cfg.server.CallTimeout)},
		{"read-timeout", "RULEBOOK_READ_TIMEOUT", "2s", "time a request has to arrive, plus its size at -min-read-rate: a gRPC message of -max-message-bytes, a REST, Connect or gRPC-Web body as its bytes come; a request late is refused with REQUEST_TIMEOUT", durationVar(&cfg.server.ReadTimeout)},
		{"min-read-rate", "RULEBOOK_MIN_READ_RATE", "262144", "slowest rate, in bytes per second, at which a request may arrive (see -read-timeout)", intVar(&cfg.server.MinReadRate)},
		{"drain-delay", "RULEBOOK_DRAIN_DELAY", "0s", "on SIGTERM, time spent reporting NOT_SERVING before refusing new calls", durationVar(&cfg.server.DrainDelay)},
		{"shutdown-timeout", "RULEBOOK_SHUTDOWN_TIMEOUT", "20s", "on SIGTERM, longest wait for calls in flight to finish", durationVar(&cfg.server.ShutdownTimeout)},
		{"state-keys-file", "RULEBOOK_STATE_KEYS_FILE", "", "file of the keys that seal state tokens, one \"id:base64\" per line, the first sealing; refused if others, or a group not the server's own, may read it " +
			"(or the keys themselves in " + stateKeysEnv + "); without either, a key is made once and kept in the data directory", stringVar(&cfg.stateKeysFile)},
		{"data-dir", "RULEBOOK_DATA_DIR", defaultDataDir(getenv), "directory for the generated state key (file state-keys, owner-only)", stringVar(&cfg.dataDir)},
		{"accept-plain-states", "RULEBOOK_ACCEPT_PLAIN_STATES", "false", "accept and answer plain game states and chosen seeds: only when every caller is trusted", boolVar(&cfg.server.AcceptPlainStates)},
		{"fixed-clock", "RULEBOOK_FIXED_CLOCK", "", "an RFC 3339 `time` at which every move is received, whenever it comes (Ubongo Duel's receive times): for conformance tests only (conformance/README.md), and only with -accept-plain-states", stringVar(&cfg.fixedClock)},
		{"max-concurrent-calls", "RULEBOOK_MAX_CONCURRENT_CALLS", "32", "calls served at once, counted once their request is in (a request still arriving holds none); more are refused with RESOURCE_EXHAUSTED", intVar(&cfg.server.MaxConcurrentCalls)},
		{"max-grpc-connections", "RULEBOOK_MAX_GRPC_CONNECTIONS", "256", "gRPC connections open at once; more wait to be accepted", intVar(&cfg.server.MaxGRPCConnections)},
		{"max-http-connections", "RULEBOOK_MAX_HTTP_CONNECTIONS", "1024", "HTTP connections open at once; more wait to be accepted", intVar(&cfg.server.MaxHTTPConnections)},
		{"max-streams-per-connection", "RULEBOOK_MAX_STREAMS_PER_CONNECTION", "32", "calls one gRPC connection may have open at once", uint32Var(&cfg.server.MaxStreamsPerConnection)},
		{"idle-timeout", "RULEBOOK_IDLE_TIMEOUT", "5m", "close a gRPC or HTTP connection without a call for that long (keep it longer than a proxy's own idle timeout)", durationVar(&cfg.server.IdleTimeout)},
		{"max-connection-age", "RULEBOOK_MAX_CONNECTION_AGE", "30m", "close a gRPC connection (GOAWAY, once its calls end) that is that old, so that clients spread over new replicas", durationVar(&cfg.server.MaxConnectionAge)},
		{"cors-origins", "RULEBOOK_CORS_ORIGINS", "", "comma-separated `origins` (https://app.example.com, or * for any) whose web pages may call the HTTP address (REST, Connect, gRPC-Web) from a browser; none: no CORS header is sent", listVar(&cfg.server.CORSOrigins)},
		{"api-keys-file", "RULEBOOK_API_KEYS_FILE", "", "file of the API keys that name callers, one \"name:sha256:<hex of the key's SHA-256>\" per line (# comments); owner-only, or refused", stringVar(&cfg.apiKeysFile)},
		{"plain-state-callers", "RULEBOOK_PLAIN_STATE_CALLERS", "", "comma-separated `names` of the callers (API key names, certificate URI SANs or common names) that may send and receive plain states and chosen seeds; the others hold only tokens (not with -accept-plain-states)", listVar(&cfg.server.PlainStateCallers)},
		{"seal-token-format", "RULEBOOK_SEAL_TOKEN_FORMAT", "2", "format of the state tokens sealed: 2, or 1 while replicas of a build that reads only format 1 serve beside this one (a rolling update); tokens of either format are opened", intVar(&cfg.sealTokenFormat)},
		{"accept-plain-scoped-tokens", "RULEBOOK_ACCEPT_PLAIN_SCOPED_TOKENS", "false", "let callers that hold only tokens open tokens of the plain scope: of boards a caller chose (a plain state or a chosen seed)", boolVar(&cfg.server.AcceptPlainScopedTokens)},
		{"require-caller", "RULEBOOK_REQUIRE_CALLER", "false", "refuse RulesService calls from callers without an API key or a client certificate (UNAUTHENTICATED, HTTP 401); health checks, reflection, /healthz, /openapi.json and /play/ stay open", boolVar(&cfg.server.RequireCaller)},
		{"caller-max-calls", "RULEBOOK_CALLER_MAX_CALLS", "", "comma-separated `name=N`: at most N calls at once of the caller name (anonymous: every anonymous caller together); more are refused with RESOURCE_EXHAUSTED", callsVar(&cfg.server.CallerMaxCalls)},
		{"max-heavy-calls", "RULEBOOK_MAX_HEAVY_CALLS", strconv.Itoa(max(1, runtime.GOMAXPROCS(0)/2)), "SolvePuzzle, Replay and SuggestMove calls served at once (by default half the CPUs the process may use, so that light calls keep the rest); as many more wait, the rest are refused", intVar(&cfg.server.MaxHeavyCalls)},
		{"tls-cert-file", "RULEBOOK_TLS_CERT_FILE", "", "PEM certificate (chain) with which every address serves TLS 1.2+, with -tls-key-file; read again every second, a new one used by new connections", stringVar(&cfg.server.TLS.Cert)},
		{"tls-key-file", "RULEBOOK_TLS_KEY_FILE", "", "PEM private key of -tls-cert-file", stringVar(&cfg.server.TLS.Key)},
		{"tls-client-ca-file", "RULEBOOK_TLS_CLIENT_CA_FILE", "", "PEM CA certificates: the gRPC and HTTP addresses require a client certificate signed by one of them (mutual TLS; not the admin address); needs -tls-cert-file", stringVar(&cfg.server.TLS.ClientCA)},
	}
	for _, s := range settings {
		def := s.def
		if v := getenv(s.env); v != "" {
			def = v
		}
		if err := s.bind(fs, s.flag, def, fmt.Sprintf("%s (env %s)", s.usage, s.env)); err != nil {
			return config{}, fmt.Errorf("%s=%q: %w", s.env, def, err)
		}
	}
	fs.BoolVar(&cfg.version, "version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	cfg.server.Version, cfg.server.Revision = buildVersion()
	cfg.server.Metrics = cfg.adminAddr != "" // nobody could read them
	cfg.server.SealTokenFormat = seal.Format(cfg.sealTokenFormat)
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if cfg.fixedClock != "" {
		at, err := time.Parse(time.RFC3339Nano, cfg.fixedClock)
		if err != nil {
			return config{}, fmt.Errorf("fixed clock: %w", err)
		}
		cfg.server.Now = func() time.Time { return at }
	}
	return cfg, cfg.check()
}

// check reports settings that parse but make no sense.
func (c config) check() error {
	switch {
	case c.logFormat != "console" && c.logFormat != "json":
		return fmt.Errorf("log format %q: want console or json", c.logFormat)
	case c.stateKeys != "" && c.stateKeysFile != "":
		return errors.New("state keys come from " + stateKeysEnv + " or from a file, not both")
	case c.memoryLimit < 0:
		return errors.New("memory limit must not be negative")
	case c.sealTokenFormat != int(seal.Format1) && c.sealTokenFormat != int(seal.Format2):
		return fmt.Errorf("seal token format %d: want 1 or 2", c.sealTokenFormat)
	case c.server.Now != nil && !c.server.AcceptPlainStates:
		return errors.New("a fixed clock is for conformance tests only: it needs -accept-plain-states")
	case c.stateKeys == "" && c.stateKeysFile == "" && c.dataDir == "":
		return errors.New("no state keys and no data directory to keep a generated one in: set -data-dir or -state-keys-file")
	}
	return c.server.Check()
}

// version is the version of this build, as the build sets it (-ldflags "-X main.version=v1.2.3"); empty means the
// module's version that the go command recorded, "(devel)" for a build from a checkout.
var version string

// buildVersion returns the version of this build and the VCS revision it was built from ("" if not recorded).
func buildVersion() (v, revision string) {
	v = version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v, ""
	}
	if v == "" {
		v = info.Main.Version
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			revision = s.Value
		}
	}
	return v, revision
}

// defaultDataDir is where rulebookd keeps its generated state key unless told otherwise: $XDG_STATE_HOME/rulebook,
// else $HOME/.local/state/rulebook; empty when neither variable is set.
func defaultDataDir(getenv func(string) string) string {
	if dir := getenv("XDG_STATE_HOME"); dir != "" {
		return filepath.Join(dir, "rulebook")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".local", "state", "rulebook")
	}
	return ""
}

// stringVar binds a string setting to p.
func stringVar(p *string) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		fs.StringVar(p, name, def, usage)
		return nil
	}
}

// intVar binds an integer setting to p.
func intVar(p *int) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		v, err := strconv.Atoi(def)
		fs.IntVar(p, name, v, usage)
		return err
	}
}

// uint32Var binds a small unsigned integer setting to p.
func uint32Var(p *uint32) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		v := uint32Value{p}
		err := v.Set(def) // before Var, which takes the default from it
		fs.Var(v, name, usage)
		return err
	}
}

// uint32Value is a flag.Value of the uint32 at p.
type uint32Value struct{ p *uint32 }

// String formats the value (0 for the zero uint32Value, which package flag makes to tell defaults).
func (v uint32Value) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.FormatUint(uint64(*v.p), 10)
}

// Set parses s into the value.
func (v uint32Value) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 32)
	*v.p = uint32(n)
	return err
}

// int64Var binds a large integer setting to p.
func int64Var(p *int64) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		v, err := strconv.ParseInt(def, 10, 64)
		fs.Int64Var(p, name, v, usage)
		return err
	}
}

// boolVar binds a true/false setting to p.
func boolVar(p *bool) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		v, err := strconv.ParseBool(def)
		fs.BoolVar(p, name, v, usage)
		return err
	}
}

// listVar binds a comma-separated list (white space around each item ignored, empty items dropped) to p.
func listVar(p *[]string) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		v := listValue{p}
		err := v.Set(def)
		fs.Var(v, name, usage)
		return err
	}
}

// listValue is a flag.Value of the list at p.
type listValue struct{ p *[]string }

// String formats the list as it is given (empty for the zero listValue, which package flag makes to tell defaults).
func (v listValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

// Set parses s, comma-separated, into the list.
func (v listValue) Set(s string) error {
	var items []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	*v.p = items
	return nil
}

// callsVar binds a comma-separated list of name=N (white space around each item ignored) to p.
func callsVar(p *map[string]int) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		v := callsValue{p}
		err := v.Set(def)
		fs.Var(v, name, usage)
		return err
	}
}

// callsValue is a flag.Value of the map at p, of names to numbers of calls.
type callsValue struct{ p *map[string]int }

// String formats the map as Set takes it, sorted by name (empty for the zero callsValue).
func (v callsValue) String() string {
	if v.p == nil {
		return ""
	}
	var items []string
	for _, name := range slices.Sorted(maps.Keys(*v.p)) {
		items = append(items, name+"="+strconv.Itoa((*v.p)[name]))
	}
	return strings.Join(items, ",")
}

// Set parses s, comma-separated name=N items, into the map.
func (v callsValue) Set(s string) error {
	var items []string
	if err := (listValue{&items}).Set(s); err != nil {
		return err
	}
	calls := make(map[string]int, len(items))
	for _, item := range items {
		i := strings.LastIndex(item, "=")
		if i <= 0 {
			return fmt.Errorf("%q: want name=N", item)
		}
		n, err := strconv.Atoi(item[i+1:])
		if err != nil {
			return fmt.Errorf("%q: want name=N: %w", item, err)
		}
		calls[item[:i]] = n
	}
	*v.p = calls
	return nil
}

// durationVar binds a duration setting (such as 10s) to p.
func durationVar(p *time.Duration) func(*flag.FlagSet, string, string, string) error {
	return func(fs *flag.FlagSet, name, def, usage string) error {
		v, err := time.ParseDuration(def)
		fs.DurationVar(p, name, v, usage)
		return err
	}
}
