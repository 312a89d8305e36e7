// Command descset writes gen/rulebook.binpb, a FileDescriptorSet of the whole API that a gRPC client in any language
// loads with nothing else: the API's files with their comments, every file they import, the error model the server
// sends in a status's details (google.rpc.Status, ErrorInfo, BadRequest, PreconditionFailure) and the health service
// it serves (grpc.health.v1).
//
// It reads the API's set from buf (`buf build --as-file-descriptor-set`, which holds the API's files and what they
// import, from source, with comments) on standard input. The files of the error model and of health are not
// imported by the API and ship no .proto file in any Go module, so they are taken from the descriptors that their
// Go packages register. Comments are kept for the API's own files (those under rulebook/) only: the imported files'
// would triple the size of the set, and are in their own projects. The set is written in deterministic order
// (buf's, then each added file after the files it imports) and encoding, so that it is byte-identical when
// regenerated. Run by scripts/generate:
//
//	buf build --as-file-descriptor-set -o - | go run ./scripts/descset -o gen/rulebook.binpb
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	_ "google.golang.org/genproto/googleapis/rpc/errdetails" // registers google/rpc/error_details.proto
	_ "google.golang.org/genproto/googleapis/rpc/status"     // registers google/rpc/status.proto
	_ "google.golang.org/grpc/health/grpc_health_v1"         // registers grpc/health/v1/health.proto
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// own is the path prefix of the API's own files, whose comments the set keeps.
const own = "rulebook/"

// added are the files that the set holds besides the API's, each with every file it imports.
var added = []string{
	"google/rpc/status.proto",
	"google/rpc/error_details.proto",
	"grpc/health/v1/health.proto",
}

func main() {
	out := flag.String("o", "", "the file to write the set to")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: buf build --as-file-descriptor-set -o - | descset -o FILE")
		os.Exit(2)
	}
	in, err := io.ReadAll(os.Stdin)
	if err == nil {
		var set []byte
		if set, err = build(in); err == nil {
			err = os.WriteFile(*out, set, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "descset:", err)
		os.Exit(1)
	}
}

// build returns the encoded set: the set that api encodes, without the comments of files not the API's own, and
// with the added files. It fails if the set is not self-contained.
func build(api []byte) ([]byte, error) {
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(api, set); err != nil {
		return nil, fmt.Errorf("reading the API's set: %w", err)
	}
	if len(set.GetFile()) == 0 {
		return nil, fmt.Errorf("the API's set holds no file")
	}
	seen := make(map[string]bool)
	for _, f := range set.GetFile() {
		seen[f.GetName()] = true
		if !strings.HasPrefix(f.GetName(), own) {
			f.SourceCodeInfo = nil
		}
	}
	var add func(protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imports := fd.Imports()
		for i := range imports.Len() {
			add(imports.Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	for _, path := range added {
		fd, err := protoregistry.GlobalFiles.FindFileByPath(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		add(fd)
	}
	if _, err := protodesc.NewFiles(set); err != nil {
		return nil, fmt.Errorf("the set is not self-contained: %w", err)
	}
	return proto.MarshalOptions{Deterministic: true}.Marshal(set)
}
