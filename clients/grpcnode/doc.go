// Package grpcnode tests clients/grpc/play.js, a Node.js gRPC client of rulebook that needs nothing but
// gen/rulebook.binpb, the API's FileDescriptorSet, against the real server.
package grpcnode
