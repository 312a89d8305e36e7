package main

import (
	"fmt"
	"regexp"
	"slices"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// field adds to p, the schema of the field fd (a property, or a parameter's schema), the bounds of its buf.validate
// rules that a schema can state. A rule with no such form is an error, but for CEL expressions, which only the
// field's comment can describe.
func (c completer) field(p object, fd protoreflect.FieldDescriptor) error {
	rules, _ := proto.GetExtension(fd.Options(), validate.E_Field).(*validate.FieldRules)
	if rules == nil || rules.GetIgnore() == validate.Ignore_IGNORE_ALWAYS {
		return nil
	}
	if rules.GetIgnore() != validate.Ignore_IGNORE_UNSPECIFIED {
		return fmt.Errorf("%s: ignore %s has no schema form here", fd.FullName(), rules.GetIgnore())
	}
	if err := bounds(p, rules, fd, fd.IsList() || fd.IsMap()); err != nil {
		return fmt.Errorf("%s: %w", fd.FullName(), err)
	}
	return nil
}

// bounds adds to s the bounds of rules, the rules of fd, or of its elements if !whole.
func bounds(s object, rules *validate.FieldRules, fd protoreflect.FieldDescriptor, whole bool) error {
	if rules == nil {
		return nil
	}
	switch {
	case whole && fd.IsList():
		r := rules.GetRepeated()
		if rules.GetType() != nil && r == nil {
			return fmt.Errorf("rules of a %T on a list", rules.GetType())
		}
		return setFrom(s, r, map[string]string{"min_items": "minItems", "max_items": "maxItems", "unique": "uniqueItems"},
			func(name string, v protoreflect.Value) error {
				if name != "items" {
					return errNoForm
				}
				items, _ := s["items"].(object)
				return bounds(items, r.GetItems(), fd, false)
			})
	case whole && fd.IsMap():
		r := rules.GetMap()
		if rules.GetType() != nil && r == nil {
			return fmt.Errorf("rules of a %T on a map", rules.GetType())
		}
		return setFrom(s, r, map[string]string{"min_pairs": "minProperties", "max_pairs": "maxProperties"},
			func(name string, v protoreflect.Value) error {
				switch name {
				case "keys":
					keys := object{"type": "string"}
					s["propertyNames"] = keys
					return bounds(keys, r.GetKeys(), fd.MapKey(), false)
				case "values":
					values, _ := s["additionalProperties"].(object)
					return bounds(values, r.GetValues(), fd.MapValue(), false)
				}
				return errNoForm
			})
	}
	if rules.GetType() == nil {
		return nil
	}
	typed := rules.ProtoReflect().Get(rules.ProtoReflect().WhichOneof(rulesType)).Message().Interface()
	switch r := typed.(type) {
	case *validate.StringRules:
		return stringBounds(s, r)
	case *validate.BytesRules:
		return bytesBounds(s, r)
	case *validate.EnumRules:
		return enumBounds(s, r, fd.Enum())
	case *validate.BoolRules:
		return setFrom(s, r, map[string]string{"const": "const"}, nil)
	case *validate.DurationRules, *validate.TimestampRules:
		// protojson writes a Duration ("1.5s") or a Timestamp (RFC 3339) as a string, to which a schema's
		// numeric bounds do not apply: the field's comment states them.
		return nil
	}
	if kind := fd.Kind(); kind == protoreflect.Int64Kind || kind == protoreflect.Sint64Kind || kind == protoreflect.Sfixed64Kind ||
		kind == protoreflect.Uint64Kind || kind == protoreflect.Fixed64Kind {
		// protojson writes a 64-bit integer as a string, to which a schema's numeric bounds do not apply: the
		// field's comment states them.
		return nil
	}
	return numberBounds(s, typed)
}

// rulesType is the oneof of FieldRules that holds the rules of one type.
var rulesType = (&validate.FieldRules{}).ProtoReflect().Descriptor().Oneofs().ByName("type")

// errNoForm is a rule that no schema keyword states.
var errNoForm = fmt.Errorf("no schema form")

// setFrom sets in s, for each rule set in r named in keywords, the keyword it names to the rule's value; every other
// rule set goes to other (nil: none may be set). Examples and predefined rules (extensions) are left out.
func setFrom(s object, r proto.Message, keywords map[string]string, other func(name string, v protoreflect.Value) error) error {
	var err error
	r.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		name := string(fd.Name())
		switch keyword, ok := keywords[name]; {
		case ok:
			s[keyword] = jsonValue(v)
		case fd.IsExtension() || name == "example":
		case other != nil:
			if err = other(name, v); err == errNoForm {
				err = fmt.Errorf("rule %s has no schema form", name)
			}
		default:
			err = fmt.Errorf("rule %s has no schema form", name)
		}
		return err == nil
	})
	return err
}

// jsonValue returns v, a rule's value, as JSON.
func jsonValue(v protoreflect.Value) any {
	switch x := v.Interface().(type) {
	case int32:
		return int64(x)
	case uint32:
		return uint64(x)
	case float32:
		return float64(x)
	case protoreflect.List:
		list := make([]any, x.Len())
		for i := range list {
			list[i] = jsonValue(x.Get(i))
		}
		return list
	default:
		return x
	}
}

// numberBounds adds to s the bounds of r, the rules of a number that JSON writes as a number.
func numberBounds(s object, r proto.Message) error {
	var lower, upper []string
	err := setFrom(s, r, map[string]string{"const": "const", "in": "enum"}, func(name string, v protoreflect.Value) error {
		switch name {
		case "gt", "gte":
			lower = []string{map[string]string{"gt": "exclusiveMinimum", "gte": "minimum"}[name]}
			s[lower[0]] = jsonValue(v)
		case "lt", "lte":
			upper = []string{map[string]string{"lt": "exclusiveMaximum", "lte": "maximum"}[name]}
			s[upper[0]] = jsonValue(v)
		case "not_in":
			s["not"] = object{"enum": jsonValue(v)}
		case "finite": // JSON numbers are finite; protojson's "NaN" and "Infinity" are strings the schema refuses
		default:
			return errNoForm
		}
		return nil
	})
	if err != nil || lower == nil || upper == nil {
		return err
	}
	// A lower bound above the upper one is protovalidate's range outside both: x above the one or below the other.
	if toFloat(s[lower[0]]) > toFloat(s[upper[0]]) {
		s["anyOf"] = []any{object{lower[0]: s[lower[0]]}, object{upper[0]: s[upper[0]]}}
		delete(s, lower[0])
		delete(s, upper[0])
	}
	return nil
}

// toFloat returns a bound, as jsonValue gives it, as a float64.
func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// stringBounds adds to s the bounds of r, a string's rules.
func stringBounds(s object, r *validate.StringRules) error {
	var patterns []string
	err := setFrom(s, r, map[string]string{"const": "const", "min_len": "minLength", "max_len": "maxLength", "in": "enum"},
		func(name string, v protoreflect.Value) error {
			switch name {
			case "len":
				s["minLength"], s["maxLength"] = jsonValue(v), jsonValue(v)
			case "max_bytes": // below
			case "pattern":
				patterns = append(patterns, v.String())
			case "prefix":
				patterns = append(patterns, "^"+regexp.QuoteMeta(v.String()))
			case "suffix":
				patterns = append(patterns, regexp.QuoteMeta(v.String())+"$")
			case "contains":
				patterns = append(patterns, regexp.QuoteMeta(v.String()))
			case "not_in":
				s["not"] = object{"enum": jsonValue(v)}
			default:
				return errNoForm
			}
			return nil
		})
	if err != nil {
		return err
	}
	// A character is at least a byte: max_bytes bounds the length too, more loosely, but every accepted value meets it.
	if m, ok := s["maxLength"].(uint64); r.MaxBytes != nil && (!ok || r.GetMaxBytes() < m) {
		s["maxLength"] = r.GetMaxBytes()
	}
	switch len(patterns) {
	case 0:
	case 1:
		s["pattern"] = patterns[0]
	default:
		var all []any
		for _, p := range patterns {
			all = append(all, object{"pattern": p})
		}
		s["allOf"] = all
	}
	return nil
}

// bytesBounds adds to s the bounds of r, the rules of bytes, which JSON writes in base64: n bytes are at most
// 4⌈n/3⌉ characters (padded), at least ⌈4n/3⌉ (unpadded).
func bytesBounds(s object, r *validate.BytesRules) error {
	most := func(n uint64) uint64 { return 4 * ((n + 2) / 3) }
	least := func(n uint64) uint64 { return (4*n + 2) / 3 }
	return setFrom(s, r, nil, func(name string, v protoreflect.Value) error {
		switch name {
		case "len":
			s["minLength"], s["maxLength"] = least(v.Uint()), most(v.Uint())
		case "min_len":
			s["minLength"] = least(v.Uint())
		case "max_len":
			s["maxLength"] = most(v.Uint())
		default:
			return errNoForm
		}
		return nil
	})
}

// enumBounds adds to s, the schema of a field of the enum ed, the values that the rules r allow, by name, as JSON
// writes them.
func enumBounds(s object, r *validate.EnumRules, ed protoreflect.EnumDescriptor) error {
	var in, notIn []protoreflect.EnumNumber
	err := setFrom(s, r, nil, func(name string, v protoreflect.Value) error {
		switch name {
		case "defined_only": // the enum's schema lists the defined values only
		case "const":
			in = []protoreflect.EnumNumber{protoreflect.EnumNumber(v.Int())}
		case "in", "not_in":
			list := v.List()
			for i := range list.Len() {
				n := protoreflect.EnumNumber(list.Get(i).Int())
				if name == "in" {
					in = append(in, n)
				} else {
					notIn = append(notIn, n)
				}
			}
		default:
			return errNoForm
		}
		return nil
	})
	if err != nil || (in == nil && notIn == nil) {
		return err
	}
	var names []any
	values := ed.Values()
	for i := range values.Len() {
		v := values.Get(i)
		if (in == nil || slices.Contains(in, v.Number())) && !slices.Contains(notIn, v.Number()) {
			names = append(names, string(v.Name()))
		}
	}
	s["enum"] = names
	return nil
}

// oneofGroups states in schema, md's, that at most one member of each of md's oneofs is set, as "no two of them
// are": the generator's oneOf of a branch per member and one for none (without any) makes openapi-typescript's types
// of a message an intersection with a union that openapi-fetch's request and response types cannot map into each
// other. A schema of no two members is no type, so the types are the message's fields, every member optional.
func oneofGroups(schema object, md protoreflect.MessageDescriptor) error {
	var groups [][]string
	oneofs := md.Oneofs()
	for i := range oneofs.Len() {
		if od := oneofs.Get(i); !od.IsSynthetic() {
			var members []string
			for j := range od.Fields().Len() {
				members = append(members, od.Fields().Get(j).JSONName())
			}
			groups = append(groups, members)
		}
	}
	if len(groups) == 0 {
		return nil
	}
	// The generator writes them in a message's component, not in a request's body.
	if schema["oneOf"] != nil || schema["allOf"] != nil {
		generated := []any{schema}
		if len(groups) > 1 {
			generated, _ = schema["allOf"].([]any)
		}
		if len(generated) != len(groups) {
			return fmt.Errorf("%s: the generator's oneOf groups are not its oneofs: review openapigen", md.FullName())
		}
		for i, members := range groups {
			if branches, _ := walk(generated[i], "oneOf").([]any); len(branches) != len(members)+1 {
				return fmt.Errorf("%s: the generator's branches of oneof %d are not its members and none: review openapigen", md.FullName(), i)
			}
		}
		delete(schema, "oneOf")
		delete(schema, "allOf")
	}
	for _, members := range groups {
		atMostOne(schema, members)
	}
	return nil
}

// atMostOne adds to schema the constraint that no two of the properties members are present.
func atMostOne(schema object, members []string) {
	var pairs []any
	switch not, _ := schema["not"].(object); {
	case not["anyOf"] != nil:
		pairs = not["anyOf"].([]any)
	case not != nil:
		pairs = []any{not}
	}
	for a := range members {
		for _, b := range members[a+1:] {
			// Each named as a property too, which it is (of any value), for the lint's sake.
			pairs = append(pairs, object{"properties": object{members[a]: object{}, b: object{}}, "required": []any{members[a], b}})
		}
	}
	switch len(pairs) {
	case 0:
	case 1:
		schema["not"] = pairs[0]
	default:
		schema["not"] = object{"anyOf": pairs}
	}
}

// oneofRules adds to schema, md's, the message's oneof rules: exactly one of the fields named (a oneOf of a branch
// for each, which openapi-typescript makes a union), or at most one.
func oneofRules(schema object, md protoreflect.MessageDescriptor) error {
	rules, _ := proto.GetExtension(md.Options(), validate.E_Message).(*validate.MessageRules)
	props, _ := schema["properties"].(object)
	for _, rule := range rules.GetOneof() {
		var branches []any
		var members []string
		for _, name := range rule.GetFields() {
			fd := md.Fields().ByName(protoreflect.Name(name))
			if fd == nil {
				return fmt.Errorf("%s: oneof rule names no field %s", md.FullName(), name)
			}
			p, ok := props[fd.JSONName()]
			if !ok {
				return fmt.Errorf("%s: oneof rule names %s, which the schema does not have", md.FullName(), name)
			}
			one := object{"type": "object", "properties": object{fd.JSONName(): p}, "required": []any{fd.JSONName()}}
			branches = append(branches, one)
			members = append(members, fd.JSONName())
		}
		if rule.GetRequired() {
			addOneOf(schema, branches)
		} else {
			atMostOne(schema, members)
		}
	}
	return nil
}

// addOneOf adds to schema the constraint that exactly one of branches holds, with those it already has.
func addOneOf(schema object, branches []any) {
	existing, has := schema["oneOf"]
	if !has {
		schema["oneOf"] = branches
		return
	}
	all, _ := schema["allOf"].([]any)
	if all == nil {
		all = []any{object{"oneOf": existing}}
		delete(schema, "oneOf")
	}
	schema["allOf"] = append(all, object{"oneOf": branches})
}
