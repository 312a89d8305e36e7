package exploze

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReasonsDocumented checks that every reason code of reasons.go is in the table of docs/rules/exploze.md.
func TestReasonsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rules/exploze.md")
	if err != nil {
		t.Fatal(err)
	}
	file, err := parser.ParseFile(token.NewFileSet(), "reasons.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(file, func(node ast.Node) bool {
		lit, ok := node.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		reason, _ := strconv.Unquote(lit.Value)
		n++
		if !strings.Contains(string(doc), "| `"+reason+"` |") {
			t.Errorf("reason %s is not in the table of docs/rules/exploze.md", reason)
		}
		return true
	})
	if n < 18 {
		t.Errorf("found %d reasons in reasons.go, want at least 18", n)
	}
}
