package engine

import rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"

// Rules is what an Adapter needs of a game's typed state S: its rules, with moves M, events E and standings C.
type Rules[S, M, E, C any] interface {
	Legal(p Player) []M
	Validate(m M) error
	Apply(m M) (S, []E, error)
	Score() C
	View(viewer Player) S
}

// Proto is a typed value with a protobuf form P.
type Proto[P any] interface {
	Proto() P
}

// Adapter does the work of a Game that is the same in every game: it decodes the envelopes it is given into the
// typed state S and move M, checks the seat asked about, calls S, and wraps the answer in envelopes, with every
// error's field placed under the request's "state", "move", "player" or "viewer". A game's Game delegates Legal,
// Validate, Apply, Score and View to it, and keeps Info, New and ViewEvents as its own. The fields are the game's
// own conversions and seat rules; all must be set.
type Adapter[S Rules[S, M, E, C], M Proto[*rulebookv1.Move], E any, C Proto[*rulebookv1.Score]] struct {
	// Unwrap returns the state in an envelope, with the fields of its errors placed under "state". With full set it
	// refuses a view (a state that hides what some player may not see): only Score accepts one.
	Unwrap func(state *rulebookv1.GameState, full bool) (S, error)
	// Wrap returns s in an envelope.
	Wrap func(s S) *rulebookv1.GameState
	// Move returns the move in an envelope, with the fields of its errors relative to the envelope.
	Move func(move *rulebookv1.Move) (M, error)
	// Events returns events in envelopes, in the same order.
	Events func(events []E) []*rulebookv1.Event
	// CheckSeat returns the error, about field ("player" or "viewer"), of a p who is neither NoPlayer nor a player
	// of s.
	CheckSeat func(s S, p Player, field string) error
	// ToMove returns the players who may move now in s, in seat order: Legal lists their moves for NoPlayer.
	ToMove func(s S) []Player
}

// Legal returns every legal move of player in a full state, as S.Legal lists them; for NoPlayer, those of each
// player ToMove names, in turn.
func (a Adapter[S, M, E, C]) Legal(state *rulebookv1.GameState, player Player) ([]*rulebookv1.Move, error) {
	s, err := a.Unwrap(state, true)
	if err != nil {
		return nil, err
	}
	if err := a.CheckSeat(s, player, "player"); err != nil {
		return nil, err
	}
	players := []Player{player}
	if player == NoPlayer {
		players = a.ToMove(s)
	}
	var legal []M
	for _, p := range players {
		legal = append(legal, s.Legal(p)...)
	}
	moves := make([]*rulebookv1.Move, len(legal))
	for i, m := range legal {
		moves[i] = m.Proto()
	}
	return moves, nil
}

// Validate returns the error Apply would return.
func (a Adapter[S, M, E, C]) Validate(state *rulebookv1.GameState, move *rulebookv1.Move) error {
	s, m, err := a.decode(state, move)
	if err != nil {
		return err
	}
	return withinMove(s.Validate(m))
}

// Apply plays move on a full state and returns the new state and the events of the move, in full.
func (a Adapter[S, M, E, C]) Apply(state *rulebookv1.GameState, move *rulebookv1.Move) (*rulebookv1.GameState,
	[]*rulebookv1.Event, error) {
	s, m, err := a.decode(state, move)
	if err != nil {
		return nil, nil, err
	}
	next, events, err := s.Apply(m)
	if err != nil {
		return nil, nil, withinMove(err)
	}
	return a.Wrap(next), a.Events(events), nil
}

// Score returns the live or final standings, of a full state or a view.
func (a Adapter[S, M, E, C]) Score(state *rulebookv1.GameState) (*rulebookv1.Score, error) {
	s, err := a.Unwrap(state, false)
	if err != nil {
		return nil, err
	}
	return s.Score().Proto(), nil
}

// View returns what viewer (NoPlayer for a spectator) may see of a full state.
func (a Adapter[S, M, E, C]) View(state *rulebookv1.GameState, viewer Player) (*rulebookv1.GameState, error) {
	s, err := a.Unwrap(state, true)
	if err != nil {
		return nil, err
	}
	if err := a.CheckSeat(s, viewer, "viewer"); err != nil {
		return nil, err
	}
	return a.Wrap(s.View(viewer)), nil
}

// decode returns the full state and the move in the envelopes.
func (a Adapter[S, M, E, C]) decode(state *rulebookv1.GameState, move *rulebookv1.Move) (S, M, error) {
	var m M
	s, err := a.Unwrap(state, true)
	if err != nil {
		return s, m, err
	}
	m, err = a.Move(move)
	return s, m, WithinField(err, "move")
}

// withinMove places the field of a move's error under the request's "move": an Invalid error's as WithinField does,
// and an Illegal error's when it names one (Kipicot's name the step of a turn that broke a rule).
func withinMove(err error) error {
	if e, ok := AsError(err); ok && e.Kind == Illegal && e.Field != "" {
		moved := *e
		moved.Field = "move." + e.Field
		return &moved
	}
	return WithinField(err, "move")
}
