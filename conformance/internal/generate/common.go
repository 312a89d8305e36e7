package main

import (
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// envelopeField returns the name of the game's field in the envelopes (GameOptions, GameState, Move): "exploze",
// "ubongo_duel".
func (b *builder) envelopeField() protoreflect.Name {
	state, err := b.g.New(nil, 0)
	if err != nil {
		panic(err)
	}
	m := state.Encode().ProtoReflect()
	return m.WhichOneof(m.Descriptor().Oneofs().ByName("game")).Name()
}

// options returns the game's options in an envelope, each field named (by its JSON name) in set given its value
// (an int64 for an integer of any size).
func (b *builder) options(set map[string]protoreflect.Value) *rulebookv1.GameOptions {
	envelope := &rulebookv1.GameOptions{}
	m := envelope.ProtoReflect()
	field := m.Descriptor().Fields().ByName(b.envelopeField())
	opts := m.Mutable(field).Message()
	for name, v := range set {
		f := opts.Descriptor().Fields().ByJSONName(name)
		if f == nil {
			panic("no option " + name)
		}
		if n, ok := v.Interface().(int64); ok && f.Kind() != protoreflect.Int64Kind {
			v = protoreflect.ValueOfInt32(int32(n))
			if f.Kind() == protoreflect.Uint32Kind {
				v = protoreflect.ValueOfUint32(uint32(n))
			}
		}
		opts.Set(f, v)
	}
	return envelope
}

// optionCases adds NewGame cases of every option of ListGames: each value of an enum, both values of a flag, the
// bounds of an integer and one past each (refused), each with seed 1.
func (b *builder) optionCases() {
	seed := uint64(1)
	newGame := func(name string, opts *rulebookv1.GameOptions) {
		b.add(name, "NewGame", &rulebookv1.NewGameRequest{Game: b.game, Options: opts, Seed: &seed}, nil)
	}
	for _, o := range b.g.Info().GetOptions() {
		at := "option/" + o.GetName() + "/"
		switch o.GetType() {
		case rulebookv1.OptionType_OPTION_TYPE_ENUM:
			opts := b.options(nil).ProtoReflect()
			for _, name := range o.GetValues() {
				enum := optionField(opts, o.GetName()).Enum().Values().ByName(protoreflect.Name(name))
				newGame(at+name, b.options(map[string]protoreflect.Value{o.GetName(): protoreflect.ValueOfEnum(enum.Number())}))
			}
			newGame(at+"unknown value", b.options(map[string]protoreflect.Value{o.GetName(): protoreflect.ValueOfEnum(99)}))
		case rulebookv1.OptionType_OPTION_TYPE_BOOLEAN:
			for _, v := range []bool{false, true} {
				newGame(at+strconv.FormatBool(v), b.options(map[string]protoreflect.Value{o.GetName(): protoreflect.ValueOfBool(v)}))
			}
		case rulebookv1.OptionType_OPTION_TYPE_INTEGER:
			for _, v := range []int64{o.GetMin() - 1, o.GetMin(), o.GetMax(), o.GetMax() + 1} {
				if v < 0 && optionField(b.options(nil).ProtoReflect(), o.GetName()).Kind() == protoreflect.Uint32Kind {
					continue // a uint32 cannot be negative
				}
				newGame(at+strconv.FormatInt(v, 10), b.options(map[string]protoreflect.Value{o.GetName(): protoreflect.ValueOfInt64(v)}))
			}
		default:
			panic(fmt.Sprintf("option %s of an unknown type", o.GetName()))
		}
	}
}

// optionField returns the field of the options message opts named (in JSON) name.
func optionField(opts protoreflect.Message, name string) protoreflect.FieldDescriptor {
	inner := opts.Get(opts.WhichOneof(opts.Descriptor().Oneofs().ByName("game"))).Message()
	return inner.Descriptor().Fields().ByJSONName(name)
}

// requestCases adds the cases of the requests themselves, on state (a state of the game that is not over) and move
// (a legal move in it): the default game, fields missing, out of range or in conflict, the events' detail, another
// game's options, state or move (otherOpts, other and otherMove), a seat that is not the game's.
func (b *builder) requestCases(state *rulebookv1.GameState, move *rulebookv1.Move, other *rulebookv1.GameState,
	otherMove *rulebookv1.Move, otherOpts *rulebookv1.GameOptions) {
	g := b.game
	seed := uint64(0)
	b.add("request/new, every default, seed 0", "NewGame", &rulebookv1.NewGameRequest{Game: g, Seed: &seed}, nil)
	for _, detail := range []rulebookv1.EventDetail{rulebookv1.EventDetail_EVENT_DETAIL_ALL,
		rulebookv1.EventDetail_EVENT_DETAIL_SUMMARY, rulebookv1.EventDetail_EVENT_DETAIL_NONE} {
		b.add("request/apply, events "+strings.ToLower(strings.TrimPrefix(detail.String(), "EVENT_DETAIL_")), "ApplyMove",
			&rulebookv1.ApplyMoveRequest{Game: g, State: state, Move: move, Events: detail}, nil)
	}
	b.add("request/apply, events out of range", "ApplyMove",
		&rulebookv1.ApplyMoveRequest{Game: g, State: state, Move: move, Events: 9}, nil)
	b.add("request/validate, no move", "ValidateMove", &rulebookv1.ValidateMoveRequest{Game: g, State: state}, nil)
	b.add("request/apply, no state", "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: g, Move: move}, nil)
	b.add("request/apply, state and token", "ApplyMove",
		&rulebookv1.ApplyMoveRequest{Game: g, State: state, Token: "v1.x", Move: move}, nil)
	b.add("request/apply, seat pass with a state", "ApplyMove",
		&rulebookv1.ApplyMoveRequest{Game: g, State: state, SeatPass: "1.x", Move: move}, nil)
	b.add("request/score, seat pass too long", "Score",
		&rulebookv1.ScoreRequest{Game: g, State: state, SeatPass: strings.Repeat("x", 65)}, nil)
	b.add("request/legal moves, player 65", "ListLegalMoves",
		&rulebookv1.ListLegalMovesRequest{Game: g, State: state, Player: 65}, nil)
	b.add("request/view, viewer -1", "GetView", &rulebookv1.GetViewRequest{Game: g, State: state, Viewer: -1}, nil)
	beyond := int32(b.seats(state) + 1)
	b.add("request/legal moves, a player beyond the seats", "ListLegalMoves",
		&rulebookv1.ListLegalMovesRequest{Game: g, State: state, Player: beyond}, nil)
	b.add("request/view, a viewer beyond the seats", "GetView",
		&rulebookv1.GetViewRequest{Game: g, State: state, Viewer: beyond}, nil)
	for seat := range b.seats(state) {
		b.add("request/legal moves, player "+strconv.Itoa(seat+1), "ListLegalMoves",
			&rulebookv1.ListLegalMovesRequest{Game: g, State: state, Player: int32(seat + 1)}, nil)
	}
	moved := proto.Clone(move).(*rulebookv1.Move)
	moved.Player = 0
	b.add("request/apply, player 0", "ApplyMove", &rulebookv1.ApplyMoveRequest{Game: g, State: state, Move: moved}, nil)
	moved.Player = beyond
	b.add("request/apply, a player beyond the seats", "ApplyMove",
		&rulebookv1.ApplyMoveRequest{Game: g, State: state, Move: moved}, nil)
	b.add("request/score, another game's state", "Score", &rulebookv1.ScoreRequest{Game: g, State: other}, nil)
	b.add("request/score, no game's state", "Score", &rulebookv1.ScoreRequest{Game: g, State: &rulebookv1.GameState{}}, nil)
	b.add("request/apply, another game's move", "ApplyMove",
		&rulebookv1.ApplyMoveRequest{Game: g, State: state, Move: otherMove}, nil)
	b.add("request/apply, a move of no game", "ApplyMove",
		&rulebookv1.ApplyMoveRequest{Game: g, State: state, Move: &rulebookv1.Move{Player: move.GetPlayer()}}, nil)
	b.add("request/new, another game's options", "NewGame", &rulebookv1.NewGameRequest{Game: g, Options: otherOpts}, nil)
}
