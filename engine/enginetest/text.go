package enginetest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// The playthroughs print messages with these two writers rather than prototext or protojson, whose output protobuf-go
// varies on purpose from build to build (random spaces): a golden file must not change with the binary. Both print
// the fields that are set, in the order the .proto declares them, map entries by key, enums by name and bytes in hex,
// so that a field added to a message shows up after -update with no change here.

// Compact returns m on one line, such as `{player: 1 exploze: {row: 2 col: 3}}`; a message with no field set is `{}`.
func Compact(m protoreflect.ProtoMessage) string {
	var b strings.Builder
	writeCompact(&b, m.ProtoReflect())
	return b.String()
}

// writeCompact writes m as Compact does.
func writeCompact(b *strings.Builder, m protoreflect.Message) {
	b.WriteByte('{')
	sep := ""
	for _, fd := range setFields(m) {
		fmt.Fprintf(b, "%s%s: ", sep, fd.Name())
		sep = " "
		v := m.Get(fd)
		switch {
		case fd.IsList():
			list := v.List()
			b.WriteByte('[')
			for i := range list.Len() {
				if i > 0 {
					b.WriteString(", ")
				}
				writeCompactValue(b, fd, list.Get(i))
			}
			b.WriteByte(']')
		case fd.IsMap():
			b.WriteByte('{')
			for i, k := range mapKeys(v.Map()) {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(k.String() + ": ")
				writeCompactValue(b, fd.MapValue(), v.Map().Get(k))
			}
			b.WriteByte('}')
		default:
			writeCompactValue(b, fd, v)
		}
	}
	b.WriteByte('}')
}

// writeCompactValue writes one value of field fd (an element, for a list).
func writeCompactValue(b *strings.Builder, fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	if fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind {
		writeCompact(b, v.Message())
		return
	}
	b.WriteString(scalar(fd, v))
}

// Flat returns m as lines "prefix.field = value", one for each scalar field set, with nested messages' fields as
// "prefix.field.inner" and list elements as "prefix.field[i]": the form of a playthrough's header.
func Flat(prefix string, m protoreflect.ProtoMessage) string {
	var b strings.Builder
	writeFlat(&b, prefix, m.ProtoReflect())
	return b.String()
}

// writeFlat writes m as Flat does.
func writeFlat(b *strings.Builder, prefix string, m protoreflect.Message) {
	for _, fd := range setFields(m) {
		path, v := prefix+"."+string(fd.Name()), m.Get(fd)
		switch {
		case fd.IsList():
			for i := range v.List().Len() {
				writeFlatValue(b, fmt.Sprintf("%s[%d]", path, i), fd, v.List().Get(i))
			}
		case fd.IsMap():
			for _, k := range mapKeys(v.Map()) {
				writeFlatValue(b, fmt.Sprintf("%s[%s]", path, k.String()), fd.MapValue(), v.Map().Get(k))
			}
		default:
			writeFlatValue(b, path, fd, v)
		}
	}
}

// writeFlatValue writes one value of field fd at path.
func writeFlatValue(b *strings.Builder, path string, fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	if fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind {
		writeFlat(b, path, v.Message())
		return
	}
	fmt.Fprintf(b, "%s = %s\n", path, scalar(fd, v))
}

// setFields returns the fields set in m, in declaration order.
func setFields(m protoreflect.Message) []protoreflect.FieldDescriptor {
	var set []protoreflect.FieldDescriptor
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		if fd := fields.Get(i); m.Has(fd) {
			set = append(set, fd)
		}
	}
	return set
}

// mapKeys returns the keys of m in order.
func mapKeys(m protoreflect.Map) []protoreflect.MapKey {
	var keys []protoreflect.MapKey
	m.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	slices.SortFunc(keys, func(a, b protoreflect.MapKey) int { return strings.Compare(a.String(), b.String()) })
	return keys
}

// scalar returns a value of a field that is not a message: a string quoted, an enum by its name, bytes in hex.
func scalar(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return strconv.Quote(v.String())
	case protoreflect.BytesKind:
		return fmt.Sprintf("%x", v.Bytes())
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			return string(ev.Name())
		}
		return strconv.Itoa(int(v.Enum()))
	}
	return v.String()
}

// Strings returns the String of each of xs, such as the events of a move, for comparing with a table's want.
func Strings[T fmt.Stringer](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}
