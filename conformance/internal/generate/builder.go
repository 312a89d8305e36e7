package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/conformance/internal/kit"
	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server"
)

// builder collects the cases of one game's kit file, each answered by the service in process.
type builder struct {
	game   string
	g      engine.Game
	svc    *kit.Service
	cases  []kit.Case
	names  map[string]bool
	shown  map[string]bool // the reasons some case answers
	states []*rulebookv1.GameState
	moves  []*rulebookv1.Move
	played []played
}

// played is a move of a playthrough, in the state it was played in.
type played struct {
	play  string
	state *rulebookv1.GameState
	move  *rulebookv1.Move
}

// newBuilder returns the builder of game's kit file.
func newBuilder(svc *kit.Service, game string) *builder {
	b := &builder{game: game, svc: svc, names: map[string]bool{}, shown: map[string]bool{}}
	for _, g := range server.Games() {
		if g.Info().GetId() == game {
			b.g = g
		}
	}
	if b.g == nil {
		panic("no engine for " + game)
	}
	return b
}

// add adds the case name, req sent to rpc, with the answer of the service, which it returns in resp (a new message
// of the response's type) unless it was refused.
func (b *builder) add(name, rpc string, req proto.Message, resp proto.Message) *kit.Refusal {
	c := b.answer(name, rpc, req)
	b.keep(c)
	if c.Error != nil {
		return c.Error
	}
	if resp != nil {
		if err := protojson.Unmarshal(c.Response, resp); err != nil {
			panic(err)
		}
	}
	return nil
}

// try adds the case name, req sent to rpc, if the service refuses it with reason, and reports whether it did.
func (b *builder) try(name, rpc string, req proto.Message, reason string) bool {
	c := b.answer(name, rpc, req)
	if c.Error == nil || c.Error.Reason != reason {
		return false
	}
	b.keep(c)
	return true
}

// answer returns the case name, req sent to rpc, with the service's answer.
func (b *builder) answer(name, rpc string, req proto.Message) kit.Case {
	request, err := kit.Compact(req)
	if err != nil {
		panic(err)
	}
	answer, refused, err := b.svc.Call(rpc, request)
	if err != nil {
		panic(fmt.Sprintf("case %s: %v", name, err))
	}
	return kit.Case{Name: name, RPC: rpc, Request: request, Response: answer, Error: refused}
}

// keep adds c to the file.
func (b *builder) keep(c kit.Case) {
	if b.names[c.Name] {
		panic("two cases named " + c.Name)
	}
	b.names[c.Name] = true
	b.cases = append(b.cases, c)
	if c.Error != nil {
		b.shown[c.Error.Reason] = true
	}
}

// seats returns the number of seats of state.
func (b *builder) seats(state *rulebookv1.GameState) int {
	p, err := b.g.Decode(state)
	if err != nil {
		panic(err)
	}
	return p.Seats()
}

// policy chooses the move of a playthrough in state, from legal (the moves of whoever may move), or nil to end it.
type policy func(state *rulebookv1.GameState, legal []*rulebookv1.Move, rng *rand.Rand) *rulebookv1.Move

// uniform draws the move uniformly from the legal moves.
func uniform(_ *rulebookv1.GameState, legal []*rulebookv1.Move, rng *rand.Rand) *rulebookv1.Move {
	if len(legal) == 0 {
		return nil
	}
	return legal[rng.IntN(len(legal))]
}

// play adds a seeded playthrough named name: NewGame with options and seed, then at each ply ListLegalMoves,
// Score and GetView for each seat and a spectator, and, until the game is over, ValidateMove and ApplyMove of the
// move choose picks. It keeps the states and the legal moves for the searches.
func (b *builder) play(name string, options *rulebookv1.GameOptions, seed uint64, choose policy) {
	var created rulebookv1.NewGameResponse
	if r := b.add(name+"/new", "NewGame", &rulebookv1.NewGameRequest{Game: b.game, Options: options, Seed: &seed},
		&created); r != nil {
		panic(fmt.Sprintf("%s: NewGame refused: %v", name, r))
	}
	state := created.GetState()
	rng := rand.New(rand.NewPCG(seed, 0x6b6974)) // "kit"
	for ply := 0; ; ply++ {
		if ply > 2000 {
			panic(name + ": no end after 2000 plies")
		}
		at := name + "/" + strconv.Itoa(ply) + "/"
		b.states = append(b.states, state)
		var legal rulebookv1.ListLegalMovesResponse
		b.add(at+"legal", "ListLegalMoves", &rulebookv1.ListLegalMovesRequest{Game: b.game, State: state}, &legal)
		b.moves = append(b.moves, legal.GetMoves()...)
		var score rulebookv1.ScoreResponse
		b.add(at+"score", "Score", &rulebookv1.ScoreRequest{Game: b.game, State: state}, &score)
		for viewer := range b.seats(state) + 1 {
			var view rulebookv1.GetViewResponse
			b.add(at+"view "+strconv.Itoa(viewer), "GetView",
				&rulebookv1.GetViewRequest{Game: b.game, State: state, Viewer: int32(viewer)}, &view)
			if viewer > 0 && !proto.Equal(view.GetView(), state) {
				b.states = append(b.states, view.GetView())
			}
		}
		if score.GetScore().GetGameOver() {
			return
		}
		move := choose(state, legal.GetMoves(), rng)
		if move == nil {
			panic(name + ": the policy has no move in a game that is not over")
		}
		b.add(at+"validate", "ValidateMove", &rulebookv1.ValidateMoveRequest{Game: b.game, State: state, Move: move}, nil)
		var applied rulebookv1.ApplyMoveResponse
		if r := b.add(at+"apply", "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: b.game, State: state, Move: move},
			&applied); r != nil {
			panic(fmt.Sprintf("%s: the policy's move was refused: %v", at, r))
		}
		b.played = append(b.played, played{play: name, state: state, move: move})
		state = applied.GetState()
	}
}

// refusal returns the reason the engine refuses move in state with, as the service would (stamping it first), or ""
// if it is legal.
func (b *builder) refusal(state *rulebookv1.GameState, move *rulebookv1.Move) string {
	p, err := b.g.Decode(state)
	if err == nil {
		err = p.Validate(p.Receive(move, kit.Clock))
	}
	return reason(err)
}

// searchMoves adds, for each reason of a refused move that no case shows yet, a ValidateMove and an ApplyMove case of
// the first (state, move) found that provokes it: moves are the candidates of each state (from more, the game's
// own), the legal moves of every state kept, for each seat, and mutations of those.
func (b *builder) searchMoves(more func(state *rulebookv1.GameState) []*rulebookv1.Move, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6d6f766573)) // "moves"
	pool := slices.Clone(b.moves)
	for _, state := range b.states {
		if b.stateRefused(state) != "" {
			continue
		}
		var candidates []*rulebookv1.Move
		if more != nil {
			candidates = append(candidates, more(state)...)
		}
		for range 300 {
			m := proto.Clone(pool[rng.IntN(len(pool))]).(*rulebookv1.Move)
			m.Player = int32(1 + rng.IntN(b.seats(state)))
			candidates = append(candidates, m)
			candidates = append(candidates, mutate(m, rng))
		}
		for _, move := range candidates {
			reason := b.refusal(state, move)
			if reason == "" || b.shown[reason] {
				continue
			}
			name := "refused/" + reason
			if b.try(name+"/validate", "ValidateMove",
				&rulebookv1.ValidateMoveRequest{Game: b.game, State: state, Move: move}, reason) {
				b.add(name+"/apply", "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: b.game, State: state, Move: move}, nil)
			}
		}
	}
}

// stateRefused returns the reason the service refuses state with in a GetView for a spectator, or "".
func (b *builder) stateRefused(state *rulebookv1.GameState) string {
	p, err := b.g.Decode(state)
	if err == nil {
		_, err = p.View(engine.NoPlayer)
	}
	return reason(err)
}

// reason returns the reason of err, an engine's refusal, or "" for none (or a failure).
func reason(err error) string {
	if e, ok := engine.AsError(err); ok && e.Kind != engine.Internal {
		return e.Reason
	}
	return ""
}

// searchStates adds, for each reason of a refused state that no case shows yet, a GetView case (for a spectator) of
// the first change of a kept state found that provokes it, trying tries changes (mutate, or the game's own).
func (b *builder) searchStates(tries int, seed uint64,
	change func(*rulebookv1.GameState, *rand.Rand) *rulebookv1.GameState) {
	rng := rand.New(rand.NewPCG(seed, 0x737461746573)) // "states"
	for range tries {
		state := change(b.states[rng.IntN(len(b.states))], rng)
		reason := b.stateRefused(state)
		if reason == "" || b.shown[reason] {
			continue
		}
		b.try("invalid state/"+reason, "GetView", &rulebookv1.GetViewRequest{Game: b.game, State: state}, reason)
	}
}
