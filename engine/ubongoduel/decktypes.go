package ubongoduel

import (
	"sync"

	"github.com/rulebook/rulebook/engine/ubongoduel/deck"
)

// The deck's types, from engine/ubongoduel/deck.
type (
	// Deck is the deck: the version of its data and the sides A1..A9 and B1..B9.
	Deck = deck.Deck
	// Side is one side of a sheet: its name ("A1"), its shape and its 20 tasks, Tasks[f-1] being face f.
	Side = deck.Side
	// Task is one face of the die on one side: its pieces and a witness solution.
	Task = deck.Task
	// Placement is one piece of a solution: its letter and the cells of the shape it covers.
	Placement = deck.Placement
)

// defaultDeck returns the embedded deck, decoded once on first use. The engine never changes it and hands it out
// only through State.Deck, documented as shared.
var defaultDeck = sync.OnceValue(deck.Default)
