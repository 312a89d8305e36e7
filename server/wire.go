package server

import (
	"context"
	"slices"

	"google.golang.org/grpc"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// encodedAnswer is the wire form of a method's answer, which the server's codec sends as it is.
type encodedAnswer []byte

// wireApplier is a RulesService server that also answers ApplyMove in the wire form of its answer (service.Service's
// ApplyMoveWire, which the servers' rulesserver promotes).
type wireApplier interface {
	ApplyMoveWire(context.Context, *rulebookv1.ApplyMoveRequest) ([]byte, error)
}

// withWireAnswers returns desc with ApplyMove served by rules' ApplyMoveWire when rules is a wireApplier, its answer
// sent as ApplyMoveWire encoded it; else desc itself. The handler runs no interceptor of its own: readAfter calls
// each method without one.
func withWireAnswers(desc *grpc.ServiceDesc, rules any) *grpc.ServiceDesc {
	w, ok := rules.(wireApplier)
	if !ok {
		return desc
	}
	d := *desc
	d.Methods = slices.Clone(desc.Methods)
	for i := range d.Methods {
		if d.Methods[i].MethodName == "ApplyMove" {
			d.Methods[i].Handler = func(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
				req := &rulebookv1.ApplyMoveRequest{}
				if err := dec(req); err != nil {
					return nil, err
				}
				answer, err := w.ApplyMoveWire(ctx, req)
				if err != nil {
					return nil, err
				}
				return encodedAnswer(answer), nil
			}
		}
	}
	return &d
}
