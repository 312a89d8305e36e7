// Command gendeck generates the Ubongo Duel deck and writes its canonical encoding, the deck.json that package deck
// embeds. Run it from the module root as
//
//	go run ./engine/ubongoduel/deck/internal/gendeck
//
// or through go generate in the package. With -check it writes nothing and fails if the file differs from the
// generator's output.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/rulebook/rulebook/engine/ubongoduel/deck"
)

func main() {
	out := flag.String("o", "engine/ubongoduel/deck/deck.json", "the file to write")
	check := flag.Bool("check", false, "compare the file with the generator's output instead of writing it")
	flag.Parse()
	if err := run(*out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "gendeck:", err)
		os.Exit(1)
	}
}

func run(out string, check bool) error {
	d, err := deck.Generate(context.Background())
	if err != nil {
		return err
	}
	data, err := deck.Encode(d)
	if err != nil {
		return err
	}
	if check {
		old, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		if !bytes.Equal(old, data) {
			return fmt.Errorf("%s differs from the generator's output: run go generate ./engine/ubongoduel/deck", out)
		}
		return nil
	}
	return os.WriteFile(out, data, 0o644)
}
