package hosted

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestGames checks that the hosted games are in the order of their ids, each once.
func TestGames(t *testing.T) {
	games := Games()
	if len(games) == 0 {
		t.Fatal("no hosted game")
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.Info().GetId()
	}
	if !slices.IsSortedFunc(ids, strings.Compare) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("ids %v: want each once, in order", ids)
	}
}

// TestOptionLabels checks that every option of every hosted game says itself to people, as a form shows it (the
// playground's): a label, a description, and for an enum a choice with a label and a description for each value,
// in the order of its values.
func TestOptionLabels(t *testing.T) {
	for _, g := range Games() {
		for _, o := range g.Info().GetOptions() {
			name := g.Info().GetId() + " " + o.GetName()
			if o.GetLabel() == "" || o.GetDescription() == "" {
				t.Errorf("%s: label %q, description %q", name, o.GetLabel(), o.GetDescription())
			}
			if len(o.GetChoices()) != len(o.GetValues()) {
				t.Errorf("%s: %d choices for %d values", name, len(o.GetChoices()), len(o.GetValues()))
				continue
			}
			for i, c := range o.GetChoices() {
				if c.GetValue() != o.GetValues()[i] || c.GetLabel() == "" || c.GetDescription() == "" {
					t.Errorf("%s: choice %d is %v, for value %q", name, i, c, o.GetValues()[i])
				}
			}
		}
	}
}

// TestBotLevels checks that every hosted game describes its bot's three levels, weakest first, each for people, and
// that each level searches more iterations than the one before (or that none bounds a search, as in Ubongo Duel).
func TestBotLevels(t *testing.T) {
	want := []rulebookv1.BotLevel{rulebookv1.BotLevel_BOT_LEVEL_EASY, rulebookv1.BotLevel_BOT_LEVEL_MEDIUM,
		rulebookv1.BotLevel_BOT_LEVEL_HARD}
	for _, g := range Games() {
		levels := g.Info().GetBotLevels()
		var got []rulebookv1.BotLevel
		bounded := 0
		for i, l := range levels {
			got = append(got, l.GetLevel())
			if l.GetDescription() == "" {
				t.Errorf("%s: level %v has no description", g.Info().GetId(), l.GetLevel())
			}
			if l.GetIterations() > 0 {
				bounded++
			}
			if i > 0 && l.GetIterations() <= levels[i-1].GetIterations() && l.GetIterations() > 0 {
				t.Errorf("%s: %v searches %d iterations, %v %d", g.Info().GetId(), l.GetLevel(), l.GetIterations(),
					levels[i-1].GetLevel(), levels[i-1].GetIterations())
			}
		}
		if !slices.Equal(got, want) || bounded != 0 && bounded != len(want) {
			t.Errorf("%s: levels %v, %d of them bounding a search; want %v, all or none", g.Info().GetId(), got,
				bounded, want)
		}
	}
}

// TestDocs checks the documents of every hosted game (docs/adding-a-game.md): its rules in docs/rules/<id>.md,
// which its info names and the index docs/rules/README.md links, and its notation's section in docs/notation.md
// ("## " and its name, without what follows in brackets); and that docs/rules holds no rules of a game not hosted.
func TestDocs(t *testing.T) {
	root := filepath.Join("..", "..")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	index, notation := read("docs/rules/README.md"), read("docs/notation.md")
	documents := map[string]bool{"README.md": true}
	for _, g := range Games() {
		info := g.Info()
		doc := "docs/rules/" + info.GetId() + ".md"
		documents[filepath.Base(doc)] = true
		if info.GetRulesDocument() != doc {
			t.Errorf("%s: rules document %q, want %q", info.GetId(), info.GetRulesDocument(), doc)
		}
		if _, err := os.Stat(filepath.Join(root, doc)); err != nil {
			t.Errorf("%s: %v", info.GetId(), err)
		}
		if !strings.Contains(index, "("+filepath.Base(doc)+")") {
			t.Errorf("%s: docs/rules/README.md does not link %s", info.GetId(), filepath.Base(doc))
		}
		if name, _, _ := strings.Cut(info.GetName(), " ("); !strings.Contains(notation, "\n## "+name+"\n") {
			t.Errorf("%s: docs/notation.md has no section \"## %s\"", info.GetId(), name)
		}
	}
	entries, err := os.ReadDir(filepath.Join(root, "docs", "rules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !documents[e.Name()] {
			t.Errorf("docs/rules/%s: the rules of no hosted game", e.Name())
		}
	}
}

// TestAddingAGame checks that docs/adding-a-game.md says what the code does: the number of methods of engine's
// Definition, and that each test it names (`TestX`, `FuzzX`) is a function of some _test.go file.
func TestAddingAGame(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "adding-a-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := definitionMethods(t, filepath.Join(root, "engine")); !strings.Contains(string(doc), fmt.Sprintf("its %d methods", n)) {
		t.Errorf("docs/adding-a-game.md does not say \"its %d methods\" of the Definition", n)
	}
	var tests strings.Builder
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "node_modules" || d.Name() == "gen" || strings.HasPrefix(d.Name(), ".")) && path != root:
			return filepath.SkipDir
		case strings.HasSuffix(path, "_test.go"):
			b, err := os.ReadFile(path)
			tests.Write(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("`((Test|Fuzz)[A-Za-z]+)`").FindAllStringSubmatch(string(doc), -1) {
		if !strings.Contains(tests.String(), "func "+m[1]+"(") {
			t.Errorf("docs/adding-a-game.md names %s, which no test file has", m[1])
		}
	}
}

// definitionMethods returns the number of methods of the interface Definition declared in the package in dir.
func definitionMethods(t *testing.T, dir string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok {
				for _, spec := range g.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok && ts.Name.Name == "Definition" {
						return ts.Type.(*ast.InterfaceType).Methods.NumFields()
					}
				}
			}
		}
	}
	t.Fatalf("no Definition in %s", dir)
	return 0
}
