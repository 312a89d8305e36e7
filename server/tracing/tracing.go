// Package tracing sets rulebookd's OpenTelemetry tracing up from the standard OTEL_* environment variables: it is
// off unless they ask for it (OTEL_TRACES_EXPORTER other than "none", or an OTLP endpoint), and then exports spans
// as they say (OTLP over HTTP or gRPC, or the console), sampled by OTEL_TRACES_SAMPLER, propagated as
// OTEL_PROPAGATORS says (W3C trace context and baggage by default), with the resource of OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES (service.name rulebookd by default).
package tracing

import (
	"context"
	"fmt"
	"os"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/contrib/propagators/autoprop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// Tracing is a tracer provider and the propagator of trace contexts between processes.
type Tracing struct {
	Provider   *sdktrace.TracerProvider
	Propagator propagation.TextMapPropagator
}

// Enabled reports whether the environment asks for traces.
func Enabled() bool {
	if os.Getenv("OTEL_SDK_DISABLED") == "true" {
		return false
	}
	exporter := os.Getenv("OTEL_TRACES_EXPORTER")
	return exporter != "" && exporter != "none" ||
		exporter == "" && (os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "")
}

// FromEnv returns the tracing the environment asks for, as version of rulebookd, or nil if it asks for none. Its
// provider must be shut down (which exports the spans left) before the process exits.
func FromEnv(ctx context.Context, version string) (*Tracing, error) {
	if !Enabled() {
		return nil, nil
	}
	exporter, err := autoexport.NewSpanExporter(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName("rulebookd"), semconv.ServiceVersion(version)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	return &Tracing{
		Provider:   sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res)),
		Propagator: autoprop.NewTextMapPropagator(),
	}, nil
}
