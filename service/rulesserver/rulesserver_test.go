package rulesserver_test

import (
	"context"
	"testing"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rulebook/rulebook/engine/hosted"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/rulesserver"
	"github.com/rulebook/rulebook/service/seal"
)

// TestEveryMethod calls every method of RulesService's service description with an empty request: the service
// must serve each (an answer, or a refusal of the request), none being UNIMPLEMENTED.
func TestEveryMethod(t *testing.T) {
	key, err := seal.GenerateKey("k", nil)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := seal.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	s, err := service.New(zap.NewNop(), service.Config{Keys: keys}, hosted.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	srv := rulesserver.New(s)
	desc := rulebookv1grpc.RulesService_ServiceDesc
	if len(desc.Methods) == 0 {
		t.Fatal("no methods")
	}
	for _, m := range desc.Methods {
		t.Run(m.MethodName, func(t *testing.T) {
			empty := func(any) error { return nil }
			if _, err := m.Handler(srv, context.Background(), empty, nil); status.Code(err) == codes.Unimplemented {
				t.Errorf("%s: %v", m.MethodName, err)
			}
		})
	}
}
