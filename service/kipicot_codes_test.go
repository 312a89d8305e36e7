package service_test

import (
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine/kipicot"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	rulebookv1grpc "github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service"
	"github.com/rulebook/rulebook/service/rulesserver"
)

// serveGRPC serves s over gRPC on a port of 127.0.0.1 until the test ends, and returns a client of it.
func serveGRPC(t *testing.T, s *service.Service) *servertest.Client {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	rulebookv1grpc.RegisterRulesServiceServer(srv, rulesserver.New(s))
	go srv.Serve(lis) //nolint:errcheck // Serve returns when Stop closes the listener
	t.Cleanup(srv.Stop)
	return servertest.Dial(t, lis.Addr().String(), "")
}

// TestKipicotReasonCodes checks over gRPC that a Kipicot value out of range gets the engine's own reason code (the
// API's field rules bound only the sizes of lists), and that a token move that breaks a rule of moving gets that
// rule's reason even when the anti-stall rule demands a placement.
func TestKipicotReasonCodes(t *testing.T) {
	c := serveGRPC(t, newService(t, true))
	start, err := kipicot.New(kipicot.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	// stalled is a position in step 2 where the anti-stall rule demands a placement.
	board, err := kipicot.ParseBoard("r1 y . . . | . . . . . | . . y2 r . | . . . . . | . . . . .")
	if err != nil {
		t.Fatal(err)
	}
	stalled, err := kipicot.NewState(kipicot.DefaultOptions(), kipicot.Parts{ToMove: 1, Phase: kipicot.PhaseAction,
		TurnsWithoutPlacement: 2 * kipicot.DefaultAntiStallRounds, SupplyRed: 15, SupplyYellow: 15,
		Caught: [kipicot.Players]kipicot.Catch{{Red: 3}, {Yellow: 3}}, Board: board})
	if err != nil {
		t.Fatal(err)
	}
	apply := func(from *kipicot.State, editState func(*rulebookv1.KipicotState), move *rulebookv1.KipicotMove) proto.Message {
		state := from.Proto()
		if editState != nil {
			editState(state)
		}
		return &rulebookv1.ApplyMoveRequest{Game: kipicot.GameID,
			State: &rulebookv1.GameState{Game: &rulebookv1.GameState_Kipicot{Kipicot: state}},
			Move:  &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Kipicot{Kipicot: move}}}
	}
	coord := func(row, col int32) *rulebookv1.KipicotCoord { return &rulebookv1.KipicotCoord{Row: row, Col: col} }
	moveToken := func(from, to *rulebookv1.KipicotCoord) *rulebookv1.KipicotMove {
		return &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_MoveToken{
			MoveToken: &rulebookv1.KipicotTokenMove{From: from, To: to}}}
	}
	place := func(color rulebookv1.KipicotColor, to *rulebookv1.KipicotCoord) *rulebookv1.KipicotMove {
		return &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Place{
			Place: &rulebookv1.KipicotPlacement{Color: color, To: to}}}
	}
	turn := func(n int) *rulebookv1.KipicotMove {
		steps := make([]*rulebookv1.KipicotStep, n)
		for i := range steps {
			steps[i] = &rulebookv1.KipicotStep{Kind: &rulebookv1.KipicotStep_Skip{Skip: &rulebookv1.KipicotSkip{}}}
		}
		return &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Turn{Turn: &rulebookv1.KipicotTurn{Steps: steps}}}
	}
	skip := &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Skip{Skip: &rulebookv1.KipicotSkip{}}}
	red := rulebookv1.KipicotColor_KIPICOT_COLOR_RED
	illegal := func(reason string) servertest.WantError {
		return servertest.WantError{Code: codes.FailedPrecondition, Reason: reason}
	}

	var cases []servertest.ErrorCase
	add := func(name string, req proto.Message, want servertest.WantError) {
		cases = append(cases, servertest.ErrorCase{Name: name, Call: servertest.Invoke("ApplyMove", req), Want: want})
	}
	// Moves.
	add("token move to row 5", apply(start, nil, moveToken(coord(0, 0), coord(5, 0))),
		servertest.Invalid(kipicot.ReasonSquareOffBoard, "move.kipicot.moveToken.to.row"))
	add("token move from column -1", apply(start, nil, moveToken(coord(0, -1), coord(0, 0))),
		servertest.Invalid(kipicot.ReasonSquareOffBoard, "move.kipicot.moveToken.from.col"))
	add("placement of no colour", apply(start, nil, place(0, coord(0, 0))),
		servertest.Invalid(kipicot.ReasonColorInvalid, "move.kipicot.place.color"))
	add("placement of colour 9", apply(start, nil, place(9, coord(0, 0))),
		servertest.Invalid(kipicot.ReasonColorInvalid, "move.kipicot.place.color"))
	add("placement off the board", apply(start, nil, place(red, coord(2, 1000))),
		servertest.Invalid(kipicot.ReasonSquareOffBoard, "move.kipicot.place.to.col"))
	add("pawn to row -1", apply(start, nil, &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Pawn{
		Pawn: &rulebookv1.KipicotPawnMove{To: coord(-1, 0)}}}),
		servertest.Invalid(kipicot.ReasonSquareOffBoard, "move.kipicot.pawn.to.row"))
	add("fishing corner in row 4", apply(start, nil, &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Fish{
		Fish: &rulebookv1.KipicotFishing{Corner: coord(4, 0)}}}),
		servertest.Invalid(kipicot.ReasonBlockOffBoard, "move.kipicot.fish.corner.row"))
	add("empty turn", apply(start, nil, turn(0)), servertest.Invalid(kipicot.ReasonTurnEmpty, "move.kipicot.turn.steps"))
	add("turn of 5 steps (a list bound)", apply(start, nil, turn(5)),
		servertest.Invalid(service.ReasonFieldTooLarge, "move.kipicot.turn.steps"))
	// States.
	add("token of no colour", apply(start, func(s *rulebookv1.KipicotState) {
		s.Squares[7].Tokens = []rulebookv1.KipicotColor{0}
	}, skip), servertest.Invalid(kipicot.ReasonColorInvalid, "state.kipicot.squares[7].tokens[0]"))
	add("pawn of player 3", apply(start, func(s *rulebookv1.KipicotState) { s.Squares[7].Pawn = 3 }, skip),
		servertest.Invalid(kipicot.ReasonPawnOutOfRange, "state.kipicot.squares[7].pawn"))
	add("supply of 21", apply(start, func(s *rulebookv1.KipicotState) { s.SupplyRed = 21 }, skip),
		servertest.Invalid(kipicot.ReasonCountOutOfRange, "state.kipicot.supplyRed"))
	add("catch of 21", apply(start, func(s *rulebookv1.KipicotState) { s.Captured[0].Yellow = 21 }, skip),
		servertest.Invalid(kipicot.ReasonCountOutOfRange, "state.kipicot.captured[0].yellow"))
	add("phase unspecified", apply(start, func(s *rulebookv1.KipicotState) { s.Phase = 0 }, skip),
		servertest.Invalid(kipicot.ReasonPhaseInvalid, "state.kipicot.phase"))
	add("player 3 to move", apply(start, func(s *rulebookv1.KipicotState) { s.ToMove = 3 }, skip),
		servertest.Invalid(kipicot.ReasonToMoveInvalid, "state.kipicot.toMove"))
	add("anti-stall count of 21", apply(start, func(s *rulebookv1.KipicotState) { s.TurnsWithoutPlacement = 21 }, skip),
		servertest.Invalid(kipicot.ReasonStallCountOutOfRange, "state.kipicot.turnsWithoutPlacement"))
	add("stack of 3 (a list bound)", apply(start, func(s *rulebookv1.KipicotState) {
		s.Squares[7].Tokens = []rulebookv1.KipicotColor{1, 2, 1}
	}, skip), servertest.Invalid(service.ReasonFieldTooLarge, "state.kipicot.squares[7].tokens"))
	// The anti-stall rule comes after the rules of moving.
	add("placement required, from an empty square", apply(stalled, nil, moveToken(coord(4, 4), coord(4, 3))),
		illegal(kipicot.ReasonNoToken))
	add("placement required, a frozen token", apply(stalled, nil, moveToken(coord(0, 0), coord(1, 0))),
		illegal(kipicot.ReasonTokenFrozen))
	add("placement required, a legal move", apply(stalled, nil, moveToken(coord(0, 1), coord(1, 1))),
		illegal(kipicot.ReasonPlacementRequired))
	servertest.CheckErrorCases(t, c, cases)
}
