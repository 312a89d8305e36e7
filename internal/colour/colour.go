// Package colour decides whether a program may write ANSI colour escapes: only to a terminal, and never while the
// NO_COLOR environment variable is set to a non-empty value (https://no-color.org).
package colour

import (
	"io"
	"os"

	"golang.org/x/term"
)

// For reports whether text written to w may be in colour: w is a terminal and NO_COLOR is unset or empty.
func For(w io.Writer) bool {
	f, ok := w.(*os.File)
	return Allowed(ok && term.IsTerminal(int(f.Fd())), os.Getenv("NO_COLOR"))
}

// Allowed reports whether text may be in colour when written to a terminal or not, given NO_COLOR's value.
func Allowed(terminal bool, noColor string) bool {
	return terminal && noColor == ""
}
