package main

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/rulebook/rulebook/service/serviceconfig"
)

// dial returns a client connection to the server at addr, over plain TCP as rulebookd serves, with the service
// config rulebook publishes (a call that fails with UNAVAILABLE is tried again), whose calls each give up after
// timeout, their retries included. It does not connect until the first call.
func dial(addr string, timeout time.Duration) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(serviceconfig.JSON),
		grpc.WithUnaryInterceptor(callTimeout(timeout)))
}

// callTimeout is a client interceptor that gives every call at most timeout; a shorter deadline of the caller wins.
func callTimeout(timeout time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}
