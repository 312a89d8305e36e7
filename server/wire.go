package server

import (
	"context"
	"slices"

	"google.golang.org/grpc"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
)

// encodedAnswer is the wire form of a method's answer, which the server's codec sends as it is.
type encodedAnswer []byte

// wireApplier is a RulesService server that also answers ApplyMove in the wire form of its answer (service.Service's
// ApplyMoveWire, which the servers' rulesserver promotes).
type wireApplier interface {
	ApplyMoveWire(context.Context, *rulebookv1.ApplyMoveRequest) ([]byte, error)
}

// withWireAnswers returns desc with ApplyMove served by rules' ApplyMoveWire when rules is a wireApplier, its answer
// sent as ApplyMoveWire encoded it; else desc itself. Its handler decodes the request, then runs the interceptor it
// is given, as a generated handler does.
func withWireAnswers(desc *grpc.ServiceDesc, rules any) *grpc.ServiceDesc {
	w, ok := rules.(wireApplier)
	if !ok {
		return desc
	}
	d := *desc
	d.Methods = slices.Clone(desc.Methods)
	for i := range d.Methods {
		if d.Methods[i].MethodName == "ApplyMove" {
			d.Methods[i].Handler = func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
				req := &rulebookv1.ApplyMoveRequest{}
				if err := dec(req); err != nil {
					return nil, err
				}
				apply := func(ctx context.Context, req any) (any, error) {
					answer, err := w.ApplyMoveWire(ctx, req.(*rulebookv1.ApplyMoveRequest))
					if err != nil {
						return nil, err
					}
					return encodedAnswer(answer), nil
				}
				if interceptor == nil {
					return apply(ctx, req)
				}
				return interceptor(ctx, req, &grpc.UnaryServerInfo{Server: srv,
					FullMethod: rulebookv1grpc.RulesService_ApplyMove_FullMethodName}, apply)
			}
		}
	}
	return &d
}
