package enginetest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rulebook/rulebook/engine"
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

// WantError fails t unless err is an *engine.Error of kind and reason, about field (any field if field is "-"). An
// error of kind Invalid or Illegal must also be well-formed (CheckError); an Internal one is an engine's own fault,
// which CheckError refuses.
func WantError(t testing.TB, err error, kind engine.Kind, reason, field string) {
	t.Helper()
	e, ok := engine.AsError(err)
	if !ok {
		t.Fatalf("got error %v (%T), want *engine.Error %s", err, err, reason)
	}
	if kind != engine.Internal {
		CheckError(t, err)
	}
	if e.Kind != kind || e.Reason != reason || (field != "-" && e.Field != field) {
		t.Errorf("got %v %s field %q (%s), want %v %s field %q", e.Kind, e.Reason, e.Field, e.Message, kind, reason, field)
	}
}

// Provoked records the reasons that a game's table tests provoke, so that a test can check that they provoke every
// reason of the game (Check). It is safe for concurrent use; the zero value records nothing yet.
type Provoked struct {
	mu    sync.Mutex
	codes map[string]bool
}

// WantError is WantError that also records reason as provoked.
func (p *Provoked) WantError(t testing.TB, err error, kind engine.Kind, reason, field string) {
	t.Helper()
	p.add(reason)
	WantError(t, err, kind, reason, field)
}

// add records reason as provoked.
func (p *Provoked) add(reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.codes == nil {
		p.codes = map[string]bool{}
	}
	p.codes[reason] = true
}

// Check fails t for each of reasons that p has not recorded.
func (p *Provoked) Check(t testing.TB, reasons []Reason) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range reasons {
		if !p.codes[r.Code] {
			t.Errorf("reason %s is not provoked by any table test", r.Code)
		}
	}
}

// CheckNamedByTests fails t for each of reasons whose constant no test file (*_test.go) in dir names, the files
// listed in except left out (the reasons' own test, which names them all).
func CheckNamedByTests(t testing.TB, reasons []Reason, dir string, except ...string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	var tests strings.Builder
	for _, f := range files {
		if slices.Contains(except, filepath.Base(f)) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tests.Write(b)
	}
	for _, r := range reasons {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(r.Name) + `\b`).MatchString(tests.String()) {
			t.Errorf("no test names %s", r.Name)
		}
	}
}
