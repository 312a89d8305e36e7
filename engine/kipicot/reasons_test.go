package kipicot

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rulebook/rulebook/engine/enginetest"
)

// TestReasonsDocumented checks that the table of docs/rules/kipicot.md lists exactly the reason codes of reasons.go,
// and that a test of this package provokes each by name.
func TestReasonsDocumented(t *testing.T) {
	reasons := enginetest.Reasons(t, "reasons.go")
	enginetest.CheckDocumented(t, reasons, "../../docs/rules/kipicot.md")
	var tests strings.Builder
	files, _ := os.ReadDir(".")
	for _, f := range files {
		if strings.HasSuffix(f.Name(), "_test.go") && f.Name() != "reasons_test.go" {
			b, _ := os.ReadFile(f.Name())
			tests.Write(b)
		}
	}
	for _, r := range reasons {
		if !regexp.MustCompile(`\b` + r.Name + `\b`).MatchString(tests.String()) {
			t.Errorf("no test names %s", r.Name)
		}
	}
}
