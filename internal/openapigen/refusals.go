package main

import (
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// status is the component schema of a refusal, as the generator names it.
const status = "google.rpc.Status"

// refusalDetails are the messages the service puts in a refusal's details, with what they say.
var refusalDetails = []struct {
	md          protoreflect.MessageDescriptor
	description string
}{
	{(&errdetails.ErrorInfo{}).ProtoReflect().Descriptor(),
		"Every refusal has one: domain \"rulebook\", a stable UPPER_SNAKE_CASE reason, and the facts as metadata."},
	{(&errdetails.BadRequest{}).ProtoReflect().Descriptor(),
		"With INVALID_ARGUMENT (HTTP 400): the fields at fault."},
	{(&errdetails.PreconditionFailure{}).ProtoReflect().Descriptor(),
		"With FAILED_PRECONDITION (HTTP 400): the rule the move breaks."},
}

// describeRefusals describes the service's refusals in doc: google.rpc.Status, with each kind of its details.
func describeRefusals(doc object) error {
	schemas := walk(doc, "components", "schemas").(object)
	s, ok := schemas[status].(object)
	if !ok {
		return fmt.Errorf("the generator wrote no %s", status)
	}
	s["description"] = "A refusal: the gRPC status code (code), what is wrong for people (message) and the details, " +
		"as google.rpc.Status in protobuf's JSON mapping."
	s["required"] = []any{"code"}
	var kinds []any
	mapping := object{}
	for _, d := range refusalDetails {
		if err := detailSchemas(schemas, d.md); err != nil {
			return err
		}
		name := string(d.md.FullName())
		schema := schemas[name].(object)
		schema["description"] = d.description
		typeURL := "type.googleapis.com/" + name
		schema["properties"].(object)["@type"] = object{"const": typeURL, "type": "string"}
		schema["required"] = []any{"@type"}
		kinds = append(kinds, object{"$ref": ref(name)})
		mapping[typeURL] = ref(name)
	}
	details := walk(s, "properties", "details").(object)
	details["description"] = "An ErrorInfo, and a BadRequest or a PreconditionFailure, each named by its @type."
	details["items"] = object{"oneOf": kinds, "discriminator": object{"propertyName": "@type", "mapping": mapping}}
	return nil
}

// ref is the reference to the component schema name.
func ref(name string) string { return "#/components/schemas/" + name }

// detailSchemas adds to schemas the schema of md, a message of the details of a refusal, and of the messages it
// holds, with protobuf's JSON names. Those messages hold strings, numbers and messages, in lists and string maps.
func detailSchemas(schemas object, md protoreflect.MessageDescriptor) error {
	name := string(md.FullName())
	if _, done := schemas[name]; done {
		return nil
	}
	props := object{}
	schemas[name] = object{"type": "object", "properties": props}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		value := fd
		if fd.IsMap() {
			if fd.MapKey().Kind() != protoreflect.StringKind {
				return fmt.Errorf("%s: a map without string keys", fd.FullName())
			}
			value = fd.MapValue()
		}
		var s object
		switch value.Kind() {
		case protoreflect.StringKind:
			s = object{"type": "string"}
		case protoreflect.Int32Kind:
			s = object{"type": "integer", "format": "int32"}
		case protoreflect.MessageKind:
			if err := detailSchemas(schemas, value.Message()); err != nil {
				return err
			}
			s = object{"$ref": ref(string(value.Message().FullName()))}
		default:
			return fmt.Errorf("%s: no schema for a %s", fd.FullName(), value.Kind())
		}
		switch {
		case fd.IsMap():
			s = object{"type": "object", "additionalProperties": s}
		case fd.IsList():
			s = object{"type": "array", "items": s}
		}
		props[fd.JSONName()] = s
	}
	return nil
}

// refusalResponses gives op the service's two responses of refusals: the caller's (4XX) and the server's (the others).
func refusalResponses(op object) {
	responses := op["responses"].(object)
	responses["4XX"] = object{"$ref": "#/components/responses/" + callerRefusal}
	responses["default"] = object{"$ref": "#/components/responses/" + serverRefusal}
}

// The responses of refusals, in components.responses.
const (
	callerRefusal = "CallerRefusal"
	serverRefusal = "ServerRefusal"
)

// refusalComponents returns the responses of refusals, by name.
func refusalComponents() object {
	response := func(description string) object {
		return object{"description": description,
			"content": object{"application/json": object{"schema": object{"$ref": ref(status)}}}}
	}
	return object{
		callerRefusal: response("A refusal of the request, with the HTTP status of its gRPC code: INVALID_ARGUMENT and " +
			"FAILED_PRECONDITION 400, PERMISSION_DENIED 403, NOT_FOUND 404, UNIMPLEMENTED 405 (a method the path does not " +
			"take), RESOURCE_EXHAUSTED 429 (413: a request too large), DEADLINE_EXCEEDED 408 (a body that did not arrive " +
			"in time)."),
		serverRefusal: response("A refusal of the server's own: DEADLINE_EXCEEDED 504 (the call ran past its deadline), " +
			"UNAVAILABLE 503 (the server is stopping or gone: retry), INTERNAL 500."),
	}
}
