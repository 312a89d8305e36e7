package exploze

import (
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
)

// TestReasonsDocumented checks that the table of docs/rules/exploze.md lists exactly the reason codes of reasons.go.
func TestReasonsDocumented(t *testing.T) {
	enginetest.CheckDocumented(t, enginetest.Reasons(t, "reasons.go"), "../../docs/rules/exploze.md")
}

// TestReasonsTested checks that some test provokes each reason code: a test file other than this one names it.
func TestReasonsTested(t *testing.T) {
	enginetest.CheckNamedByTests(t, enginetest.Reasons(t, "reasons.go"), ".", "reasons_test.go")
}
