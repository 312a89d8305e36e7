// Package kit holds what the conformance kit's generator and its test share: the format of a case, the kit's files,
// the calls a case may make, the kit's clock, and rulebook's own RulesService in process (with plain states, as a
// server started with -accept-plain-states runs it), which answers a case as REST would.
package kit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/zap"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// Clock is the instant at which the kit runs: the clock of the service that answers its cases, which stamps each
// Ubongo Duel move with the later of it and the state's last receive time.
var Clock = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

// Case is one line of a kit file: a call and what it must answer, the response (as REST's JSON) or a refusal.
type Case struct {
	Name     string          `json:"name"`
	RPC      string          `json:"rpc"`
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response,omitempty"`
	Error    *Refusal        `json:"error,omitempty"`
}

// Refusal is what a refused call must answer: its gRPC status code and the reason of its ErrorInfo.
type Refusal struct {
	Code   int    `json:"code"`
	Reason string `json:"reason"`
}

// Method is a call a case may make.
type Method struct {
	// RPC is the method's name in RulesService, as in a case's rpc.
	RPC string
	// Verb is the custom verb of its REST route, POST /v1/games/{game}:<Verb>.
	Verb string
	// request returns a new request message of the method.
	request func() proto.Message
	// call calls the method of s with req, a message request returned.
	call func(ctx context.Context, s *service.Service, req proto.Message) (proto.Message, error)
}

// method makes the Method of rpc, whose REST route ends in verb, from its function in service.Service.
func method[Req proto.Message, Resp proto.Message](rpc, verb string, newReq func() Req,
	f func(*service.Service, context.Context, Req) (Resp, error)) Method {
	return Method{RPC: rpc, Verb: verb, request: func() proto.Message { return newReq() },
		call: func(ctx context.Context, s *service.Service, req proto.Message) (proto.Message, error) {
			return f(s, ctx, req.(Req))
		}}
}

// Methods are the calls a case may make, in the order the README lists them.
var Methods = []Method{
	method("NewGame", "new", func() *rulebookv1.NewGameRequest { return &rulebookv1.NewGameRequest{} },
		(*service.Service).NewGame),
	method("ValidateMove", "validate", func() *rulebookv1.ValidateMoveRequest { return &rulebookv1.ValidateMoveRequest{} },
		(*service.Service).ValidateMove),
	method("ApplyMove", "apply", func() *rulebookv1.ApplyMoveRequest { return &rulebookv1.ApplyMoveRequest{} },
		(*service.Service).ApplyMove),
	method("ListLegalMoves", "legalMoves",
		func() *rulebookv1.ListLegalMovesRequest { return &rulebookv1.ListLegalMovesRequest{} },
		(*service.Service).ListLegalMoves),
	method("Score", "score", func() *rulebookv1.ScoreRequest { return &rulebookv1.ScoreRequest{} },
		(*service.Service).Score),
	method("GetView", "view", func() *rulebookv1.GetViewRequest { return &rulebookv1.GetViewRequest{} },
		(*service.Service).GetView),
}

// MethodOf returns the Method named rpc.
func MethodOf(rpc string) (Method, error) {
	for _, m := range Methods {
		if m.RPC == rpc {
			return m, nil
		}
	}
	return Method{}, fmt.Errorf("no call %q in the kit", rpc)
}

// Target is an implementation that answers the kit's cases: the response to request, a call of rpc, as REST's JSON,
// or the refusal it answers instead. An error is the target's own failure (no answer at all).
type Target interface {
	Call(rpc string, request json.RawMessage) (response json.RawMessage, refused *Refusal, err error)
}

// Games returns the ids of the games rulebookd hosts, one kit file each, in the order of ListGames.
func Games() []string {
	var ids []string
	for _, info := range newService().infos() {
		ids = append(ids, info.GetId())
	}
	return ids
}

// File returns the path of the kit file of game in dir.
func File(dir, game string) string { return filepath.Join(dir, game+".jsonl") }

// Read returns the cases of the kit file at path.
func Read(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []Case
	lines := bufio.NewScanner(f)
	lines.Buffer(nil, 16<<20)
	for n := 1; lines.Scan(); n++ {
		var c Case
		d := json.NewDecoder(bytes.NewReader(lines.Bytes()))
		d.DisallowUnknownFields()
		if err := d.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		cases = append(cases, c)
	}
	return cases, lines.Err()
}

// Write writes cases to w, one JSON object a line, its keys in the order of Case and the messages' fields in the
// order protojson writes them, with no space and no HTML escaping: the same cases give the same bytes.
func Write(w io.Writer, cases []Case) error {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	for _, c := range cases {
		if err := e.Encode(c); err != nil {
			return fmt.Errorf("case %s: %w", c.Name, err)
		}
	}
	return nil
}

// Compact returns the JSON of m as REST writes it (protojson, fields left out at their zero values), without the
// spaces protojson varies from build to build.
func Compact(m proto.Message) (json.RawMessage, error) {
	b, err := protojson.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Service is rulebook's RulesService in process: plain states accepted, moves stamped at Clock, every game of
// rulebookd hosted, no transport. It is a Target.
type Service struct {
	s *service.Service
}

// NewService returns the RulesService in process.
func NewService() *Service { return newService() }

// newService returns the RulesService in process; it panics only if the service cannot be made at all, a fault of
// this build.
func newService() *Service {
	keys, err := seal.ParseKeys(servertest.StateKeys)
	if err != nil {
		panic(err)
	}
	ring, err := seal.NewKeyring(keys...)
	if err != nil {
		panic(err)
	}
	s, err := service.New(zap.NewNop(), service.Config{Keys: ring, AcceptPlainStates: true,
		Now: func() time.Time { return Clock }}, server.Games()...)
	if err != nil {
		panic(err)
	}
	return &Service{s: s}
}

// infos returns the hosted games' descriptions.
func (s *Service) infos() []*rulebookv1.GameInfo {
	resp, _ := s.s.ListGames(context.Background(), &rulebookv1.ListGamesRequest{})
	return resp.GetGames()
}

// Call answers request, a call of rpc in REST's JSON, as the service does.
func (s *Service) Call(rpc string, request json.RawMessage) (json.RawMessage, *Refusal, error) {
	m, err := MethodOf(rpc)
	if err != nil {
		return nil, nil, err
	}
	req := m.request()
	if err := protojson.Unmarshal(request, req); err != nil {
		return nil, nil, fmt.Errorf("the request is not a %s: %w", req.ProtoReflect().Descriptor().Name(), err)
	}
	resp, err := m.call(context.Background(), s.s, req)
	if err != nil {
		refused, ok := RefusalOf(err)
		if !ok {
			return nil, nil, err
		}
		return nil, refused, nil
	}
	b, err := Compact(resp)
	return b, nil, err
}

// RefusalOf returns the code and reason of a status error with an ErrorInfo.
func RefusalOf(err error) (*Refusal, bool) {
	st, ok := status.FromError(err)
	if !ok {
		return nil, false
	}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return &Refusal{Code: int(st.Code()), Reason: info.GetReason()}, true
		}
	}
	return nil, false
}
