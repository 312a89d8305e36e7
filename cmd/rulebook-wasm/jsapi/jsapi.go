// Package jsapi is the API of the WebAssembly module (cmd/rulebook-wasm) in Go, apart from syscall/js, so that it runs
// and is tested natively too: the calls of a rulebook server that accepts plain states, as functions whose arguments
// are JavaScript values and whose answers are, byte for byte (aside from what protobuf varies from one program to
// another: see restjson.Marshal), the JSON bodies its REST API answers. Each call builds the REST body of its
// arguments and goes through the REST API's own decoder (restjson) and the same service (service.New with
// AcceptPlainStates, the games of engine/hosted), but configure, which sets the module's clock. The module's
// documentation gives the functions, their arguments and their answers.
package jsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/rulebook/rulebook/engine/hosted"
	"github.com/rulebook/rulebook/internal/refusal"
	"github.com/rulebook/rulebook/internal/restjson"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/seal"
)

// ReasonInvalidArguments is the reason of the refusal of a call whose arguments are not what the function takes: too
// many, a required one missing, or one of the wrong JavaScript type (a number for a JSON string, a seed that is not
// a safe integer). Its code is INVALID_ARGUMENT; its facts name the function and the argument.
const ReasonInvalidArguments = "INVALID_ARGUMENTS"

// Kind is the JavaScript type of a Value.
type Kind int

// The kinds of Value.
const (
	Undefined Kind = iota // undefined, or an argument left out
	Null
	Boolean
	Number
	String
	Other // an object, a function, a symbol or a bigint
)

// kindNames are the names of the kinds, as JavaScript's typeof says them (null aside).
var kindNames = [...]string{Undefined: "undefined", Null: "null", Boolean: "a boolean", Number: "a number", String: "a string",
	Other: "an object"}

// Value is an argument as JavaScript passed it: its kind, and the value of a number or a string.
type Value struct {
	Kind   Kind
	Number float64
	String string
}

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, the largest integer a number holds exactly.
const maxSafeInteger = 1<<53 - 1

// Module serves the functions of the WebAssembly module over one service.
type Module struct {
	rules *service.Service
	// now is the instant configure fixed the clock at; nil for the real clock.
	now atomic.Pointer[time.Time]
}

// New returns a module whose service hosts every game of engine/hosted and accepts plain states, with the real clock
// until configure fixes it. Its key (which service.New requires) is random and never used: no call of the module
// takes or gives a token.
func New() (*Module, error) {
	key, err := seal.GenerateKey("wasm", nil)
	if err != nil {
		return nil, err
	}
	keys, err := seal.NewKeyring(key)
	if err != nil {
		return nil, err
	}
	m := &Module{}
	m.rules, err = service.New(zap.NewNop(), service.Config{Keys: keys, AcceptPlainStates: true, Now: m.clock},
		hosted.Games()...)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// clock returns the time of the module's clock: the instant configure fixed, else the real time.
func (m *Module) clock() time.Time {
	if now := m.now.Load(); now != nil {
		return *now
	}
	return time.Now()
}

// Function is one function of the module.
type Function struct {
	// Name is the function's name in JavaScript, such as "applyMove".
	Name string
	m    *Module
	spec *spec
}

// Functions returns the module's functions, in the order the module documents them.
func (m *Module) Functions() []Function {
	fs := make([]Function, len(specs))
	for i := range specs {
		fs[i] = Function{Name: specs[i].name, m: m, spec: &specs[i]}
	}
	return fs
}

// Call calls f with args and returns its answer: the JSON of the call's response, or of the google.rpc.Status that
// refuses it (which has a code, never 0, where no response has one). It never panics: a panic of the service is
// answered as the server answers it, INTERNAL.
func (f Function) Call(args ...Value) (answer string) {
	defer func() {
		if recover() != nil {
			answer = string(restjson.StatusBody(service.ErrInternal))
		}
	}()
	resp, err := f.spec.call(f.m, args)
	if err != nil {
		return string(restjson.StatusBody(err))
	}
	body, err := restjson.Marshal(resp)
	if err != nil {
		return string(restjson.StatusBody(service.ErrInternal))
	}
	return string(body)
}

// argKind is what an argument must be.
type argKind int

const (
	gameArg argKind = iota // a string: the game, as the path of the REST call names it
	jsonArg                // a string of one JSON value: a field of the REST body
	seedArg                // a decimal string or a safe integer: a uint64 field of the REST body
	intArg                 // a safe integer: an int32 field of the REST body
	enumArg                // a string (a value's name) or a safe integer (its number): an enum field of the REST body
)

// param is an argument of a function.
type param struct {
	name     string // as the module documents it
	field    string // the field of the REST body it sets; "" for the game
	kind     argKind
	optional bool // it may be undefined or null (left out of the body)
}

// spec is a function: its arguments, and what it does with the JSON object they make.
type spec struct {
	name   string
	params []param
	// do answers the call of the game named (if a param is the game) whose other arguments make body, a JSON object
	// of the params' fields.
	do func(m *Module, game string, body []byte) (proto.Message, error)
}

// The arguments that several functions take.
var (
	game  = param{name: "game", kind: gameArg}
	state = param{name: "stateJson", field: "state", kind: jsonArg}
	move  = param{name: "moveJson", field: "move", kind: jsonArg}
)

// specs are the module's functions.
var specs = []spec{
	method("listGames", (*service.Service).ListGames),
	method("newGame", (*service.Service).NewGame, game, param{name: "optionsJson", field: "options", kind: jsonArg, optional: true},
		param{name: "seed", field: "seed", kind: seedArg, optional: true}),
	method("validateMove", (*service.Service).ValidateMove, game, state, move),
	method("applyMove", (*service.Service).ApplyMove, game, state, move,
		param{name: "events", field: "events", kind: enumArg, optional: true}),
	method("legalMoves", (*service.Service).ListLegalMoves, game, state, param{name: "player", field: "player", kind: intArg, optional: true}),
	method("score", (*service.Service).Score, game, state),
	method("view", (*service.Service).GetView, game, state, param{name: "viewer", field: "viewer", kind: intArg, optional: true}),
	{name: "configure", params: []param{{name: "configJson", field: "config", kind: jsonArg}}, do: configure},
}

// method returns the function name, which decodes the REST body of params as the REST API decodes it, with the game
// of the REST path, and calls serve with that request.
func method[Req, Resp proto.Message](name string, serve func(*service.Service, context.Context, Req) (Resp, error), params ...param) spec {
	var zero Req
	request := zero.ProtoReflect().Type()
	return spec{name: name, params: params, do: func(m *Module, game string, body []byte) (proto.Message, error) {
		req := request.New()
		if err := restjson.Decode(body, req.Interface()); err != nil {
			return nil, err
		}
		if fd := req.Descriptor().Fields().ByName("game"); fd != nil {
			req.Set(fd, protoreflect.ValueOfString(game))
		}
		resp, err := serve(m.rules, context.Background(), req.Interface().(Req))
		if err != nil {
			return nil, err
		}
		return resp, nil
	}}
}

// configuration is the argument of configure, configJson.
type configuration struct {
	// Now is the instant the clock reads from then on, in RFC 3339; nil for the real clock.
	Now *string `json:"now"`
}

// The instants the clock may be fixed at: those whose nanoseconds since 1970 are an int64 (a receive time of Ubongo
// Duel) and not negative.
var (
	earliest = time.Unix(0, 0).UTC()
	latest   = time.Unix(0, math.MaxInt64).UTC()
)

// configure sets the module's configuration to the configJson of body: every setting, those left out at their
// default. It answers an empty object.
func configure(m *Module, _ string, body []byte) (proto.Message, error) {
	invalid := func(why string) error {
		return refusal.New(codes.InvalidArgument, ReasonInvalidArguments, "configJson of configure: "+why,
			map[string]string{"function": "configure", "argument": "configJson"})
	}
	var arg struct {
		Config configuration `json:"config"`
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(&arg); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			if typeErr.Field == "config" {
				return nil, invalid("a JSON " + typeErr.Value + ", not an object")
			}
			return nil, invalid(strings.TrimPrefix(typeErr.Field, "config.") + " is a JSON " + typeErr.Value + ", not a string")
		}
		return nil, invalid(restjson.Shorten(strings.TrimPrefix(err.Error(), "json: ")))
	}
	c := arg.Config
	if c.Now == nil {
		m.now.Store(nil)
		return &emptypb.Empty{}, nil
	}
	now, err := time.Parse(time.RFC3339Nano, *c.Now)
	if err != nil {
		return nil, invalid(fmt.Sprintf("now %q is not an RFC 3339 time, such as \"2025-01-01T00:00:00Z\"", *c.Now))
	}
	if now.Before(earliest) || now.After(latest) {
		return nil, invalid(fmt.Sprintf("now %s is not within %s and %s", *c.Now, earliest.Format(time.RFC3339Nano),
			latest.Format(time.RFC3339Nano)))
	}
	m.now.Store(&now)
	return &emptypb.Empty{}, nil
}

// call checks args, makes the JSON object of their fields, and answers the call with it.
func (s *spec) call(m *Module, args []Value) (proto.Message, error) {
	if len(args) > len(s.params) {
		return nil, s.invalid("", fmt.Sprintf("%s takes %s, not %d arguments", s.name, s.signature(), len(args)))
	}
	var game string
	var body strings.Builder
	body.WriteByte('{')
	for i, p := range s.params {
		var arg Value // undefined, when left out
		if i < len(args) {
			arg = args[i]
		}
		if p.kind == gameArg {
			if arg.Kind != String {
				return nil, s.wrongKind(p, arg)
			}
			game = arg.String
			continue
		}
		value, err := s.bodyValue(p, arg)
		if err != nil {
			return nil, err
		}
		if value == "" {
			continue
		}
		if body.Len() > 1 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, "%q:%s", p.field, value)
	}
	body.WriteByte('}')
	return s.do(m, game, []byte(body.String()))
}

// bodyValue returns the JSON of arg, the argument p, in the REST body: "" to leave it out.
func (s *spec) bodyValue(p param, arg Value) (string, error) {
	if arg.Kind == Undefined || arg.Kind == Null {
		if !p.optional {
			return "", s.wrongKind(p, arg)
		}
		return "", nil
	}
	switch {
	case p.kind == jsonArg && arg.Kind == String:
		var raw json.RawMessage
		if err := json.Unmarshal([]byte(arg.String), &raw); err != nil {
			return "", refusal.New(codes.InvalidArgument, restjson.ReasonMalformedJSON,
				p.name+" is not one JSON value: "+restjson.Shorten(err.Error()), map[string]string{"function": s.name, "argument": p.name})
		}
		return arg.String, nil
	case (p.kind == seedArg || p.kind == enumArg) && arg.Kind == String:
		quoted, err := json.Marshal(arg.String)
		return string(quoted), err
	case (p.kind == seedArg || p.kind == intArg || p.kind == enumArg) && arg.Kind == Number:
		n := arg.Number
		safe := n == math.Trunc(n) && math.Abs(n) <= maxSafeInteger
		switch {
		case p.kind == seedArg && (!safe || n < 0):
			return "", s.invalid(p.name, fmt.Sprintf("%s of %s is %v: a seed given as a number is an integer from 0 to "+
				"2^53-1 (give a larger one as a decimal string)", p.name, s.name, n))
		case !safe:
			return "", s.invalid(p.name, fmt.Sprintf("%s of %s is %v, not a safe integer", p.name, s.name, n))
		case p.kind == seedArg:
			return strconv.Quote(strconv.FormatInt(int64(n), 10)), nil
		}
		return strconv.FormatInt(int64(n), 10), nil
	}
	return "", s.wrongKind(p, arg)
}

// wants say what an argument of each kind must be.
var wants = map[argKind]string{gameArg: "a string", jsonArg: "a string of JSON", seedArg: "a decimal string or a number",
	intArg: "a number", enumArg: "a string or a number"}

// wrongKind is the refusal of arg, of the wrong kind for p.
func (s *spec) wrongKind(p param, arg Value) error {
	want := wants[p.kind]
	if p.optional {
		want += ", undefined or null"
	}
	return s.invalid(p.name, fmt.Sprintf("%s of %s must be %s, not %s", p.name, s.name, want, kindName(arg.Kind)))
}

// kindName returns the name of k, and of a kind that is none.
func kindName(k Kind) string {
	if k < 0 || int(k) >= len(kindNames) {
		return "of no JavaScript type"
	}
	return kindNames[k]
}

// invalid is the refusal INVALID_ARGUMENTS of a call of s, about the argument named (if not "").
func (s *spec) invalid(argument, message string) error {
	facts := map[string]string{"function": s.name}
	if argument != "" {
		facts["argument"] = argument
	}
	return refusal.New(codes.InvalidArgument, ReasonInvalidArguments, message, facts)
}

// signature returns the arguments of s, as "3 arguments (game, stateJson, moveJson)".
func (s *spec) signature() string {
	names := make([]string, len(s.params))
	for i, p := range s.params {
		names[i] = p.name
	}
	switch len(names) {
	case 0:
		return "no arguments"
	case 1:
		return "1 argument (" + names[0] + ")"
	}
	return strconv.Itoa(len(names)) + " arguments (" + strings.Join(names, ", ") + ")"
}
