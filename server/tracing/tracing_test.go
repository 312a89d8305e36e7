package tracing

import (
	"context"
	"testing"
)

// TestEnabled checks which environments ask for traces: an exporter other than "none", or an OTLP endpoint, unless
// the SDK is disabled.
func TestEnabled(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"nothing", nil, false},
		{"an exporter", map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true},
		{"the console", map[string]string{"OTEL_TRACES_EXPORTER": "console"}, true},
		{"none", map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, false},
		{"an endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true},
		{"a traces endpoint", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true},
		{"the SDK disabled", map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
				t.Setenv(k, tt.env[k])
			}
			if got := Enabled(); got != tt.want {
				t.Errorf("Enabled() = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestFromEnv checks that no tracing is set up unless asked for, that the console exporter, once asked for, gives a
// provider and a propagator, and that an exporter it does not know is an error.
func TestFromEnv(t *testing.T) {
	t.Setenv("OTEL_TRACES_EXPORTER", "")
	if tr, err := FromEnv(context.Background(), "v1.2.3"); tr != nil || err != nil {
		t.Fatalf("nothing asked: %v %v, want none", tr, err)
	}
	t.Setenv("OTEL_TRACES_EXPORTER", "console")
	tr, err := FromEnv(context.Background(), "v1.2.3")
	if err != nil || tr == nil || tr.Propagator == nil {
		t.Fatalf("the console asked: %v %v", tr, err)
	}
	defer tr.Provider.Shutdown(context.Background())
	t.Setenv("OTEL_TRACES_EXPORTER", "carrier-pigeon")
	if _, err := FromEnv(context.Background(), "v1.2.3"); err == nil {
		t.Error("an unknown exporter was taken")
	}
}
