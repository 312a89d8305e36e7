package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/rulebook/rulebook/gen/openapi"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// newGateway returns the HTTP handler: the REST mapping of RulesService (JSON in and out, one JSON object per body,
// unknown fields refused), GET /healthz from the gRPC health service, and GET /openapi.json. Request bodies are
// limited to maxBodyBytes; a longer one is refused with 413 and REQUEST_TOO_LARGE, a body that does not decode with
// MALFORMED_JSON or INVALID_FIELD and the field at fault.
func newGateway(ctx context.Context, conn *grpc.ClientConn, maxBodyBytes, maxCalls int) (http.Handler, error) {
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
	return limitBodies(mux, gateway, marshaler, maxBodyBytes, maxCalls), nil
}

// gatewayDialOptions are the options of the gateway's connection to this process's own gRPC listener.
func gatewayDialOptions(cfg config) []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(4*cfg.maxMessageBytes), grpc.MaxCallSendMsgSize(cfg.maxMessageBytes)),
	}
}
