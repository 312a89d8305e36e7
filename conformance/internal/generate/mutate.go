package main

import (
	"math"
	"math/rand/v2"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// slot is a place in a message that a mutation may change: a field of msg, or an element of a list field.
type slot struct {
	msg   protoreflect.Message
	field protoreflect.FieldDescriptor
}

// slots returns every field of m and of the messages inside it (set or not, but only the oneof case that is set):
// what mutate picks from.
func slots(m protoreflect.Message) []slot {
	var out []slot
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		f := fields.Get(i)
		if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() && m.WhichOneof(o) != f {
			continue
		}
		out = append(out, slot{m, f})
		switch {
		case f.IsList() && f.Kind() == protoreflect.MessageKind:
			list := m.Get(f).List()
			for j := range list.Len() {
				out = append(out, slots(list.Get(j).Message())...)
			}
		case f.IsMap():
		case f.Kind() == protoreflect.MessageKind && m.Has(f):
			out = append(out, slots(m.Get(f).Message())...)
		}
	}
	return out
}

// mutate returns a copy of m with one or two of its slots changed, drawn from rng: a number moved by one, set to
// zero, to a small or an extreme value; a flag flipped; an enum set to another number; bytes cut or altered; a list's
// element removed, repeated or swapped with another; a message left out.
func mutate[M proto.Message](m M, rng *rand.Rand) M {
	out := proto.Clone(m).(M)
	for range 1 + rng.IntN(2) {
		all := slots(out.ProtoReflect())
		if len(all) == 0 {
			break
		}
		s := all[rng.IntN(len(all))]
		if s.field.IsList() {
			mutateList(s.msg.Mutable(s.field).List(), rng)
			continue
		}
		if s.field.IsMap() {
			continue
		}
		if s.field.Kind() == protoreflect.MessageKind {
			s.msg.Clear(s.field)
			continue
		}
		if v, ok := mutateScalar(s.field, s.msg.Get(s.field), rng); ok {
			s.msg.Set(s.field, v)
		}
	}
	return out
}

// mutateList removes, repeats or swaps elements of list, or changes one of its scalar elements.
func mutateList(list protoreflect.List, rng *rand.Rand) {
	n := list.Len()
	if n == 0 {
		return
	}
	i, j := rng.IntN(n), rng.IntN(n)
	switch rng.IntN(4) {
	case 0: // remove element i
		for k := i; k+1 < n; k++ {
			list.Set(k, list.Get(k+1))
		}
		list.Truncate(n - 1)
	case 1: // repeat element i at the end
		list.Append(list.Get(i))
	case 2: // swap elements i and j
		a, b := list.Get(i), list.Get(j)
		list.Set(i, b)
		list.Set(j, a)
	default: // change a scalar element
		if v, ok := scalarOfList(list, i, rng); ok {
			list.Set(i, v)
		}
	}
}

// scalarOfList returns a changed value of element i of list, if its elements are scalars.
func scalarOfList(list protoreflect.List, i int, rng *rand.Rand) (protoreflect.Value, bool) {
	v := list.Get(i)
	switch x := v.Interface().(type) {
	case int32:
		return protoreflect.ValueOfInt32(int32(number(int64(x), rng))), true
	case uint32:
		return protoreflect.ValueOfUint32(uint32(max(0, number(int64(x), rng)))), true
	case string:
		return protoreflect.ValueOfString("Z"), true
	}
	return protoreflect.Value{}, false
}

// number returns another value for an integer x: one more or less, zero, a small number, or an extreme.
func number(x int64, rng *rand.Rand) int64 {
	switch rng.IntN(6) {
	case 0:
		return x + 1
	case 1:
		return x - 1
	case 2:
		return 0
	case 3:
		return int64(rng.IntN(50))
	case 4:
		return -1
	}
	return math.MaxInt32
}

// mutateScalar returns a changed value of the scalar field f, whose value is v.
func mutateScalar(f protoreflect.FieldDescriptor, v protoreflect.Value, rng *rand.Rand) (protoreflect.Value, bool) {
	switch f.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(!v.Bool()), true
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(number(v.Int(), rng))), true
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(number(v.Int(), rng)), true
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(max(0, number(int64(v.Uint()), rng)))), true
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(max(0, number(int64(v.Uint()), rng)))), true
	case protoreflect.EnumKind:
		values := f.Enum().Values()
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(rng.IntN(values.Len() + 1))), true
	case protoreflect.StringKind:
		return protoreflect.ValueOfString([]string{"", "Z", "A"}[rng.IntN(3)]), true
	case protoreflect.BytesKind:
		b := append([]byte(nil), v.Bytes()...)
		if len(b) > 0 && rng.IntN(2) == 0 {
			b[rng.IntN(len(b))] ^= 0xff
		} else if len(b) > 0 {
			b = b[:rng.IntN(len(b))]
		}
		return protoreflect.ValueOfBytes(b), true
	}
	return protoreflect.Value{}, false
}
