package enginetest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Reason is a reason code declared by an engine: the constant's name and its value.
type Reason struct {
	Name, Code string
}

// Reasons returns the string constants declared in the Go file at path (an engine's reasons.go), in file order.
func Reasons(t testing.TB, path string) []Reason {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var reasons []Reason
	ast.Inspect(file, func(node ast.Node) bool {
		spec, ok := node.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, name := range spec.Names {
			if i < len(spec.Values) {
				if lit, ok := spec.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					code, _ := strconv.Unquote(lit.Value)
					reasons = append(reasons, Reason{Name: name.Name, Code: code})
				}
			}
		}
		return true
	})
	if len(reasons) == 0 {
		t.Fatalf("%s declares no reason code", path)
	}
	return reasons
}

// CheckDocumented fails t for each reason that is not a row of a table in the Markdown document at docPath, written
// as "| `CODE` |", and for each such row that is no reason.
func CheckDocumented(t testing.TB, reasons []Reason, docPath string) {
	t.Helper()
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		codes[i] = r.Code
		if !strings.Contains(string(doc), "| `"+r.Code+"` |") {
			t.Errorf("reason %s is not in the table of %s", r.Code, docPath)
		}
	}
	for line := range strings.Lines(string(doc)) {
		if code, ok := strings.CutPrefix(line, "| `"); ok {
			code, _, _ = strings.Cut(code, "`")
			if code == strings.ToUpper(code) && !slices.Contains(codes, code) {
				t.Errorf("%s documents %s, which the engine does not have", docPath, code)
			}
		}
	}
}
