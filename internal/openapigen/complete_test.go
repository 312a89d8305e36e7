package main

import (
	"os"
	"strings"
	"testing"

	"buf.build/go/protovalidate"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
)

// TestMessage checks a message's schema: its required fields, as protovalidate refuses a message without them, and
// its oneofs (a union for a required oneof rule, no two members of a proto oneof).
func TestMessage(t *testing.T) {
	validator, err := protovalidate.New()
	if err != nil {
		t.Fatal(err)
	}
	c := completer{validator: validator}
	for _, tc := range []struct {
		name   string
		m      proto.Message
		schema string
		want   string
	}{
		{"required field and oneof rule", &rulebookv1.ApplyMoveRequest{},
			`{"properties":{"move":{"$ref":"m"},"state":{"$ref":"s"},"token":{"type":"string"}}}`,
			`{"oneOf":[{"properties":{"state":{"$ref":"s"}},"required":["state"],"type":"object"},` +
				`{"properties":{"token":{"maxLength":262144,"type":"string"}},"required":["token"],"type":"object"}],` +
				`"properties":{"move":{"$ref":"m"},"state":{"$ref":"s"},"token":{"maxLength":262144,"type":"string"}},"required":["move"]}`},
		{"minimum above zero, and a proto oneof", &rulebookv1.Move{},
			`{"properties":{"player":{},"exploze":{},"micropul":{},"kipicot":{}},"oneOf":[{},{},{},{},{}]}`,
			`{"not":{"anyOf":[` +
				`{"properties":{"exploze":{},"micropul":{}},"required":["exploze","micropul"]},` +
				`{"properties":{"exploze":{},"kipicot":{}},"required":["exploze","kipicot"]},` +
				`{"properties":{"exploze":{},"ubongoDuel":{}},"required":["exploze","ubongoDuel"]},` +
				`{"properties":{"kipicot":{},"micropul":{}},"required":["micropul","kipicot"]},` +
				`{"properties":{"micropul":{},"ubongoDuel":{}},"required":["micropul","ubongoDuel"]},` +
				`{"properties":{"kipicot":{},"ubongoDuel":{}},"required":["kipicot","ubongoDuel"]}]},` +
				`"properties":{"exploze":{},"kipicot":{},"micropul":{},"player":{"maximum":64,"minimum":1}},"required":["player"]}`},
		{"a oneof of the generator's that is not the proto's", &rulebookv1.Move{},
			`{"properties":{"player":{}},"oneOf":[{},{}]}`, `review openapigen`},
		{"nothing required", &rulebookv1.ExplozeMove{}, `{"properties":{"row":{}}}`,
			`{"properties":{"row":{"maximum":31,"minimum":0}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkSchema(t, tc.schema, tc.want, func(s object) error { return c.message(s, tc.m.ProtoReflect().Descriptor()) })
		})
	}
}

// request returns a plugin request for the files of rulebook.v1.
func request() *pluginpb.CodeGeneratorRequest {
	fd := rulebookv1grpc.File_rulebook_v1_rules_service_proto
	return &pluginpb.CodeGeneratorRequest{
		FileToGenerate: []string{fd.Path()},
		ProtoFile:      []*descriptorpb.FileDescriptorProto{protodesc.ToFileDescriptorProto(fd)},
	}
}

// TestAddHTTPRules checks that the rules of http.yaml become the methods' google.api.http options, and the
// configurations refused.
func TestAddHTTPRules(t *testing.T) {
	config, err := os.ReadFile("../../proto/rulebook/v1/http.yaml")
	if err != nil {
		t.Fatal(err)
	}
	req := request()
	svc, err := addHTTPRules(req, config)
	if err != nil || svc != "rulebook.v1.RulesService" {
		t.Fatalf("%q %v", svc, err)
	}
	rules, methods := 0, req.GetProtoFile()[0].GetService()[0].GetMethod()
	for _, m := range methods {
		rule := proto.GetExtension(m.GetOptions(), annotations.E_Http).(*annotations.HttpRule)
		if m.GetName() == "ApplyMove" && (rule.GetPost() != "/v1/games/{game}:apply" || rule.GetBody() != "*") {
			t.Errorf("ApplyMove's rule: %v", rule)
		}
		if rule.GetSelector() != "" {
			rules++
		}
	}
	if rules != len(methods) {
		t.Errorf("%d methods with a rule, want every one (%d)", rules, len(methods))
	}

	for _, tc := range []struct{ config, want string }{
		{"http: {rules: [{selector: rulebook.v1.RulesService.Nope, get: /x}]}", "no method"},
		{"http: {rules: [{selector: rulebook.v1.RulesService.Score, get: /x}, {selector: rulebook.v1.RulesService.Score, get: /y}]}", "two rules"},
		{"type: google.api.Service", "no HTTP rules"},
		{"http: [", "yaml"},
	} {
		if _, err := addHTTPRules(request(), []byte(tc.config)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %s", tc.config, err, tc.want)
		}
	}
}

// TestParseParameter checks the plugin's options.
func TestParseParameter(t *testing.T) {
	for _, tc := range []struct{ param, want string }{
		{"a=1,b=2", ""},
		{"a=1", "option b=... is required"},
		{"a=1,b=2,c=3", "only a and b are known"},
	} {
		_, err := parseParameter(tc.param, "a", "b")
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.param, err, tc.want)
		}
	}
}
