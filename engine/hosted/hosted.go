// Package hosted lists the games that rulebook hosts: those of rulebookd, and of the WebAssembly module, which
// import it so that both host the same games without importing each other.
package hosted

import (
	"github.com/rulebook/rulebook/engine"
	"github.com/rulebook/rulebook/engine/exploze"
	"github.com/rulebook/rulebook/engine/kipicot"
	"github.com/rulebook/rulebook/engine/micropul"
	"github.com/rulebook/rulebook/engine/ubongoduel"
)

// Games returns the hosted games, in the order of their ids.
func Games() []engine.Game {
	return []engine.Game{exploze.Game{}, kipicot.Game{}, micropul.Game{}, ubongoduel.Game{}}
}
