// Package gateway serves RulesService as REST, through grpc-gateway: JSON bodies bounded in size and decoded strictly
// (one object, no unknown field, the field at fault named), GET /healthz from the gRPC health service and GET
// /openapi.json, and every refusal as the JSON of a google.rpc.Status.
package gateway

import (
	"context"
	"fmt"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/rulebook/rulebook/gen/openapi"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// Options bound the requests the gateway takes.
type Options struct {
	// MaxBodyBytes is the longest request body; a longer one is refused with 413 and REQUEST_TOO_LARGE.
	MaxBodyBytes int
	// MaxBodies is how many requests with a body are read and served at once; more are refused with 429 and
	// SERVER_BUSY.
	MaxBodies int
}

// New returns the HTTP handler of the REST API, whose calls go to the RulesService and health service at conn.
func New(ctx context.Context, conn *grpc.ClientConn, opts Options) (http.Handler, error) {
	marshaler := bodyMarshaler{&runtime.JSONPb{
		MarshalOptions:   protojson.MarshalOptions{EmitUnpopulated: true},
		UnmarshalOptions: protojson.UnmarshalOptions{DiscardUnknown: false},
	}}
	gateway := runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, marshaler),
		runtime.WithErrorHandler(restErrorHandler),
		runtime.WithHealthzEndpoint(healthpb.NewHealthClient(conn)),
	)
	if err := rulebookv1.RegisterRulesServiceHandler(ctx, gateway, conn); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openapi.Document)
	})
	mux.Handle("/", gateway)
	return limitBodies(mux, gateway, marshaler, opts.MaxBodyBytes, opts.MaxBodies), nil
}
