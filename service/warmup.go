package service

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// WarmUp pays, before the service takes its first call, what the first call of each kind would pay otherwise: for
// every request and answer, the API's validation rules compiled and its encodings run; in every game, the tables an
// engine builds once (Ubongo Duel's deck) and the code of the game, its bot and its messages' encodings run once, by
// a seeded game of a few moves that the bot suggests at the easy level (a fixed number of iterations). It changes no
// answer, and tells the service's observer nothing.
func (s *Service) WarmUp() error {
	for _, file := range []protoreflect.FileDescriptor{rulebookv1.File_rulebook_v1_rules_service_messages_proto,
		rulebookv1.File_rulebook_v1_puzzle_proto} {
		for i := range file.Messages().Len() {
			mt, err := protoregistry.GlobalTypes.FindMessageByName(file.Messages().Get(i).FullName())
			if err != nil {
				return fmt.Errorf("service: warming up: %w", err)
			}
			m := mt.New().Interface()
			_ = s.validator.Validate(m) // an empty request may break rules
			if err := roundTrip(m); err != nil {
				return fmt.Errorf("service: warming up: %w", err)
			}
		}
	}
	for _, info := range s.infos {
		if err := warmUpGame(s.games[info.GetId()], info); err != nil {
			return fmt.Errorf("service: warming up %s: %w", info.GetId(), err)
		}
	}
	return nil
}

// warmUpMoves is how many moves of each game WarmUp plays.
const warmUpMoves = 3

// warmUpGame plays warmUpMoves moves of a seeded game of g, which info describes, each suggested by its bot at the easy level for the first
// seat to move, through what a call would ask of the positions: the seat's legal moves and score, the form a token
// holds, opened again, and the state and the move encoded and decoded as the transports do.
func warmUpGame(g engine.Game, info *rulebookv1.GameInfo) error {
	pos, err := g.New(nil, 1)
	if err != nil {
		return err
	}
	for range warmUpMoves {
		seats := pos.ToMove()
		if len(seats) == 0 {
			return nil
		}
		seat := seats[0]
		if _, err := pos.Legal(seat); err != nil {
			return err
		}
		pos.Score()
		held, _, err := pos.Held(seat)
		if err != nil {
			return err
		}
		if pos, err = g.Open(held); err != nil {
			return err
		}
		if _, err := g.Decode(pos.Encode()); err != nil {
			return err
		}
		easy := engine.Budget{Level: engine.Easy, Iterations: engine.Iterations(info, engine.Easy), Seed: 1}
		suggestion, err := pos.Suggest(seat, easy)
		if err != nil {
			return err
		}
		for _, m := range []proto.Message{pos.Encode(), suggestion.Move} {
			if err := roundTrip(m); err != nil {
				return err
			}
		}
		if pos, _, err = pos.Apply(suggestion.Move); err != nil {
			return err
		}
	}
	return nil
}

// roundTrip encodes m and decodes it again, in protobuf's binary form and in its JSON, as the gRPC and REST transports
// do: the first time a message type is encoded or decoded costs more than the next.
func roundTrip(m proto.Message) error {
	b, err := proto.Marshal(m)
	if err != nil {
		return err
	}
	if err := proto.Unmarshal(b, m.ProtoReflect().New().Interface()); err != nil {
		return err
	}
	if b, err = protojson.Marshal(m); err != nil {
		return err
	}
	return protojson.Unmarshal(b, m.ProtoReflect().New().Interface())
}
