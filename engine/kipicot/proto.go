package kipicot

import (
	"fmt"
	"math"
	"strconv"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// This file is the one place where the engine's types meet the protobuf messages of rulebook.v1.

// Proto returns the options as their protobuf message, every field set.
func (o Options) Proto() *rulebookv1.KipicotOptions {
	rounds, threshold := int32(o.AntiStallRounds), int32(o.EndThreshold)
	return &rulebookv1.KipicotOptions{WholeStackMoves: o.WholeStackMoves, PawnMayStay: o.PawnMayStay,
		AntiStallRounds: &rounds, EndThreshold: &threshold}
}

// OptionsFromProto returns the options of m (nil means every default), an unset field taking its default. An option
// out of range is an Invalid OPTION_OUT_OF_RANGE error whose field is the option's name in KipicotOptions.
func OptionsFromProto(m *rulebookv1.KipicotOptions) (Options, error) {
	o := optionsFromProto(m)
	if err := o.check(""); err != nil {
		return Options{}, err
	}
	return o, nil
}

// optionsFromProto converts m with its defaults, without checks.
func optionsFromProto(m *rulebookv1.KipicotOptions) Options {
	o := DefaultOptions()
	o.WholeStackMoves, o.PawnMayStay = m.GetWholeStackMoves(), m.GetPawnMayStay()
	if m != nil && m.AntiStallRounds != nil {
		o.AntiStallRounds = int(m.GetAntiStallRounds())
	}
	if m != nil && m.EndThreshold != nil {
		o.EndThreshold = int(m.GetEndThreshold())
	}
	return o
}

// Proto returns the state as its protobuf message, with the current rules version and every option set.
func (s *State) Proto() *rulebookv1.KipicotState {
	squares := make([]*rulebookv1.KipicotSquare, Squares)
	for i, q := range s.board {
		m := &rulebookv1.KipicotSquare{Pawn: int32(q.Pawn)}
		for _, c := range []Color{q.Bottom, q.Top} {
			if c != NoColor {
				m.Tokens = append(m.Tokens, rulebookv1.KipicotColor(c))
			}
		}
		squares[i] = m
	}
	captured := make([]*rulebookv1.KipicotCatch, Players)
	for k := range captured {
		c := s.caught[k+1]
		captured[k] = &rulebookv1.KipicotCatch{Red: uint32(c[Red]), Yellow: uint32(c[Yellow])}
	}
	return &rulebookv1.KipicotState{
		RulesVersion:          RulesVersion,
		Options:               s.opts.Proto(),
		ToMove:                int32(s.toMove),
		Phase:                 rulebookv1.KipicotPhase(s.phase),
		TurnsWithoutPlacement: uint32(s.idle),
		SupplyRed:             uint32(s.supply[Red]),
		SupplyYellow:          uint32(s.supply[Yellow]),
		Squares:               squares,
		Captured:              captured,
	}
}

// FromProto returns the state m describes after checking it as NewState does; a nil m is an empty message. Before
// NewState's checks, in order: a rules version other than 0 (the current one) and RulesVersion is an Invalid
// RULES_VERSION_UNSUPPORTED error (field "rulesVersion"); the options are checked; a board of other than 25 squares
// is BOARD_SIZE_MISMATCH ("squares"); a square with more than two tokens STACK_TOO_HIGH ("squares[i].tokens"); a
// token neither red nor yellow COLOR_INVALID ("squares[i].tokens[j]"); catches other than one per player
// CAPTURED_SIZE_MISMATCH ("captured").
func FromProto(m *rulebookv1.KipicotState) (*State, error) {
	if v := m.GetRulesVersion(); v != 0 && v != RulesVersion {
		return nil, engine.Invalidf(ReasonRulesVersionUnsupported, "rulesVersion",
			map[string]string{"rulesVersion": strconv.FormatUint(uint64(v), 10), "supported": strconv.Itoa(RulesVersion)},
			"rules version %d is not supported; this release plays version %d", v, RulesVersion)
	}
	opts := optionsFromProto(m.GetOptions())
	if err := opts.check("options."); err != nil {
		return nil, err
	}
	if n := len(m.GetSquares()); n != Squares {
		return nil, engine.Invalidf(ReasonBoardSizeMismatch, "squares",
			map[string]string{"squares": strconv.Itoa(n), "want": strconv.Itoa(Squares)},
			"the board has %d squares; 5 x 5 needs %d", n, Squares)
	}
	p := Parts{ToMove: engine.Player(m.GetToMove()), Phase: Phase(m.GetPhase()),
		TurnsWithoutPlacement: intFromProto(m.GetTurnsWithoutPlacement()), SupplyRed: intFromProto(m.GetSupplyRed()),
		SupplyYellow: intFromProto(m.GetSupplyYellow())}
	for i, q := range m.GetSquares() {
		tokens := q.GetTokens()
		if len(tokens) > 2 {
			return nil, squareError(ReasonStackTooHigh, i, "tokens", map[string]string{"tokens": strconv.Itoa(len(tokens))},
				"%d tokens; a square holds at most a stack of two", len(tokens))
		}
		colors := [2]Color{}
		for j, c := range tokens {
			if c != rulebookv1.KipicotColor_KIPICOT_COLOR_RED && c != rulebookv1.KipicotColor_KIPICOT_COLOR_YELLOW {
				return nil, squareError(ReasonColorInvalid, i, fmt.Sprintf("tokens[%d]", j),
					map[string]string{"color": strconv.Itoa(int(c))}, "token %d has colour %d, neither red nor yellow", j, c)
			}
			colors[j] = Color(c)
		}
		pawn := q.GetPawn()
		if pawn < 0 || pawn > Players {
			return nil, squareError(ReasonPawnOutOfRange, i, "pawn", map[string]string{"pawn": strconv.Itoa(int(pawn))},
				"pawn %d is not a player's; it must be 0, 1 or 2", pawn)
		}
		p.Board[i] = Square{Bottom: colors[0], Top: colors[1], Pawn: engine.Player(pawn)}
	}
	if n := len(m.GetCaptured()); n != Players {
		return nil, engine.Invalidf(ReasonCapturedSizeMismatch, "captured",
			map[string]string{"captured": strconv.Itoa(n), "players": strconv.Itoa(Players)},
			"%d catches; there is one per player, %d", n, Players)
	}
	for k, c := range m.GetCaptured() {
		p.Caught[k] = Catch{Red: intFromProto(c.GetRed()), Yellow: intFromProto(c.GetYellow())}
	}
	return NewState(opts, p)
}

// intFromProto converts a count of the protobuf messages to an int. Where int has 32 bits it saturates, which leaves
// it out of range all the same.
func intFromProto(n uint32) int {
	return int(min(uint64(n), math.MaxInt))
}

// Proto returns the move as the envelope rulebook.v1.Move, which holds the moving player.
func (m Move) Proto() *rulebookv1.Move {
	km := &rulebookv1.KipicotMove{}
	if m.Turn != nil {
		turn := &rulebookv1.KipicotTurn{Steps: make([]*rulebookv1.KipicotStep, len(m.Turn))}
		for i, st := range m.Turn {
			turn.Steps[i] = st.proto()
		}
		km.Kind = &rulebookv1.KipicotMove_Turn{Turn: turn}
	} else {
		switch k := m.Step.proto().GetKind().(type) {
		case *rulebookv1.KipicotStep_Skip:
			km.Kind = &rulebookv1.KipicotMove_Skip{Skip: k.Skip}
		case *rulebookv1.KipicotStep_MoveToken:
			km.Kind = &rulebookv1.KipicotMove_MoveToken{MoveToken: k.MoveToken}
		case *rulebookv1.KipicotStep_Place:
			km.Kind = &rulebookv1.KipicotMove_Place{Place: k.Place}
		case *rulebookv1.KipicotStep_Pawn:
			km.Kind = &rulebookv1.KipicotMove_Pawn{Pawn: k.Pawn}
		case *rulebookv1.KipicotStep_Fish:
			km.Kind = &rulebookv1.KipicotMove_Fish{Fish: k.Fish}
		}
	}
	return &rulebookv1.Move{Player: int32(m.Player), Game: &rulebookv1.Move_Kipicot{Kipicot: km}}
}

// proto returns the step as its protobuf message; a step of no kind gives an empty message.
func (s Step) proto() *rulebookv1.KipicotStep {
	switch s.Kind {
	case StepSkip:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Skip{Skip: &rulebookv1.KipicotSkip{}}}
	case StepMoveToken:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_MoveToken{MoveToken: &rulebookv1.KipicotTokenMove{
			From: s.From.proto(), To: s.To.proto()}}}
	case StepPlace:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Place{Place: &rulebookv1.KipicotPlacement{
			Color: rulebookv1.KipicotColor(s.Color), To: s.To.proto()}}}
	case StepPawn:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Pawn{Pawn: &rulebookv1.KipicotPawnMove{
			To: s.To.proto()}}}
	case StepFish:
		return &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Fish{Fish: &rulebookv1.KipicotFishing{
			Corner: s.To.proto()}}}
	}
	return &rulebookv1.KipicotStep{}
}

// MoveFromProto returns the move in the envelope m. An envelope without a Kipicot move (or a nil one) is an Invalid
// GAME_MISMATCH error; the player and the steps are checked by Validate (a KipicotMove that holds nothing becomes a
// Move with no step, refused there with STEP_MISSING).
func MoveFromProto(m *rulebookv1.Move) (Move, error) {
	km := m.GetKipicot()
	if km == nil {
		return Move{}, gameMismatch("move")
	}
	mv := Move{Player: engine.Player(m.GetPlayer())}
	switch k := km.GetKind().(type) {
	case *rulebookv1.KipicotMove_Skip:
		mv.Step = Step{Kind: StepSkip}
	case *rulebookv1.KipicotMove_MoveToken:
		mv.Step = stepFromProto(&rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_MoveToken{MoveToken: k.MoveToken}})
	case *rulebookv1.KipicotMove_Place:
		mv.Step = stepFromProto(&rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Place{Place: k.Place}})
	case *rulebookv1.KipicotMove_Pawn:
		mv.Step = stepFromProto(&rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Pawn{Pawn: k.Pawn}})
	case *rulebookv1.KipicotMove_Fish:
		mv.Step = stepFromProto(&rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Fish{Fish: k.Fish}})
	case *rulebookv1.KipicotMove_Turn:
		mv.Turn = make([]Step, len(k.Turn.GetSteps()))
		for i, st := range k.Turn.GetSteps() {
			mv.Turn[i] = stepFromProto(st)
		}
	}
	return mv, nil
}

// stepFromProto converts a step message; one that holds nothing gives a Step of no kind.
func stepFromProto(m *rulebookv1.KipicotStep) Step {
	switch k := m.GetKind().(type) {
	case *rulebookv1.KipicotStep_Skip:
		return Step{Kind: StepSkip}
	case *rulebookv1.KipicotStep_MoveToken:
		return Step{Kind: StepMoveToken, From: coordFromProto(k.MoveToken.GetFrom()), To: coordFromProto(k.MoveToken.GetTo())}
	case *rulebookv1.KipicotStep_Place:
		return Step{Kind: StepPlace, Color: colorFromProto(k.Place.GetColor()), To: coordFromProto(k.Place.GetTo())}
	case *rulebookv1.KipicotStep_Pawn:
		return Step{Kind: StepPawn, To: coordFromProto(k.Pawn.GetTo())}
	case *rulebookv1.KipicotStep_Fish:
		return Step{Kind: StepFish, To: coordFromProto(k.Fish.GetCorner())}
	}
	return Step{}
}

// colorFromProto converts a colour; values other than red and yellow become an invalid Color that keeps the value
// where it fits, and 255 otherwise, so that Validate refuses them with their value.
func colorFromProto(c rulebookv1.KipicotColor) Color {
	if c < 0 || c > math.MaxUint8 {
		return math.MaxUint8
	}
	return Color(c)
}

// coordFromProto converts a coordinate; nil is (0,0).
func coordFromProto(c *rulebookv1.KipicotCoord) Coord {
	return Coord{Row: int(c.GetRow()), Col: int(c.GetCol())}
}

// gameMismatch returns the GAME_MISMATCH error of an envelope (what: "options", "state" or "move") that does not hold
// a Kipicot message.
func gameMismatch(what string) error {
	return engine.Invalidf(ReasonGameMismatch, "", map[string]string{"game": GameID, "envelope": what},
		"the %s holds no Kipicot message", what)
}

// EventsProto returns events as protobuf Event envelopes, in the same order.
func EventsProto(events []Event) []*rulebookv1.Event {
	out := make([]*rulebookv1.Event, len(events))
	for i, e := range events {
		out[i] = &rulebookv1.Event{Game: &rulebookv1.Event_Kipicot{Kipicot: e.proto()}}
	}
	return out
}

// proto returns the coordinate as its protobuf message.
func (c Coord) proto() *rulebookv1.KipicotCoord {
	return &rulebookv1.KipicotCoord{Row: int32(c.Row), Col: int32(c.Col)}
}

// proto returns the event as its protobuf message.
func (e TokenPlaced) proto() *rulebookv1.KipicotEvent {
	return &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Placed{Placed: &rulebookv1.KipicotTokenPlaced{
		Player: int32(e.Player), Square: e.Square.proto(), Color: rulebookv1.KipicotColor(e.Color)}}}
}

// proto returns the event as its protobuf message.
func (e TokenStacked) proto() *rulebookv1.KipicotEvent {
	return &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Stacked{Stacked: &rulebookv1.KipicotTokenPlaced{
		Player: int32(e.Player), Square: e.Square.proto(), Color: rulebookv1.KipicotColor(e.Color)}}}
}

// proto returns the event as its protobuf message.
func (e TokenMoved) proto() *rulebookv1.KipicotEvent {
	return &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Moved{Moved: &rulebookv1.KipicotTokenMoved{
		Player: int32(e.Player), From: e.From.proto(), To: e.To.proto(), Color: rulebookv1.KipicotColor(e.Color),
		Under: rulebookv1.KipicotColor(e.Under)}}}
}

// proto returns the event as its protobuf message.
func (e PawnPlaced) proto() *rulebookv1.KipicotEvent {
	m := &rulebookv1.KipicotPawnPlaced{Player: int32(e.Player), To: e.To.proto()}
	if e.FromBoard {
		m.From = e.From.proto()
	}
	return &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Pawn{Pawn: m}}
}

// proto returns the event as its protobuf message.
func (e FishingChoice) proto() *rulebookv1.KipicotEvent {
	m := &rulebookv1.KipicotFishingChoice{Player: int32(e.Player)}
	for _, c := range e.Corners {
		m.Corners = append(m.Corners, c.proto())
	}
	return &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_FishingChoice{FishingChoice: m}}
}

// proto returns the event as its protobuf message.
func (e Fished) proto() *rulebookv1.KipicotEvent {
	m := &rulebookv1.KipicotFished{Player: int32(e.Player), Corner: e.Corner.proto(), Red: uint32(e.Caught.Red),
		Yellow: uint32(e.Caught.Yellow)}
	for _, c := range e.Taken {
		m.Taken = append(m.Taken, c.proto())
	}
	return &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_Fished{Fished: m}}
}

// proto returns the event as its protobuf message: the leaders are the winner, or both players on a draw.
func (e GameOver) proto() *rulebookv1.KipicotEvent {
	m := &rulebookv1.KipicotGameOver{Draw: e.Draw}
	if e.Draw {
		m.Leaders = []int32{1, 2}
	} else {
		m.Leaders = []int32{int32(e.Winner)}
	}
	return &rulebookv1.KipicotEvent{Kind: &rulebookv1.KipicotEvent_GameOver{GameOver: m}}
}

// Proto returns the score as its protobuf message: a standing per player with the tokens caught as points, ranked
// (equal catches share a rank); once the game is over, the winner (none on a draw); and the Kipicot breakdown.
func (sc Score) Proto() *rulebookv1.Score {
	out := &rulebookv1.Score{GameOver: sc.Over, Standings: make([]*rulebookv1.PlayerStanding, Players)}
	if sc.Over && !sc.Draw {
		out.Winners = []int32{int32(sc.Winner)}
	}
	breakdown := &rulebookv1.KipicotScore{Draw: sc.Draw, SupplyRed: uint32(sc.SupplyRed),
		SupplyYellow: uint32(sc.SupplyYellow)}
	for i, p := range sc.Players {
		rank := 1
		for _, q := range sc.Players {
			if q.Caught.Total() > p.Caught.Total() {
				rank++
			}
		}
		out.Standings[i] = &rulebookv1.PlayerStanding{Player: int32(p.Player), Points: int32(p.Caught.Total()),
			Rank: int32(rank)}
		breakdown.Players = append(breakdown.Players, &rulebookv1.KipicotPlayerScore{Player: int32(p.Player),
			Red: uint32(p.Caught.Red), Yellow: uint32(p.Caught.Yellow), Total: uint32(p.Caught.Total())})
	}
	out.Game = &rulebookv1.Score_Kipicot{Kipicot: breakdown}
	return out
}
