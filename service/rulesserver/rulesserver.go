// Package rulesserver serves a service.Service as the generated interface of RulesService's servers
// (rulebookv1grpc.RulesServiceServer), which a gRPC server and the REST gateway take. Package service does not import
// the generated stubs, so that a program that calls the service in process (the WebAssembly module) links neither
// gRPC nor grpc-gateway.
package rulesserver

import (
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/service"
)

// server is a service.Service as a RulesServiceServer. It embeds the unsafe interface, not the unimplemented
// server, so that a method added to RulesService fails to compile until the service serves it.
type server struct {
	rulebookv1grpc.UnsafeRulesServiceServer
	*service.Service
}

// New returns s as a RulesServiceServer.
func New(s *service.Service) rulebookv1grpc.RulesServiceServer {
	return server{Service: s}
}
