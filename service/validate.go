package service

import (
	"errors"
	"strconv"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/internal/refusal"
)

// validate checks req against the structural rules of the API (bounds on every list and string, ranges, required
// fields), before any engine sees it. It stops at the first broken rule (a list's bound before its items), which is
// INVALID_ARGUMENT with its field violation, and the reason and field in the ErrorInfo.
func (s *Service) validate(req proto.Message) error {
	err := s.validator.Validate(req)
	if err == nil {
		return nil
	}
	var invalid *protovalidate.ValidationError
	if !errors.As(err, &invalid) || len(invalid.Violations) == 0 {
		return s.internal("validate", err) // the API's own rules fail to compile or run: a fault of this build
	}
	violations := make([]*errdetails.BadRequest_FieldViolation, len(invalid.Violations))
	for i, v := range invalid.Violations {
		reason, field := violationReason(v.Proto)
		violations[i] = &errdetails.BadRequest_FieldViolation{Field: field, Description: v.Proto.GetMessage(), Reason: reason}
	}
	first := violations[0]
	facts := map[string]string{"field": first.Field, "rule": invalid.Violations[0].Proto.GetRuleId()}
	return refusal.New(codes.InvalidArgument, first.Reason, first.Field+": "+first.Description, facts,
		&errdetails.BadRequest{FieldViolations: violations})
}

// violationReason returns the reason code and the field path (in JSON names, as the engines' field paths) of a
// broken rule.
func violationReason(v *validate.Violation) (reason, field string) {
	field = jsonPath(v.GetField())
	rule := v.GetRuleId()
	switch {
	case rule == "required":
		return ReasonMissingField, field
	case rule == "message.oneof":
		// "one of a, b must be set" or "only one of a, b can be set": name the first field of the rule.
		_, fields, _ := strings.Cut(v.GetMessage(), "one of ")
		name, _, _ := strings.Cut(fields, ",")
		name, _, _ = strings.Cut(name, " ")
		if strings.HasPrefix(v.GetMessage(), "only") {
			return ReasonConflictingFields, jsonName(name)
		}
		return ReasonMissingField, jsonName(name)
	}
	switch kind := rule[strings.LastIndexByte(rule, '.')+1:]; kind {
	case "max_len", "max_bytes", "max_items", "max_pairs":
		return ReasonFieldTooLarge, field
	case "gt", "gte", "lt", "lte", "gt_lt", "gt_lte", "gte_lt", "gte_lte", "defined_only", "in", "not_in", "const":
		return ReasonFieldOutOfRange, field
	}
	return refusal.ReasonInvalidField, field
}

// jsonPath writes a protovalidate field path with the fields' JSON names: moves[3].ubongo_duel → moves[3].ubongoDuel.
func jsonPath(path *validate.FieldPath) string {
	var b strings.Builder
	for i, e := range path.GetElements() {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(jsonName(e.GetFieldName()))
		switch e.WhichSubscript() {
		case validate.FieldPathElement_Index_case:
			b.WriteString("[" + strconv.FormatUint(e.GetIndex(), 10) + "]")
		case validate.FieldPathElement_StringKey_case:
			b.WriteString("[" + strconv.Quote(e.GetStringKey()) + "]")
		case validate.FieldPathElement_IntKey_case:
			b.WriteString("[" + strconv.FormatInt(e.GetIntKey(), 10) + "]")
		case validate.FieldPathElement_UintKey_case:
			b.WriteString("[" + strconv.FormatUint(e.GetUintKey(), 10) + "]")
		case validate.FieldPathElement_BoolKey_case:
			b.WriteString("[" + strconv.FormatBool(e.GetBoolKey()) + "]")
		}
	}
	return b.String()
}

// jsonName is the JSON name protobuf gives a field named name (seat_pass → seatPass).
func jsonName(name string) string {
	var b strings.Builder
	upper := false
	for _, r := range name {
		switch {
		case r == '_':
			upper = true
		case upper && 'a' <= r && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
			upper = false
		default:
			b.WriteRune(r)
			upper = false
		}
	}
	return b.String()
}
