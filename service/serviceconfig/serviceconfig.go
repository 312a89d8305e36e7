// Package serviceconfig publishes the gRPC service config that clients of rulebook.v1.RulesService should use: every
// call that fails with UNAVAILABLE (a replica that stopped or died, a connection that broke) is retried, up to 3
// times with backoff, and retries stop while more than about 50 calls in a row have failed (retry throttling). Every RulesService call is safe to retry: the
// service keeps nothing between calls, so a call sent twice does the same thing twice (docs/operations.md, "Retries").
//
// The same JSON is service_config.json beside this file, for clients in other languages.
package serviceconfig

import _ "embed" // for JSON

// JSON is the service config, for grpc.WithDefaultServiceConfig.
//
//go:embed service_config.json
var JSON string
