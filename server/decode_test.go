package server

import (
	"bytes"
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/server/admission"
	"github.com/rulebook/rulebook/server/servertest"
)

// encoded returns the encoding of m.
func encoded(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// nestedGroups returns n groups of field 99 nested in one another: a message no request of the API nests so deep.
func nestedGroups(n int) []byte {
	var b []byte
	for range n {
		b = protowire.AppendTag(b, 99, protowire.StartGroupType)
	}
	for range n {
		b = protowire.AppendTag(b, 99, protowire.EndGroupType)
	}
	return b
}

// TestDecodeRequest checks the decoding of gRPC requests: a valid one is decoded and holds its estimated cost of
// the budget until released; a malformed one is MALFORMED_MESSAGE, one that does not fit in what is left of the
// budget SERVER_BUSY, one larger than the whole budget REQUEST_TOO_LARGE, and none of them holds any of the budget.
func TestDecodeRequest(t *testing.T) {
	valid := encoded(t, &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: "v1.test.AAAA", Move: servertest.ExplozeMove(1)})
	moves := make([]*rulebookv1.Move, 1000)
	for i := range moves {
		moves[i] = &rulebookv1.Move{}
	}
	emptyMoves := encoded(t, &rulebookv1.ReplayRequest{Game: "exploze", Moves: moves})
	tests := []struct {
		name       string
		b          []byte
		budget     int64
		taken      int64 // of the budget, before the request
		wantReason string
	}{
		{"valid", valid, 1 << 20, 0, ""},
		{"empty", nil, 1 << 20, 0, ""},
		{"cut short", valid[:len(valid)-3], 1 << 20, 0, ReasonMalformedMessage},
		{"random bytes", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1 << 20, 0, ReasonMalformedMessage},
		{"invalid UTF-8 in a string", append(protowire.AppendTag(nil, 1, protowire.BytesType), 2, 0xff, 0xfe), 1 << 20, 0, ReasonMalformedMessage},
		{"20,000 nested groups", nestedGroups(20_000), 1 << 20, 0, ReasonMalformedMessage},
		{"a field number of 0", []byte{0x00, 0x01}, 1 << 20, 0, ReasonMalformedMessage},
		{"fits in what is left", emptyMoves, 1001*admission.MessageCost + 1<<13, 0, ""},
		{"does not fit in what is left", emptyMoves, 1001*admission.MessageCost + 1<<13, 1 << 13, admission.ReasonServerBusy},
		{"larger than the whole budget", emptyMoves, 1000 * admission.MessageCost, 0, refusal.ReasonRequestTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			budget := admission.NewBudget(tt.budget, nil)
			if tt.taken > 0 {
				if _, err := budget.Acquire(tt.taken); err != nil {
					t.Fatal(err)
				}
			}
			req := &rulebookv1.ReplayRequest{}
			if bytes.Equal(tt.b, valid) {
				req := &rulebookv1.ApplyMoveRequest{}
				release, err := decodeRequest(rawRequest{mem.SliceBuffer(tt.b)}, req, budget)
				if err != nil || req.GetMove().GetPlayer() != 1 || budget.InFlight() == 0 {
					t.Fatalf("decoded %v (%v), holding %d of the budget", req, err, budget.InFlight())
				}
				release()
				if budget.InFlight() != 0 {
					t.Errorf("%d of the budget still held after release", budget.InFlight())
				}
				return
			}
			release, err := decodeRequest(rawRequest{mem.SliceBuffer(tt.b)}, req, budget)
			if got := refusal.Reason(err); got != tt.wantReason {
				t.Fatalf("reason %q (%v), want %q", got, err, tt.wantReason)
			}
			if err != nil {
				if budget.InFlight() != tt.taken {
					t.Errorf("a refused request holds %d of the budget", budget.InFlight()-tt.taken)
				}
				return
			}
			if held := budget.InFlight(); held < int64(len(req.GetMoves()))*admission.MessageCost {
				t.Errorf("%d moves hold %d bytes of the budget, want at least %d each", len(req.GetMoves()), held, admission.MessageCost)
			}
			release()
		})
	}
}

// rawCodec sends and receives messages as the bytes they are, to send a server anything at all.
type rawCodec struct{}

// Marshal returns the bytes of v, a *[]byte.
func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*[]byte))}, nil
}

// Unmarshal keeps the bytes in v, a *[]byte.
func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*[]byte) = data.Materialize()
	return nil
}

// Name names the codec as the protobuf codec, which the server expects.
func (rawCodec) Name() string { return "proto" }

// TestMalformedMessages sends undecodable requests to every RulesService method over real gRPC: each is
// INVALID_ARGUMENT with the reason MALFORMED_MESSAGE, and the server goes on answering.
func TestMalformedMessages(t *testing.T) {
	ts := startServer(t, testConfig())
	methods := rulebookv1grpc.File_rulebook_v1_rules_service_proto.Services().ByName("RulesService").Methods()
	for i := range methods.Len() {
		m := methods.Get(i)
		bodies := map[string][]byte{
			"random bytes":         {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
			"cut short":            {0x0a, 0x05, 'e', 'x'}, // field 1 of 5 bytes, of which 2 come
			"20,000 nested groups": nestedGroups(20_000),
		}
		if fd := m.Input().Fields().ByNumber(1); fd != nil && fd.Kind() == protoreflect.StringKind {
			bodies["invalid UTF-8 in "+string(fd.Name())] = append(protowire.AppendTag(nil, 1, protowire.BytesType), 2, 0xff, 0xfe)
		}
		for name, body := range bodies {
			t.Run(string(m.Name())+"/"+name, func(t *testing.T) {
				var out []byte
				err := ts.Conn.Invoke(servertest.CallContext(t), rulesServicePrefix+string(m.Name()), &body, &out,
					grpc.ForceCodecV2(rawCodec{}))
				if status.Code(err) != codes.InvalidArgument || refusal.Reason(err) != ReasonMalformedMessage {
					t.Errorf("%v, want INVALID_ARGUMENT %s", err, ReasonMalformedMessage)
				}
			})
		}
	}
	servertest.Succeeded(ts.RPC.ListGames(context.Background(), &rulebookv1.ListGamesRequest{}))(t)
}

// FuzzDecodeRequest decodes arbitrary bytes as each kind of request: it must never panic, a request it refuses
// holds none of the budget, and one it takes holds at least its size until released.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(encoded(f, &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: "v1.k.AAAA", Move: servertest.ExplozeMove(1)}))
	f.Add(encoded(f, &rulebookv1.ReplayRequest{Moves: []*rulebookv1.Move{{}, servertest.ExplozeMove(2)}}))
	f.Add(nestedGroups(100))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, req := range []proto.Message{&rulebookv1.ApplyMoveRequest{}, &rulebookv1.ReplayRequest{}, &rulebookv1.SolvePuzzleRequest{}} {
			budget := admission.NewBudget(1<<30, nil)
			release, err := decodeRequest(rawRequest{mem.SliceBuffer(b)}, req, budget)
			if err != nil {
				if code := status.Code(err); code != codes.InvalidArgument || budget.InFlight() != 0 {
					t.Fatalf("%v holding %d of the budget, want INVALID_ARGUMENT holding none", err, budget.InFlight())
				}
				continue
			}
			if budget.InFlight() < int64(len(b)) {
				t.Fatalf("a request of %d bytes holds %d of the budget", len(b), budget.InFlight())
			}
			release()
		}
	})
}
