package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// committed reads gen/rulebook.binpb, as scripts/generate wrote it.
func committed(t *testing.T) ([]byte, *descriptorpb.FileDescriptorSet) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "gen", "rulebook.binpb"))
	if err != nil {
		t.Fatal(err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(b, set); err != nil {
		t.Fatal(err)
	}
	return b, set
}

// TestSetSelfContained checks that every file of gen/rulebook.binpb comes after every file it imports, that the set
// builds into files with nothing else, and that it holds the service and everything its calls' statuses carry.
func TestSetSelfContained(t *testing.T) {
	_, set := committed(t)
	before := make(map[string]bool)
	for _, f := range set.GetFile() {
		for _, dep := range f.GetDependency() {
			if !before[dep] {
				t.Errorf("%s imports %s, which the set does not hold before it", f.GetName(), dep)
			}
		}
		if before[f.GetName()] {
			t.Errorf("%s is in the set twice", f.GetName())
		}
		before[f.GetName()] = true
		if comments := f.GetSourceCodeInfo() != nil; comments != strings.HasPrefix(f.GetName(), own) {
			t.Errorf("%s: comments kept %v, want them for the API's own files only", f.GetName(), comments)
		}
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		t.Fatal(err)
	}
	service, err := files.FindDescriptorByName("rulebook.v1.RulesService")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := service.(protoreflect.ServiceDescriptor); !ok {
		t.Errorf("rulebook.v1.RulesService is a %T, not a service", service)
	}
	for _, name := range []protoreflect.FullName{
		"google.rpc.Status", "google.rpc.ErrorInfo", "google.rpc.BadRequest", "google.rpc.PreconditionFailure",
		"grpc.health.v1.Health", "buf.validate.FieldRules",
	} {
		if _, err := files.FindDescriptorByName(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	sources, err := filepath.Glob(filepath.Join("..", "..", "proto", "rulebook", "v1", "*.proto"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("no .proto file in proto/rulebook/v1 (%v)", err)
	}
	for _, source := range sources {
		if _, err := files.FindFileByPath("rulebook/v1/" + filepath.Base(source)); err != nil {
			t.Errorf("the set lacks %s: %v", source, err)
		}
	}
}

// TestAddedAsRegistered checks that each file the set adds to the API's is the one its Go package registers, which
// is what the server sends.
func TestAddedAsRegistered(t *testing.T) {
	_, set := committed(t)
	inSet := make(map[string]*descriptorpb.FileDescriptorProto)
	for _, f := range set.GetFile() {
		inSet[f.GetName()] = f
	}
	for _, path := range added {
		fd, err := protoregistry.GlobalFiles.FindFileByPath(path)
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(inSet[path], protodesc.ToFileDescriptorProto(fd)) {
			t.Errorf("%s in the set is not the file its Go package registers", path)
		}
	}
}

// TestBuildDeterministic checks that build gives the same bytes every time, and that a set it built comes out of it
// unchanged (nothing left to strip or add).
func TestBuildDeterministic(t *testing.T) {
	b, _ := committed(t)
	again, err := build(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, b) {
		t.Fatal("building gen/rulebook.binpb again changes it")
	}
	for range 3 {
		next, err := build(b)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(next, again) {
			t.Fatal("two builds of the same set differ")
		}
	}
}

// TestBuildRefuses checks that build fails on what is not a set of the API, or not one with every file it imports.
func TestBuildRefuses(t *testing.T) {
	_, set := committed(t)
	encode := func(files ...*descriptorpb.FileDescriptorProto) []byte {
		b, err := proto.Marshal(&descriptorpb.FileDescriptorSet{File: files})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var withoutValidate []*descriptorpb.FileDescriptorProto
	for _, f := range set.GetFile() {
		if f.GetName() != "buf/validate/validate.proto" {
			withoutValidate = append(withoutValidate, f)
		}
	}
	for _, tc := range []struct {
		name, want string
		in         []byte
	}{
		{"not protobuf", "reading the API's set", []byte("\xff\xff\xff")},
		{"empty", "holds no file", nil},
		{"an import missing", "not self-contained", encode(withoutValidate...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := build(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("build: %v, want an error with %q", err, tc.want)
			}
		})
	}
}
