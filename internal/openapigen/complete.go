package main

import (
	"fmt"
	"slices"
	"strings"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// object is a JSON object of the document.
type object = map[string]any

// completer completes the generator's document from the descriptors of the files it was made from.
type completer struct {
	files     *protoregistry.Files
	validator protovalidate.Validator
}

// complete adds to doc, the generator's document of the service named svc, its title, version and description, the
// required fields and protovalidate's bounds of every message it describes, and the details of its refusals.
func complete(doc object, files *protoregistry.Files, svc protoreflect.FullName) error {
	d, err := files.FindDescriptorByName(svc)
	if err != nil {
		return err
	}
	sd := d.(protoreflect.ServiceDescriptor)
	validator, err := protovalidate.New()
	if err != nil {
		return err
	}
	c := completer{files: files, validator: validator}
	pkg := sd.ParentFile().Package()
	title := strings.ReplaceAll(string(pkg.Parent()), ".", " ") + " " + string(sd.Name())
	doc["info"] = object{"title": title, "version": string(pkg.Name()), "description": comment(sd),
		"license": object{"name": "Apache License 2.0", "identifier": "Apache-2.0"}} // the repository's LICENSE
	// The server that serves the document serves the API: the relative URL is the document's own server.
	doc["servers"] = []any{object{"url": "/", "description": "the server that serves this document"}}
	// No call needs credentials: a seat pass, which lets its holder act for a seat, travels in the request's body.
	doc["security"] = []any{}

	components, _ := doc["components"].(object)
	components["responses"] = refusalComponents()
	schemas, _ := components["schemas"].(object)
	for name, s := range schemas {
		d, err := files.FindDescriptorByName(protoreflect.FullName(name))
		if err != nil {
			continue // google.rpc.Status, which the generator writes itself
		}
		if md, ok := d.(protoreflect.MessageDescriptor); ok {
			if err := c.message(s.(object), md); err != nil {
				return err
			}
		}
	}
	paths, _ := doc["paths"].(object)
	for path, item := range paths {
		for method, op := range item.(object) {
			if err := c.operation(op.(object), sd); err != nil {
				return fmt.Errorf("%s %s: %w", strings.ToUpper(method), path, err)
			}
		}
	}
	return describeRefusals(doc)
}

// operation completes an operation of the service: the bounds of its parameters, the required fields and bounds of
// its request body (its input message but the fields in the path), and its responses.
func (c completer) operation(op object, sd protoreflect.ServiceDescriptor) error {
	id, _ := op["operationId"].(string)
	md := sd.Methods().ByName(protoreflect.Name(strings.TrimPrefix(id, string(sd.Name())+"_")))
	if md == nil {
		return fmt.Errorf("operation %q is no method of %s", id, sd.FullName())
	}
	input := md.Input()
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		p := p.(object)
		fd := fieldByPath(input, p["name"].(string))
		if fd == nil {
			return fmt.Errorf("parameter %s is no field of %s", p["name"], input.FullName())
		}
		if err := c.field(p["schema"].(object), fd); err != nil {
			return err
		}
	}
	if body, ok := walk(op, "requestBody", "content", "application/json", "schema").(object); ok {
		if err := c.message(body, input); err != nil {
			return err
		}
	}
	refusalResponses(op)
	return nil
}

// fieldByPath returns the field of md at a path of field names ("a.b"), or nil.
func fieldByPath(md protoreflect.MessageDescriptor, path string) protoreflect.FieldDescriptor {
	var fd protoreflect.FieldDescriptor
	for name := range strings.SplitSeq(path, ".") {
		if md == nil {
			return nil
		}
		if fd = md.Fields().ByName(protoreflect.Name(name)); fd == nil {
			return nil
		}
		md = fd.Message()
	}
	return fd
}

// message completes schema, the generator's schema of md (or of its fields but those in a request's path): the
// bounds of each field it has, the fields the service requires, and the message's oneof rules.
func (c completer) message(schema object, md protoreflect.MessageDescriptor) error {
	props, _ := schema["properties"].(object)
	required, err := c.required(md)
	if err != nil {
		return err
	}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if _, ok := props[fd.JSONName()]; !ok {
			continue
		}
		for _, p := range properties(schema, fd.JSONName()) {
			if err := c.field(p, fd); err != nil {
				return err
			}
		}
		if required[fd] {
			list, _ := schema["required"].([]any)
			if !slices.Contains(list, any(fd.JSONName())) {
				schema["required"] = append(list, fd.JSONName())
			}
		}
	}
	if err := oneofGroups(schema, md); err != nil {
		return err
	}
	return oneofRules(schema, md)
}

// required returns the fields of md that the service requires: those whose rules a message of md's type without
// them breaks (the rule required, a minimum above zero, a pattern the empty string misses, ...), as protovalidate
// itself decides.
func (c completer) required(md protoreflect.MessageDescriptor) (map[protoreflect.FieldDescriptor]bool, error) {
	err := c.validator.Validate(dynamicpb.NewMessage(md))
	if err == nil {
		return nil, nil
	}
	verr, ok := err.(*protovalidate.ValidationError)
	if !ok {
		return nil, fmt.Errorf("%s: %w", md.FullName(), err)
	}
	required := map[protoreflect.FieldDescriptor]bool{}
	for _, v := range verr.Violations {
		if fd := v.FieldDescriptor; fd != nil && fd.ContainingMessage() == md {
			required[fd] = true
		}
	}
	return required, nil
}

// properties returns every schema of the property name in schema: in its properties, and in the branches of its
// oneOf groups, where the generator repeats a oneof's members.
func properties(schema object, name string) []object {
	var found []object
	if p, ok := walk(schema, "properties", name).(object); ok {
		found = append(found, p)
	}
	for _, key := range []string{"oneOf", "allOf", "anyOf"} {
		list, _ := schema[key].([]any)
		for _, s := range list {
			if s, ok := s.(object); ok {
				found = append(found, properties(s, name)...)
			}
		}
	}
	return found
}

// walk returns the value at the path of keys in v, or nil.
func walk(v any, keys ...string) any {
	for _, k := range keys {
		o, ok := v.(object)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

// comment returns the leading comment of d, as the generator writes one: its lines without their first space.
func comment(d protoreflect.Descriptor) string {
	text := d.ParentFile().SourceLocations().ByDescriptor(d).LeadingComments
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, " ")
	}
	return strings.Join(lines, "\n")
}
