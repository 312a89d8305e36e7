// Command openapigen is the protoc plugin that writes the OpenAPI 3.1 document of the REST API
// (gen/openapi/rulebook.openapi.json; buf runs it, see buf.gen.yaml). It drives grpc-gateway's protoc-gen-openapiv3,
// the command given as its arguments, and completes what that generator leaves out:
//
//   - the HTTP rules: protoc-gen-openapiv3 reads them only from google.api.http options, so openapigen first gives each
//     method its rule from the grpc_api_configuration file (proto/rulebook/v1/http.yaml), as the gateway has it;
//   - the title ("rulebook RulesService": the package without its version, and the service) and the version (the
//     package's version, "v1"), with the service's comment as the description;
//   - the fields the service requires and protovalidate's bounds, read from the descriptors' buf.validate options;
//   - the refusals: google.rpc.Status with its details (ErrorInfo, BadRequest, PreconditionFailure) described.
//
// Usage, as a buf local plugin with strategy all:
//
//	openapigen COMMAND [ARG...]
//
// with the options grpc_api_configuration=FILE (the HTTP rules) and file=NAME (the document written).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

func main() {
	if err := run(os.Stdin, os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "openapigen:", err)
		os.Exit(1)
	}
}

// run reads a CodeGeneratorRequest from in and writes to out the response holding the document, made by the
// generator command.
func run(in io.Reader, out io.Writer, command []string) error {
	if len(command) == 0 {
		return errors.New("usage: openapigen COMMAND [ARG...] (the protoc-gen-openapiv3 to run)")
	}
	raw, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	req := &pluginpb.CodeGeneratorRequest{}
	if err := proto.Unmarshal(raw, req); err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	params, err := parseParameter(req.GetParameter(), "grpc_api_configuration", "file")
	if err != nil {
		return err
	}
	config, err := os.ReadFile(params["grpc_api_configuration"])
	if err != nil {
		return err
	}
	svc, err := addHTTPRules(req, config)
	if err != nil {
		return fmt.Errorf("%s: %w", params["grpc_api_configuration"], err)
	}
	req.Parameter = nil
	generated, err := generate(req, command)
	if err != nil {
		return err
	}
	files, err := protodesc.NewFiles(&descriptorpb.FileDescriptorSet{File: req.GetProtoFile()})
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(generated, &doc); err != nil {
		return fmt.Errorf("the generator's document: %w", err)
	}
	if err := complete(doc, files, svc); err != nil {
		return err
	}
	body, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	resp := &pluginpb.CodeGeneratorResponse{
		SupportedFeatures: proto.Uint64(uint64(pluginpb.CodeGeneratorResponse_FEATURE_PROTO3_OPTIONAL)),
		File:              []*pluginpb.CodeGeneratorResponse_File{{Name: proto.String(params["file"]), Content: proto.String(string(body) + "\n")}},
	}
	b, err := proto.Marshal(resp)
	if err != nil {
		return err
	}
	_, err = out.Write(b)
	return err
}

// parseParameter returns the key=value pairs of a plugin's parameter, which must hold exactly the keys named.
func parseParameter(param string, keys ...string) (map[string]string, error) {
	params := map[string]string{}
	for p := range strings.SplitSeq(param, ",") {
		if p == "" {
			continue
		}
		k, v, _ := strings.Cut(p, "=")
		params[k] = v
	}
	for _, k := range keys {
		if params[k] == "" {
			return nil, fmt.Errorf("option %s=... is required", k)
		}
	}
	if len(params) != len(keys) {
		return nil, fmt.Errorf("options %q: only %s are known", param, strings.Join(keys, " and "))
	}
	return params, nil
}

// generate runs the generator command on req and returns the one document it answers.
func generate(req *pluginpb.CodeGeneratorRequest, command []string) ([]byte, error) {
	in, err := proto.Marshal(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(command[0], command[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %w\n%s", strings.Join(command, " "), err, stderr.String())
	}
	resp := &pluginpb.CodeGeneratorResponse{}
	if err := proto.Unmarshal(stdout.Bytes(), resp); err != nil {
		return nil, fmt.Errorf("%s: reading its response: %w", command[0], err)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s: %s", command[0], resp.GetError())
	}
	if len(resp.GetFile()) != 1 {
		return nil, fmt.Errorf("%s wrote %d documents, not the one of the service's file", command[0], len(resp.GetFile()))
	}
	return []byte(resp.GetFile()[0].GetContent()), nil
}
