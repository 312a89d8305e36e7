package main

import (
	"errors"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestConfigurationListsEveryFlag checks that the configuration table of docs/operations.md has a row for every
// setting that `rulebookd -h` lists, with its flag and its environment variable.
func TestConfigurationListsEveryFlag(t *testing.T) {
	var usage strings.Builder
	if _, err := parseConfig([]string{"-h"}, func(string) string { return "" }, &usage); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v, want flag.ErrHelp", err)
	}
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	settings := regexp.MustCompile(`(?m)^  -([a-z0-9-]+).*\n\s+.*\(env (RULEBOOK_[A-Z0-9_]+)\)`).FindAllStringSubmatch(usage.String(), -1)
	if len(settings) < 20 {
		t.Fatalf("found %d settings in the usage, want them all:\n%s", len(settings), usage.String())
	}
	for _, s := range settings {
		if row := "| `-" + s[1] + "` | `" + s[2] + "` |"; !strings.Contains(string(doc), row) {
			t.Errorf("docs/operations.md's configuration table has no row starting %s", row)
		}
	}
}
