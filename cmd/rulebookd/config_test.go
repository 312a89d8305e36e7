package main

import (
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rulebook/rulebook/server/tlsfiles"
	"github.com/rulebook/rulebook/service/seal"
)

// TestParseConfig checks defaults, environment variables, flags winning over them, and refused values.
func TestParseConfig(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    func(config) bool
		wantErr bool
	}{
		{name: "defaults", want: func(c config) bool {
			return c.grpcAddr == ":50051" && c.httpAddr == ":8080" && c.adminAddr == "127.0.0.1:9090" && c.logFormat == "console" &&
				c.server.CallTimeout == 10*time.Second && c.server.MaxMessageBytes == 1<<20 && c.server.DrainDelay == 0 &&
				c.dataDir == "/home/player/.local/state/rulebook" && !c.server.AcceptPlainStates && c.stateKeys == "" &&
				c.server.MaxConcurrentCalls == 32 && c.server.MaxHeavyCalls == max(1, runtime.GOMAXPROCS(0)/2) &&
				c.server.MaxStreamsPerConnection == 32 && c.server.IdleTimeout == 5*time.Minute && c.server.MaxRequestMemory == 0 && c.memoryLimit == 0
		}},
		{name: "XDG state home", env: map[string]string{"XDG_STATE_HOME": "/var/state"},
			want: func(c config) bool { return c.dataDir == "/var/state/rulebook" }},
		{name: "state keys from the environment", env: map[string]string{"RULEBOOK_STATE_KEYS": "k:AAAA"},
			want: func(c config) bool { return c.stateKeys == "k:AAAA" }},
		{name: "plain states", args: []string{"-accept-plain-states"}, want: func(c config) bool { return c.server.AcceptPlainStates }},
		{name: "keys from the environment and a file", args: []string{"-state-keys-file", "/k"},
			env: map[string]string{"RULEBOOK_STATE_KEYS": "k:AAAA"}, wantErr: true},
		{name: "no home, no data directory", env: map[string]string{"HOME": ""}, wantErr: true},
		{name: "no home, a key file", args: []string{"-state-keys-file", "/k"}, env: map[string]string{"HOME": ""},
			want: func(c config) bool { return c.stateKeysFile == "/k" }},
		{name: "callers", args: []string{"-plain-state-callers", "game-server, spiffe://example.org/bot", "-require-caller",
			"-caller-max-calls", "bot=2, spiffe://example.org/x=3", "-api-keys-file", "/keys"},
			env: map[string]string{"RULEBOOK_ACCEPT_PLAIN_SCOPED_TOKENS": "true"},
			want: func(c config) bool {
				return strings.Join(c.server.PlainStateCallers, " ") == "game-server spiffe://example.org/bot" && c.server.RequireCaller &&
					c.server.CallerMaxCalls["bot"] == 2 && c.server.CallerMaxCalls["spiffe://example.org/x"] == 3 &&
					c.apiKeysFile == "/keys" && c.server.AcceptPlainScopedTokens
			}},
		{name: "plain states for every caller and for some", args: []string{"-accept-plain-states", "-plain-state-callers", "a"}, wantErr: true},
		{name: "fixed clock", args: []string{"-accept-plain-states", "-fixed-clock", "2025-01-01T00:00:00Z"},
			want: func(c config) bool { return c.server.Now().Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) }},
		{name: "fixed clock from the environment", env: map[string]string{"RULEBOOK_FIXED_CLOCK": "2025-01-01T01:00:00.5+01:00",
			"RULEBOOK_ACCEPT_PLAIN_STATES": "true"},
			want: func(c config) bool { return c.server.Now().Equal(time.Date(2025, 1, 1, 0, 0, 0, 5e8, time.UTC)) }},
		{name: "no fixed clock by default", want: func(c config) bool { return c.server.Now == nil }},
		{name: "fixed clock without plain states", args: []string{"-fixed-clock", "2025-01-01T00:00:00Z"}, wantErr: true},
		{name: "fixed clock not RFC 3339", args: []string{"-accept-plain-states", "-fixed-clock", "2025-01-01"}, wantErr: true},
		{name: "caller calls without a number", args: []string{"-caller-max-calls", "bot"}, wantErr: true},
		{name: "caller calls of zero", args: []string{"-caller-max-calls", "bot=0"}, wantErr: true},
		{name: "no heavy calls", args: []string{"-max-heavy-calls", "0"}, wantErr: true},
		{name: "heavy calls below all calls", args: []string{"-max-concurrent-calls", "4", "-max-heavy-calls", "3"},
			want: func(c config) bool { return c.server.MaxConcurrentCalls == 4 && c.server.MaxHeavyCalls == 3 }},
		{name: "heavy calls as many as all calls", args: []string{"-max-concurrent-calls", "4", "-max-heavy-calls", "4"}, wantErr: true},
		{name: "bad boolean", env: map[string]string{"RULEBOOK_ACCEPT_PLAIN_STATES": "maybe"}, wantErr: true},
		{name: "environment", env: map[string]string{"RULEBOOK_GRPC_ADDR": "127.0.0.1:7000", "RULEBOOK_DRAIN_DELAY": "5s"},
			want: func(c config) bool { return c.grpcAddr == "127.0.0.1:7000" && c.server.DrainDelay == 5*time.Second }},
		{name: "flag over environment", args: []string{"-log-format", "json"}, env: map[string]string{"RULEBOOK_LOG_FORMAT": "console"},
			want: func(c config) bool { return c.logFormat == "json" }},
		{name: "bad environment duration", env: map[string]string{"RULEBOOK_CALL_TIMEOUT": "soon"}, wantErr: true},
		{name: "bad environment number", env: map[string]string{"RULEBOOK_MAX_MESSAGE_BYTES": "lots"}, wantErr: true},
		{name: "unknown log format", args: []string{"-log-format", "xml"}, wantErr: true},
		{name: "tiny messages", args: []string{"-max-message-bytes", "10"}, wantErr: true},
		{name: "zero call timeout", args: []string{"-call-timeout", "0s"}, wantErr: true},
		{name: "negative drain", args: []string{"-drain-delay", "-1s"}, wantErr: true},
		{name: "stray argument", args: []string{"serve"}, wantErr: true},
		{name: "unknown flag", args: []string{"-port", "1"}, wantErr: true},
		{name: "streams per connection", args: []string{"-max-streams-per-connection", "7"},
			want: func(c config) bool { return c.server.MaxStreamsPerConnection == 7 }},
		{name: "memory limit", env: map[string]string{"RULEBOOK_MEMORY_LIMIT": "200000000"},
			want: func(c config) bool { return c.memoryLimit == 200_000_000 }},
		{name: "negative memory limit", args: []string{"-memory-limit", "-1"}, wantErr: true},
		{name: "seal token format 2 by default", want: func(c config) bool { return c.server.SealTokenFormat == seal.Format2 }},
		{name: "seal token format 1 for a rolling update", env: map[string]string{"RULEBOOK_SEAL_TOKEN_FORMAT": "1"},
			want: func(c config) bool { return c.server.SealTokenFormat == seal.Format1 }},
		{name: "seal token format of no build", args: []string{"-seal-token-format", "3"}, wantErr: true},
		{name: "seal token format 0", args: []string{"-seal-token-format", "0"}, wantErr: true},
		{name: "CORS origins", args: []string{"-cors-origins", "https://a.example, http://localhost:5173,"},
			want: func(c config) bool {
				return slices.Equal(c.server.CORSOrigins, []string{"https://a.example", "http://localhost:5173"})
			}},
		{name: "CORS origins from the environment", env: map[string]string{"RULEBOOK_CORS_ORIGINS": "*"},
			want: func(c config) bool { return slices.Equal(c.server.CORSOrigins, []string{"*"}) }},
		{name: "no CORS origins by default", want: func(c config) bool { return c.server.CORSOrigins == nil }},
		{name: "CORS origin with a path", args: []string{"-cors-origins", "https://a.example/"}, wantErr: true},
		{name: "any origin on a trusted server", args: []string{"-cors-origins", "*", "-accept-plain-states"}, wantErr: true},
		{name: "TLS", env: map[string]string{"RULEBOOK_TLS_CERT_FILE": "/c", "RULEBOOK_TLS_KEY_FILE": "/k"},
			args: []string{"-tls-client-ca-file", "/ca"},
			want: func(c config) bool { return c.server.TLS == tlsfiles.Files{Cert: "/c", Key: "/k", ClientCA: "/ca"} }},
		{name: "no TLS by default", want: func(c config) bool { return !c.server.TLS.Enabled() }},
		{name: "TLS certificate without key", args: []string{"-tls-cert-file", "/c"}, wantErr: true},
		{name: "TLS key without certificate", env: map[string]string{"RULEBOOK_TLS_KEY_FILE": "/k"}, wantErr: true},
		{name: "client CA without TLS", args: []string{"-tls-client-ca-file", "/ca"}, wantErr: true},
		{name: "negative streams per connection", args: []string{"-max-streams-per-connection", "-1"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if v, ok := tt.env[k]; ok || k != "HOME" {
					return v
				}
				return "/home/player"
			}
			cfg, err := parseConfig(tt.args, getenv, io.Discard)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error: %v", err, tt.wantErr)
			}
			if err == nil && !tt.want(cfg) {
				t.Errorf("config %+v", cfg)
			}
		})
	}
}
