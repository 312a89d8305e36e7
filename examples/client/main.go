// Command client plays the first moves of a game of Exploze on a rulebookd over gRPC, as another service would: it
// deals the game as a token with a pass per seat, moves for each seat with its pass, and reads a refusal's reason.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/gen/rulebook/v1/rulebookv1grpc"
)

func main() {
	addr := "localhost:50051"
	if len(os.Args) > 1 {
		addr = os.Args[1]
	}
	if err := run(addr, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run plays on the rulebookd at addr (host:port, gRPC without TLS) and writes what happens to out.
func run(addr string, out io.Writer) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	rules := rulebookv1grpc.NewRulesServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// A sealed game: the state travels as a token that only the server opens, and each seat moves with its pass.
	game, err := rules.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze", Seal: true,
		Options: &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{
			Exploze: &rulebookv1.ExplozeOptions{Rows: 3, Cols: 3, Players: 2}}}})
	if err != nil {
		return err
	}
	token, passes := game.GetToken(), game.GetSeatPasses()
	fmt.Fprintf(out, "a game for %d seats\n", len(passes))

	// move asks the server to apply seat's move at (row, col) to the game's token, with that seat's pass.
	move := func(seat, row, col int32) (*rulebookv1.ApplyMoveResponse, error) {
		return rules.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", Token: token, SeatPass: passes[seat-1],
			Move: &rulebookv1.Move{Player: seat, Game: &rulebookv1.Move_Exploze{
				Exploze: &rulebookv1.ExplozeMove{Row: row, Col: col}}}})
	}
	for _, m := range [][3]int32{{1, 0, 0}, {2, 2, 2}, {1, 0, 0}} {
		answer, err := move(m[0], m[1], m[2])
		if err != nil {
			return err
		}
		token = answer.GetToken() // the game after the move, to send with the next one
		fmt.Fprintf(out, "seat %d at (%d,%d): events %d, seat %d to move\n", m[0], m[1], m[2], len(answer.GetEvents()),
			answer.GetView().GetExploze().GetToMove())
	}

	// Seat 1's corner exploded onto (0,1): seat 2 may not place there. A broken rule is FAILED_PRECONDITION, with
	// the rule's reason in the status's ErrorInfo.
	_, err = move(2, 0, 1)
	var info *errdetails.ErrorInfo
	for _, d := range status.Convert(err).Details() {
		if i, ok := d.(*errdetails.ErrorInfo); ok {
			info = i
		}
	}
	if info == nil {
		return fmt.Errorf("the move on seat 1's cell: %v, want a refusal with a reason", err)
	}
	fmt.Fprintf(out, "refused: %s %s\n", status.Code(err), info.GetReason())
	return nil
}
