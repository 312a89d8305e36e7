package main

import (
	"io"
	"testing"
	"time"
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
			return c.grpcAddr == ":50051" && c.httpAddr == ":8080" && c.logFormat == "console" &&
				c.callTimeout == 10*time.Second && c.maxMessageBytes == 4<<20 && c.drainDelay == 0
		}},
		{name: "environment", env: map[string]string{"RULEBOOK_GRPC_ADDR": "127.0.0.1:7000", "RULEBOOK_DRAIN_DELAY": "5s"},
			want: func(c config) bool { return c.grpcAddr == "127.0.0.1:7000" && c.drainDelay == 5*time.Second }},
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseConfig(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error: %v", err, tt.wantErr)
			}
			if err == nil && !tt.want(cfg) {
				t.Errorf("config %+v", cfg)
			}
		})
	}
}
