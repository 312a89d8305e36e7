package enginetest

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/rulebook/rulebook/engine"
)

// race is a tiny game for testing the suite. Players take turns adding 1, 2 or 3 to a shared count; whoever brings
// it exactly to the target wins. Each player holds a secret card that only they see. A fault, when set, breaks the
// engine in one way that the suite must catch.
type race struct {
	Players, Target, Count int
	ToMove                 engine.Player // NoPlayer once over
	Winner                 engine.Player
	History                []int // the numbers added, in order
	Secrets                []int // per player, 1 to 9; hidden from the others
}

// raceMove adds Add to the count.
type raceMove struct {
	Player engine.Player
	Add    int
}

// fault is a way to break the race engine.
type fault int

const (
	correct             fault = iota
	mutatingApply             // Apply changes its input
	aliasingApply             // Apply's results share the history's spare capacity
	laxValidate               // Validate forgets the overshoot rule
	otherReason               // Validate and Apply refuse a move out of turn with different reasons
	missingLegal              // Legal forgets the moves that add 3
	duplicateLegal            // Legal lists the first move twice
	unstableLegal             // Legal changes its order from call to call
	plainError                // Apply and Validate refuse an overshoot with a plain error
	lowercaseReason           // a reason code in lower case
	lossyDecode               // Decode drops the winner
	nondeterministicNew       // New draws the target from global state
	endless                   // moves never bring the game closer to its end
	invalidState              // Apply makes states that fail Check
	legalAfterOver            // Legal still lists moves once the game is over
	acceptsAfterOver          // Validate and Apply accept moves once the game is over
	leakyView                 // View shows the other players' secrets
	uselessRedeal             // Redeal changes nothing
	mutatingView              // View changes its input
)

// calls counts calls for the faults that need global state.
var calls atomic.Int64

// newRace starts a game for seed.
func newRace(f fault, seed uint64) (*race, error) {
	r := rand.New(rand.NewPCG(seed, 1))
	s := &race{Players: 2 + int(seed%3), Target: 5 + int(seed%11), ToMove: 1}
	if f == nondeterministicNew {
		s.Target = 5 + int(calls.Add(1)%11)
	}
	for range s.Players {
		s.Secrets = append(s.Secrets, 1+r.IntN(9))
	}
	return s, nil
}

// clone returns a deep copy of s.
func (s *race) clone() *race {
	c := *s
	c.History, c.Secrets = slices.Clone(s.History), slices.Clone(s.Secrets)
	return &c
}

// validateRace returns why m may not be played in s.
func validateRace(f fault, s *race, m raceMove) error {
	switch {
	case m.Player < 1 || int(m.Player) > s.Players:
		return engine.Invalidf("PLAYER_OUT_OF_RANGE", "player", nil, "there is no player %d", m.Player)
	case m.Add < 1 || m.Add > 3:
		return engine.Invalidf("ADD_OUT_OF_RANGE", "add", map[string]string{"add": strconv.Itoa(m.Add)},
			"a move adds 1, 2 or 3, not %d", m.Add)
	case s.ToMove == engine.NoPlayer && f == acceptsAfterOver:
		return nil
	case s.ToMove == engine.NoPlayer:
		return engine.Illegalf("GAME_OVER", nil, "the game is over")
	case m.Player != s.ToMove:
		return engine.Illegalf("NOT_YOUR_TURN", nil, "it is player %d's turn", s.ToMove)
	case s.Count+m.Add > s.Target && f == plainError:
		return errOvershoot
	case s.Count+m.Add > s.Target && f == lowercaseReason:
		return engine.Illegalf("overshoot", nil, "the count would pass the target")
	case s.Count+m.Add > s.Target:
		return engine.Illegalf("OVERSHOOT", map[string]string{"target": strconv.Itoa(s.Target)},
			"the count would pass the target %d", s.Target)
	}
	return nil
}

// errOvershoot is the plainError fault's refusal: not an *engine.Error.
var errOvershoot = errors.New("overshoot")

// applyRace plays m in s.
func applyRace(f fault, s *race, m raceMove) (*race, error) {
	if err := validateRace(f, s, m); err != nil {
		if e, ok := engine.AsError(err); ok && f == otherReason && e.Reason == "NOT_YOUR_TURN" {
			return nil, engine.Illegalf("WRONG_PLAYER", nil, "it is player %d's turn", s.ToMove)
		}
		return nil, err
	}
	next := s.clone()
	switch f {
	case mutatingApply:
		next = s
	case aliasingApply:
		next.History = s.History
	}
	if f != endless {
		next.Count += m.Add
		next.History = append(next.History, m.Add)
	}
	next.ToMove = next.ToMove%engine.Player(next.Players) + 1
	if f == invalidState {
		next.ToMove = 7
	}
	if next.Count == next.Target {
		next.ToMove, next.Winner = engine.NoPlayer, m.Player
	}
	return next, nil
}

// legalRace lists the moves of the player to move.
func legalRace(f fault, s *race) []raceMove {
	if s.ToMove == engine.NoPlayer {
		if f == legalAfterOver {
			return []raceMove{{1, 1}}
		}
		return nil
	}
	var moves []raceMove
	for add := 1; add <= 3; add++ {
		if s.Count+add <= s.Target && !(add == 3 && f == missingLegal) {
			moves = append(moves, raceMove{s.ToMove, add})
		}
	}
	if f == duplicateLegal && len(moves) > 0 {
		moves = append(moves, moves[0])
	}
	if f == unstableLegal && calls.Add(1)%2 == 0 {
		slices.Reverse(moves)
	}
	return moves
}

// checkRace verifies the invariants of a state.
func checkRace(s *race) error {
	sum := 0
	for _, a := range s.History {
		sum += a
	}
	switch {
	case s.Players < 2 || s.Players > 4 || len(s.Secrets) != s.Players:
		return engine.Invalidf("BAD_PLAYERS", "players", nil, "%d players with %d secrets", s.Players, len(s.Secrets))
	case s.Count < 0 || s.Count > s.Target || s.Count != sum:
		return engine.Invalidf("BAD_COUNT", "count", nil, "count %d, target %d, history %v", s.Count, s.Target,
			s.History)
	case s.ToMove < 0 || int(s.ToMove) > s.Players || (s.ToMove == 0) != (s.Count == s.Target):
		return engine.Invalidf("BAD_TO_MOVE", "toMove", nil, "player %d to move", s.ToMove)
	}
	for _, c := range s.Secrets {
		if c < 1 || c > 9 {
			return engine.Invalidf("BAD_SECRET", "secrets", nil, "secret %d", c)
		}
	}
	return nil
}

// encodeRace encodes s as a list of numbers: players, target, count, to move, winner, the length of the history,
// the history, the secrets.
func encodeRace(s *race) proto.Message {
	l := &structpb.ListValue{}
	add := func(xs ...int) {
		for _, x := range xs {
			l.Values = append(l.Values, structpb.NewNumberValue(float64(x)))
		}
	}
	add(s.Players, s.Target, s.Count, int(s.ToMove), int(s.Winner), len(s.History))
	add(s.History...)
	add(s.Secrets...)
	return l
}

// decodeRace decodes and checks a state encoded by encodeRace.
func decodeRace(f fault, m proto.Message) (*race, error) {
	var xs []int
	for _, v := range m.(*structpb.ListValue).GetValues() {
		xs = append(xs, int(v.GetNumberValue()))
	}
	if len(xs) < 6 || len(xs) < 6+xs[5] {
		return nil, engine.Invalidf("TOO_SHORT", "", nil, "%d numbers", len(xs))
	}
	s := &race{Players: xs[0], Target: xs[1], Count: xs[2], ToMove: engine.Player(xs[3]), Winner: engine.Player(xs[4]),
		History: xs[6 : 6+xs[5] : 6+xs[5]], Secrets: xs[6+xs[5]:]}
	if f == lossyDecode {
		s.Winner = engine.NoPlayer
	}
	return s, checkRace(s)
}

// viewRace hides the other players' secrets from viewer.
func viewRace(f fault, s *race, viewer engine.Player) *race {
	v := s.clone()
	if f == mutatingView {
		v = s
	}
	if f == leakyView {
		return v
	}
	for i := range v.Secrets {
		if engine.Player(i+1) != viewer {
			v.Secrets[i] = 0
		}
	}
	return v
}

// redealRace deals the secrets that viewer does not see anew.
func redealRace(f fault, s *race, viewer engine.Player, seed uint64) *race {
	r := rand.New(rand.NewPCG(seed, 2))
	d := s.clone()
	for i := range d.Secrets {
		if engine.Player(i+1) != viewer && f != uselessRedeal {
			d.Secrets[i] = 1 + r.IntN(9)
		}
	}
	return d
}

// raceHarness adapts the race engine, broken by f, to the suite.
func raceHarness(f fault) Harness[*race, raceMove] {
	return Harness[*race, raceMove]{
		New:   func(seed uint64) (*race, error) { return newRace(f, seed) },
		Legal: func(s *race) []raceMove { return legalRace(f, s) },
		Candidates: func(s *race) []raceMove {
			var moves []raceMove
			for p := engine.Player(0); int(p) <= s.Players+1; p++ {
				for add := 0; add <= 4; add++ {
					moves = append(moves, raceMove{p, add})
				}
			}
			return moves
		},
		Validate: func(s *race, m raceMove) error {
			err := validateRace(f, s, m)
			if e, ok := engine.AsError(err); ok && e.Reason == "OVERSHOOT" && f == laxValidate {
				return nil
			}
			return err
		},
		Apply:  func(s *race, m raceMove) (*race, error) { return applyRace(f, s, m) },
		Over:   func(s *race) bool { return s.ToMove == engine.NoPlayer },
		Check:  checkRace,
		Encode: encodeRace,
		Decode: func(m proto.Message) (*race, error) { return decodeRace(f, m) },
		EncodeMove: func(m raceMove) proto.Message {
			return &structpb.ListValue{Values: []*structpb.Value{
				structpb.NewNumberValue(float64(m.Player)), structpb.NewNumberValue(float64(m.Add))}}
		},
		MaxPlies: 40,
		Playouts: 30,
		Players: func(s *race) []engine.Player {
			var ps []engine.Player
			for p := 1; p <= s.Players; p++ {
				ps = append(ps, engine.Player(p))
			}
			return ps
		},
		View:   func(s *race, viewer engine.Player) *race { return viewRace(f, s, viewer) },
		Redeal: func(s *race, viewer engine.Player, seed uint64) *race { return redealRace(f, s, viewer, seed) },
	}
}
