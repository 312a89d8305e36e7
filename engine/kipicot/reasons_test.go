package kipicot

import (
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
)

// TestReasonsDocumented checks that the table of docs/rules/kipicot.md lists exactly the reason codes of reasons.go,
// and that a test of this package provokes each by name.
func TestReasonsDocumented(t *testing.T) {
	reasons := enginetest.Reasons(t, "reasons.go")
	enginetest.CheckDocumented(t, reasons, "../../docs/rules/kipicot.md")
	enginetest.CheckNamedByTests(t, reasons, ".", "reasons_test.go")
}
