// Package guidetest reads the code blocks of a guide's section, for the tests that check that a guide shows a
// program as it is and prints what it says.
package guidetest

import (
	"os"
	"strings"
	"testing"
)

// Section is one section of a guide: from its heading to the next heading of level 2.
type Section struct {
	t     testing.TB
	where string // the guide and heading, for messages
	text  string
}

// Read returns the section of the Markdown file at path under heading (a whole line, such as "## Embed the rules").
func Read(t testing.TB, path, heading string) Section {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(text), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no section %q", path, heading)
	}
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return Section{t: t, where: path + "'s section " + heading, text: rest}
}

// Block returns the text of the section's first ```lang block, with its final newline.
func (s Section) Block(lang string) string {
	s.t.Helper()
	_, after, ok := strings.Cut(s.text, "\n```"+lang+"\n")
	body, _, closed := strings.Cut(after, "\n```\n")
	if !ok || !closed {
		s.t.Fatalf("%s has no ```%s block", s.where, lang)
	}
	return body + "\n"
}
