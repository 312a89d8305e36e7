package kipicot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReasonsDocumented checks that every reason code of reasons.go is in the table of docs/rules/kipicot.md, and
// that a test of this package provokes it by name.
func TestReasonsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rules/kipicot.md")
	if err != nil {
		t.Fatal(err)
	}
	var tests strings.Builder
	files, _ := os.ReadDir(".")
	for _, f := range files {
		if strings.HasSuffix(f.Name(), "_test.go") && f.Name() != "reasons_test.go" {
			b, _ := os.ReadFile(f.Name())
			tests.Write(b)
		}
	}
	file, err := parser.ParseFile(token.NewFileSet(), "reasons.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(file, func(node ast.Node) bool {
		spec, ok := node.(*ast.ValueSpec)
		if !ok {
			return true
		}
		reason, _ := strconv.Unquote(spec.Values[0].(*ast.BasicLit).Value)
		n++
		if !strings.Contains(string(doc), "| `"+reason+"` |") {
			t.Errorf("reason %s is not in the table of docs/rules/kipicot.md", reason)
		}
		if !regexp.MustCompile(`\b` + spec.Names[0].Name + `\b`).MatchString(tests.String()) {
			t.Errorf("no test names %s", spec.Names[0].Name)
		}
		return true
	})
	if n < 39 {
		t.Errorf("found %d reasons in reasons.go, want at least 39", n)
	}
}
