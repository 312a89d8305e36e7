package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/genproto/googleapis/api/serviceconfig"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

// addHTTPRules gives every method that the gRPC API configuration config (a google.api.Service in YAML, as
// grpc-gateway reads it) has an HTTP rule for that rule as its google.api.http option, in the files req generates.
// It returns the service of those methods: the rules must name methods of one service, each once.
func addHTTPRules(req *pluginpb.CodeGeneratorRequest, config []byte) (protoreflect.FullName, error) {
	var tree any
	if err := yaml.Unmarshal(config, &tree); err != nil {
		return "", err
	}
	js, err := json.Marshal(tree)
	if err != nil {
		return "", err
	}
	var service serviceconfig.Service
	// The file's own "type" key is grpc-gateway's marker of a google.api.Service, not one of its fields.
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(js, &service); err != nil {
		return "", err
	}
	rules := map[string]*annotations.HttpRule{}
	for _, r := range service.GetHttp().GetRules() {
		if _, dup := rules[r.GetSelector()]; dup {
			return "", fmt.Errorf("two rules for %s", r.GetSelector())
		}
		rules[r.GetSelector()] = r
	}
	if len(rules) == 0 {
		return "", errors.New("no HTTP rules")
	}
	generated := map[string]bool{}
	for _, name := range req.GetFileToGenerate() {
		generated[name] = true
	}
	var svc protoreflect.FullName
	for _, f := range req.GetProtoFile() {
		if !generated[f.GetName()] {
			continue
		}
		for _, s := range f.GetService() {
			for _, m := range s.GetMethod() {
				name := protoreflect.FullName(f.GetPackage()).Append(protoreflect.Name(s.GetName()))
				method := string(name.Append(protoreflect.Name(m.GetName())))
				rule, ok := rules[method]
				if !ok {
					continue
				}
				if svc != "" && svc != name {
					return "", fmt.Errorf("rules for methods of %s and of %s: the document describes one service", svc, name)
				}
				svc = name
				delete(rules, method)
				if m.Options == nil {
					m.Options = &descriptorpb.MethodOptions{}
				}
				proto.SetExtension(m.Options, annotations.E_Http, rule)
			}
		}
	}
	for selector := range rules {
		return "", fmt.Errorf("a rule for %s, which is no method of the files generated", selector)
	}
	return svc, nil
}
